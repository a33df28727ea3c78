package cmdutil

import (
	"context"
	"encoding/json"
	"io"
	"net/url"
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

// Listed says how to complete one argument from a list endpoint: the
// list's path (given the arguments before it), its own query, and the id
// and description of each item.
type Listed struct {
	Path  func(f *Factory, args []string) (string, error)
	Query url.Values
	Item  func(item map[string]any) (id, desc string)
}

// CompleteListed completes the argument at position pos (-1 for a flag's
// value) with the ids of a list, each described by its name, within
// CompletionTimeout, silently as CompleteFromAPI does.
func CompleteListed(f *Factory, pos int, l Listed) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		const directive = cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
		if pos >= 0 && len(args) != pos {
			return nil, directive
		}
		f.IOStreams.ErrOut = io.Discard
		f.Flags.Debug = false
		ctx, cancel := context.WithTimeout(cmd.Context(), CompletionTimeout)
		defer cancel()
		path, err := l.Path(f, args)
		if err != nil {
			return nil, directive
		}
		c, err := f.Client()
		if err != nil {
			return nil, directive
		}
		var out []cobra.Completion
		for raw, err := range c.Items(ctx, path, client.ListOptions{ItemsPerPage: client.MaxItemsPerPage, Query: l.Query}) {
			if err != nil {
				break
			}
			var item map[string]any
			if json.Unmarshal(raw, &item) != nil {
				continue
			}
			if id, desc := l.Item(item); id != "" {
				out = append(out, cobra.CompletionWithDesc(id, desc))
			}
		}
		return out, directive
	}
}

// Field is a string member of a list item, "" when it has none.
func Field(item map[string]any, name string) string {
	s, _ := item[name].(string)
	return s
}
