package root

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	cfg "github.com/omctl/omctl/internal/config"
)

// readmeTableHeader begins README.md's table of settings, which
// generated() writes from the key table (cfg.AllKeys) and the global
// flags, so `make docs` rewrites it and `make test` fails while it is stale.
const readmeTableHeader = "| Profile key "

// readmeKeyTable renders the table: a row per key, then the variables of
// a run that are no profile keys.
func readmeKeyTable(root *cobra.Command) string {
	pf := root.PersistentFlags()
	flagCell := func(name string) string {
		if name == "" {
			return ""
		}
		f := pf.Lookup(name)
		if f.Shorthand != "" {
			return fmt.Sprintf("`-%s/--%s`", f.Shorthand, f.Name)
		}
		return "`--" + f.Name + "`"
	}
	rows := [][3]string{{"Profile key", "Environment", "Flag"}}
	for _, k := range cfg.AllKeys {
		rows = append(rows, [3]string{"`" + k.Name + "`", "`" + k.Env + "`", flagCell(k.Flag)})
	}
	rows = append(rows,
		[3]string{"(profile)", "`" + cfg.ProfileEnv + "`", flagCell("profile")},
		[3]string{"(retries)", "`" + cfg.RetriesEnv + "`", flagCell("retries")})
	var width [3]int
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len(c))
		}
	}
	var b strings.Builder
	for n, r := range rows {
		fmt.Fprintf(&b, "| %-*s | %-*s | %-*s |\n", width[0], r[0], width[1], r[1], width[2], r[2])
		if n == 0 {
			fmt.Fprintf(&b, "|%s|%s|%s|\n", strings.Repeat("-", width[0]+2), strings.Repeat("-", width[1]+2), strings.Repeat("-", width[2]+2))
		}
	}
	return b.String()
}

// readmeWithKeyTable is readme with its table of settings, the lines from
// readmeTableHeader to the first that is no table row, replaced by
// readmeKeyTable; the rest stays byte for byte.
func readmeWithKeyTable(readme []byte, root *cobra.Command) ([]byte, error) {
	lines := strings.SplitAfter(string(readme), "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, readmeTableHeader) {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, errors.New("README.md has no table of settings (a line starting " + readmeTableHeader + ")")
	}
	end := start
	for end < len(lines) && strings.HasPrefix(lines[end], "|") {
		end++
	}
	out := strings.Join(lines[:start], "") + readmeKeyTable(root) + strings.Join(lines[end:], "")
	return []byte(out), nil
}

func readmeFile(t *testing.T, root *cobra.Command) []byte {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := readmeWithKeyTable(readme, root)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// A stale table is rewritten: a renamed variable, a missing key and a
// flag that is gone all disappear, and the text around the table stays.
func TestReadmeKeyTableIsRewrittenFromTheKeyTable(t *testing.T) {
	stale := "## Configuration\n\nintro\n\n" +
		"| Profile key | Environment | Flag |\n|---|---|---|\n" +
		"| `base_url` | `OMCTL_URL` | `--url` |\n" +
		"\nafter the table\n"
	got, err := readmeWithKeyTable([]byte(stale), referenceTree())
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	if !strings.HasPrefix(s, "## Configuration\n\nintro\n\n| Profile key ") || !strings.HasSuffix(s, "|\n\nafter the table\n") {
		t.Errorf("text around the table changed:\n%s", s)
	}
	if strings.Contains(s, "OMCTL_URL") || strings.Contains(s, "--url`") {
		t.Errorf("stale row kept:\n%s", s)
	}
	for _, k := range cfg.AllKeys {
		row := "| `" + k.Name + "`"
		if !strings.Contains(s, row) || !strings.Contains(s, "`"+k.Env+"`") {
			t.Errorf("no row for %s:\n%s", k.Name, s)
		}
	}
	for _, want := range []string{"`-o/--output`", "`--base-url`", "`-P/--profile`", "`" + cfg.RetriesEnv + "`"} {
		if !strings.Contains(s, want) {
			t.Errorf("table lacks %s:\n%s", want, s)
		}
	}
	if again, _ := readmeWithKeyTable(got, referenceTree()); !bytes.Equal(again, got) {
		t.Errorf("rewriting a current table changed it:\n%s", again)
	}
	if _, err := readmeWithKeyTable([]byte("# omctl\n\nno table\n"), referenceTree()); err == nil {
		t.Error("a README without the table was accepted")
	}
}
