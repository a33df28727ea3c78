package server

import (
	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
)

// newCmdFaults is the `server faults` group; usage is the template with
// the client flags, which `omctl server` hides from its own help.
func newCmdFaults(f *cmdutil.Factory, usage string) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "faults <command>",
		Short: "Make a running omctl server misbehave, to test how scripts cope",
	})
	addControlCommands(cmd, usage, NewCmdFaultsAdd(f, nil), NewCmdFaultsList(f, nil), NewCmdFaultsClear(f, nil))
	return cmd
}
