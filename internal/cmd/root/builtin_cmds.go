package root

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
)

// strictBuiltins makes cobra's own `help` and `completion` commands fail
// as usage errors on what they do not know (`omctl help nosuch`, `omctl
// completion tcsh`), where cobra prints help and exits 0.
func strictBuiltins(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		switch c.Name() {
		case "help":
			c.Run = nil
			c.RunE = func(c *cobra.Command, args []string) error {
				target, rest, err := c.Root().Find(args)
				if err != nil || target == nil || len(rest) > 0 {
					return cmdutil.FlagErrorf("unknown help topic %q: run 'omctl help' for the commands and topics", strings.Join(args, " "))
				}
				return target.Help()
			}
		case "completion":
			cmdutil.Group(c)
		}
	}
}
