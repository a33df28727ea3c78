package root

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
)

func newTestRoot(want func([]string) bool) *cobra.Command {
	ios, _, _, _ := iostreams.Test()
	return newCmdRoot(cmdutil.New(ios), want)
}

// TestTopCommandsAnswerToTheirNames: a run builds only the command its
// first argument names, found by the names of topCommands, so these must
// be exactly the names and aliases the built commands answer to, and
// every command of the root must be built by one entry.
func TestTopCommandsAnswerToTheirNames(t *testing.T) {
	seen := map[string]bool{}
	for _, top := range topCommands() {
		root := newTestRoot(func(names []string) bool { return slices.Equal(names, top.names) })
		var answers []string
		for _, c := range root.Commands() {
			if c.Name() == "help" || c.Name() == "completion" {
				continue
			}
			seen[c.Name()] = true
			answers = append(answers, c.Name())
			for _, a := range c.Aliases {
				if !slices.Contains(answers, a) {
					answers = append(answers, a)
				}
			}
		}
		slices.Sort(answers)
		want := slices.Sorted(slices.Values(top.names))
		if !slices.Equal(answers, want) {
			t.Errorf("topCommands has %v, the commands answer to %v", want, answers)
		}
	}
	for _, c := range NewCmdRoot(cmdutil.New(must(iostreams.Test()))).Commands() {
		if !seen[c.Name()] && c.Name() != "help" && c.Name() != "completion" {
			t.Errorf("no entry of topCommands builds %q", c.Name())
		}
	}
}

func must(ios *iostreams.IOStreams, _, _, _ any) *iostreams.IOStreams { return ios }

// TestVersionBuildsNoCommand pins what start-up gains: `omctl --version`
// builds the root alone, and a command line the command it names.
func TestVersionBuildsNoCommand(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-v"}} {
		if root := newTestRoot(reachable(args)); root.HasSubCommands() {
			t.Errorf("%v built %d commands", args, len(root.Commands()))
		}
	}
	for args, want := range map[string][]string{
		"alert list --help": {"alerts", "completion", "help"},
		"apply -f x.yaml":   {"apply", "completion", "diff", "export", "help"},
		"environment":       {"completion", "environment", "exit-codes", "formatting", "help"},
	} {
		var names []string
		for _, c := range newTestRoot(reachable(strings.Fields(args))).Commands() {
			names = append(names, c.Name())
		}
		if !slices.Equal(names, want) {
			t.Errorf("%s built %v, want %v", args, names, want)
		}
	}
}

// TestAPartialTreeAnswersAsTheWholeOne: whatever a run builds, what it
// prints is what the whole tree prints: every command's help, and the
// usage errors of every command and its aliases.
func TestAPartialTreeAnswersAsTheWholeOne(t *testing.T) {
	t.Setenv("OMCTL_CONFIG_DIR", t.TempDir())
	all := func([]string) bool { return true }
	lines := [][]string{{"--version"}, {"-v"}, {"--help"}, {}, {"nosuch"}, {"alrts", "list"}, {"--debug", "alerts", "list", "--help"}}
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		for _, sub := range c.Commands() {
			if sub.Hidden {
				continue
			}
			p := append(slices.Clone(path), sub.Name())
			lines = append(lines, append(slices.Clone(p), "--help"), append(slices.Clone(p), "--nosuchflag"))
			if sub.HasSubCommands() {
				lines = append(lines, append(slices.Clone(p), "nosuch"))
			}
			walk(sub, p)
		}
	}
	root := NewCmdRoot(cmdutil.New(must(iostreams.Test())))
	walk(root, nil)
	for _, top := range root.Commands() {
		for _, a := range top.Aliases {
			lines = append(lines, []string{a, "--help"}, []string{a, "--nosuchflag"})
		}
	}
	for _, args := range lines {
		ios, _, out, errOut := iostreams.Test()
		code := Run(args, ios)
		wholeIOS, _, wholeOut, wholeErr := iostreams.Test()
		wholeCode := runTree(args, wholeIOS, all)
		if code != wholeCode || out.String() != wholeOut.String() || errOut.String() != wholeErr.String() {
			t.Errorf("omctl %s: exit %d, stdout %q, stderr %q; the whole tree: exit %d, stdout %q, stderr %q",
				strings.Join(args, " "), code, out, errOut, wholeCode, wholeOut, wholeErr)
		}
	}
}
