package cmdutil

import (
	"context"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/config"
)

// CompletionTimeout bounds the API calls of a completion: a shell must
// never hang on a slow or unreachable server.
var CompletionTimeout = 2 * time.Second

// CompleteFromAPI completes an argument with what fetch finds on the
// server. Any error yields no suggestions and no message: completion runs
// inside the user's shell, where an error text would land on their prompt.
func CompleteFromAPI(f *Factory, fetch func(ctx context.Context, c *client.Client) ([]cobra.Completion, error)) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		const directive = cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
		if len(args) > 0 {
			return nil, directive
		}
		f.IOStreams.ErrOut = io.Discard
		f.Flags.Debug = false
		c, err := f.Client()
		if err != nil {
			return nil, directive
		}
		ctx, cancel := context.WithTimeout(cmd.Context(), CompletionTimeout)
		defer cancel()
		out, err := fetch(ctx, c)
		if err != nil {
			return nil, directive
		}
		return out, directive
	}
}

// CompleteValues completes a flag with a fixed set of values.
func CompleteValues(values ...string) cobra.CompletionFunc {
	return cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)
}

// CompleteProfiles completes -P with the profiles of the config file.
func CompleteProfiles(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	path, err := config.Path()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	file, err := config.Load(path)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return file.ProfileNames(), cobra.ShellCompDirectiveNoFileComp
}
