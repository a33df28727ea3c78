// Package cmdtest runs commands in tests the way omctl runs them.
package cmdtest

import (
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/output"
)

// Execute runs cmd with args, cobra's help and usage going to ios's
// stderr so that stdout holds only what the command printed.
func Execute(cmd *cobra.Command, ios *iostreams.IOStreams, args ...string) error {
	cmd.SetArgs(args)
	cmd.SetOut(ios.ErrOut)
	cmd.SetErr(ios.ErrOut)
	return cmd.Execute()
}

// ExecuteToStdout is Execute with cobra's own output going to ios's
// stdout, for tests that check cobra writes nothing (a warning, usage)
// where the data belongs.
func ExecuteToStdout(cmd *cobra.Command, ios *iostreams.IOStreams, args ...string) error {
	cmd.SetArgs(args)
	cmd.SetOut(ios.Out)
	cmd.SetErr(ios.ErrOut)
	return cmd.Execute()
}

// Env configures omctl by environment alone, as a CI job does: the server
// at url, a key, project, the default output and an empty config directory.
func Env(t *testing.T, url, project string) {
	t.Helper()
	t.Setenv("OMCTL_CONFIG_DIR", t.TempDir())
	t.Setenv("OMCTL_PROFILE", "")
	t.Setenv("OMCTL_OUTPUT", "")
	t.Setenv("OMCTL_BASE_URL", url)
	t.Setenv("OMCTL_PUBLIC_KEY", "pub")
	t.Setenv("OMCTL_PRIVATE_KEY", "00000000-0000-0000-0000-000000000000")
	t.Setenv("OMCTL_PROJECT_ID", project)
}

// EnvFactory is a real factory configured by Env.
func EnvFactory(t *testing.T, url, project string) *cmdutil.Factory {
	t.Helper()
	Env(t, url, project)
	ios, _, _, _ := iostreams.Test()
	return cmdutil.New(ios)
}

// Printer is a factory's printer for format on ios whose clock stands at
// now, so that relative times ("3 days ago") print the same every run.
func Printer(ios *iostreams.IOStreams, format string, now time.Time) func() (*output.Printer, error) {
	return func() (*output.Printer, error) {
		return output.New(ios, output.Options{Format: format, Now: func() time.Time { return now }})
	}
}

// FormatFactory is a real factory configured by Env with no project, -o
// format and no retries, so that a failing answer reaches the test.
func FormatFactory(t *testing.T, url, format string) *cmdutil.Factory {
	t.Helper()
	Env(t, url, "")
	t.Setenv("OMCTL_OUTPUT", format)
	t.Setenv("OMCTL_RETRIES", "0")
	ios, _, _, _ := iostreams.Test()
	return cmdutil.New(ios)
}

// Subcommands names cmd's subcommands in cobra's order (sorted by name).
func Subcommands(cmd *cobra.Command) []string {
	var names []string
	for _, c := range cmd.Commands() {
		names = append(names, c.Name())
	}
	return names
}
