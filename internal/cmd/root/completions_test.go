package root

import (
	"testing"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
)

// TestCompletionsAreRegisteredWhenAsked pins what start-up gains: the
// tree a run builds registers no completion that only a shell's Tab asks
// for, and __complete, which the shell runs, still finds them.
func TestCompletionsAreRegisteredWhenAsked(t *testing.T) {
	ios, _, out, errOut := iostreams.Test()
	root := NewCmdRoot(cmdutil.New(ios))
	list, _, err := root.Find([]string{"alerts", "list"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := list.GetFlagCompletionFunc("limit"); ok {
		t.Error("--limit's completion was registered before any completion was asked for")
	}
	root.SetArgs([]string{cobra.ShellCompRequestCmd, "alerts", "list", "--limit", ""})
	root.SetOut(out)
	root.SetErr(errOut)
	if err := root.Execute(); err != nil || out.String() != ":4\n" {
		t.Errorf("completing --limit: %v, %q", err, out)
	}
}
