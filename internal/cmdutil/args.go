package cmdutil

import (
	"strings"

	"github.com/spf13/cobra"
)

// ExactArgs requires exactly n arguments, naming them when some are missing.
func ExactArgs(n int, names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) < n:
			return FlagErrorf("missing %s: usage: %s", strings.Join(names[len(args):], " "), cmd.UseLine())
		case len(args) > n:
			return FlagErrorf("too many arguments %q: usage: %s", args[n:], cmd.UseLine())
		}
		return nil
	}
}

// RangeArgs accepts between min and max arguments.
func RangeArgs(min, max int, names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < min {
			return FlagErrorf("missing %s: usage: %s", strings.Join(names[len(args):min], " "), cmd.UseLine())
		}
		if len(args) > max {
			return FlagErrorf("too many arguments %q: usage: %s", args[max:], cmd.UseLine())
		}
		return nil
	}
}

// Group makes cmd a command group: with no arguments it shows its help;
// with an unknown subcommand it fails as a usage error, where cobra would
// show help and exit 0.
func Group(cmd *cobra.Command) *cobra.Command {
	cmd.Args = cobra.ArbitraryArgs
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return c.Help()
		}
		names := make([]string, 0, len(c.Commands()))
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				names = append(names, sub.Name())
			}
		}
		if c.SuggestionsMinimumDistance <= 0 {
			c.SuggestionsMinimumDistance = 2 // cobra's default, set only when it suggests itself
		}
		if s := c.SuggestionsFor(args[0]); len(s) > 0 {
			return FlagErrorf("unknown command %q for %q: did you mean %s?", args[0], c.CommandPath(), strings.Join(s, " or "))
		}
		return FlagErrorf("unknown command %q for %q: available commands are %s", args[0], c.CommandPath(), strings.Join(names, ", "))
	}
	return cmd
}
