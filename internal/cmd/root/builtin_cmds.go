package root

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

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

// takesPath says whether a flag takes a path, so that shells complete it
// with file names. A switch, not a map, so that nothing is built at
// package initialisation for what only completions read.
func takesPath(flag string) bool {
	switch flag {
	case "file", "input", "custom-cert", "ca-cert", "tls-cert", "tls-key", "fixtures", "state", "env-file", "secrets-report":
		return true
	}
	return false
}

// noFileCompletions stops shells from offering file names where omctl
// wants an id or a value: the arguments of commands that complete nothing
// better, and every flag but those that take a path.
//
// It visits each command's own flag sets as they are, not
// LocalNonPersistentFlags, which merges every parent's persistent flags
// into every command: on every run, that merging took most of the time of
// building the tree (docs/performance.md, "Start-up"). A flag merged in
// already is one of a parent's and gets the same registration there.
func noFileCompletions(cmd *cobra.Command) {
	if cmd.Runnable() && !cmd.HasSubCommands() && cmd.ValidArgsFunction == nil && len(cmd.ValidArgs) == 0 {
		cmd.ValidArgsFunction = cobra.NoFileCompletions
	}
	register := func(fl *pflag.Flag) {
		if _, ok := cmd.GetFlagCompletionFunc(fl.Name); ok || takesPath(fl.Name) || fl.Value.Type() == "bool" {
			return
		}
		_ = cmd.RegisterFlagCompletionFunc(fl.Name, cobra.NoFileCompletions)
	}
	cmd.Flags().VisitAll(register)
	cmd.PersistentFlags().VisitAll(register)
	for _, sub := range cmd.Commands() {
		noFileCompletions(sub)
	}
}
