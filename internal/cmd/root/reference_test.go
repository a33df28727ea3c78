package root

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
)

// `make docs completions` runs these tests with -update to rewrite the
// checked-in files, README.md's table of settings among them; `make test`
// runs them without, to fail when stale.
var update = flag.Bool("update", false, "rewrite docs/, completions/ and README.md's table of settings from the command tree")

const repoRoot = "../../.."

// manDate is fixed so the pages change only when the commands do.
var manDate = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func referenceTree() *cobra.Command {
	ios, _, _, _ := iostreams.Test()
	root := NewCmdRoot(cmdutil.New(ios))
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		c.DisableAutoGenTag = true
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return root
}

// generated renders every reference file: path relative to the repository → content.
func generated(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	tmp := t.TempDir()
	root := referenceTree()
	md, man := filepath.Join(tmp, "md"), filepath.Join(tmp, "man")
	os.MkdirAll(md, 0o755)
	os.MkdirAll(man, 0o755)
	if err := doc.GenMarkdownTree(root, md); err != nil {
		t.Fatal(err)
	}
	header := &doc.GenManHeader{Title: "OMCTL", Section: "1", Source: "omctl", Manual: "omctl manual", Date: &manDate}
	if err := doc.GenManTree(root, header, man); err != nil {
		t.Fatal(err)
	}
	for dir, into := range map[string]string{md: "docs/cli", man: "docs/man"} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
			files[filepath.Join(into, e.Name())] = data
		}
	}
	files["README.md"] = readmeFile(t, root)
	var b bytes.Buffer
	for name, gen := range map[string]func() error{
		"completions/omctl.bash": func() error { return root.GenBashCompletionV2(&b, true) },
		"completions/_omctl":     func() error { return root.GenZshCompletion(&b) },
		"completions/omctl.fish": func() error { return root.GenFishCompletion(&b, true) },
		"completions/omctl.ps1":  func() error { return root.GenPowerShellCompletionWithDesc(&b) },
	} {
		b.Reset()
		if err := gen(); err != nil {
			t.Fatal(err)
		}
		files[name] = bytes.Clone(b.Bytes())
	}
	return files
}

func TestReferenceDocsAndCompletionsAreCurrent(t *testing.T) {
	want := generated(t)
	have := map[string]bool{}
	for _, dir := range []string{"docs/cli", "docs/man", "completions"} {
		entries, _ := os.ReadDir(filepath.Join(repoRoot, dir))
		for _, e := range entries {
			have[filepath.Join(dir, e.Name())] = true
		}
	}
	var stale []string
	for name, content := range want {
		path := filepath.Join(repoRoot, name)
		got, err := os.ReadFile(path)
		if err == nil && bytes.Equal(got, content) {
			continue
		}
		stale = append(stale, name)
		if *update {
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name := range have {
		if _, ok := want[name]; !ok {
			stale = append(stale, name+" (no longer generated)")
			if *update {
				os.Remove(filepath.Join(repoRoot, name))
			}
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 && !*update {
		t.Errorf("docs or completions are stale; run `make docs completions` and commit:\n%s", joinLines(stale))
	}
}

func joinLines(s []string) string {
	var b bytes.Buffer
	for _, l := range s {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

func TestManAndMarkdownCoverEveryCommand(t *testing.T) {
	files := generated(t)
	for _, c := range allCommands(referenceTree()) {
		if !c.IsAvailableCommand() || c.Name() == "help" {
			continue
		}
		md := filepath.Join("docs/cli", replaceSpaces(c.CommandPath())+".md")
		man := filepath.Join("docs/man", strings.ReplaceAll(c.CommandPath(), " ", "-")+".1")
		for _, page := range []string{md, man} {
			if _, ok := files[page]; !ok {
				t.Errorf("no page %s for %q", page, c.CommandPath())
			}
		}
	}
}

func replaceSpaces(s string) string { return strings.ReplaceAll(s, " ", "_") }
