package projects

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// ListOptions are the inputs of `projects list`.
type ListOptions struct {
	cmdutil.Deps

	List *cmdutil.ListFlags
}

// NewCmdList builds `projects list`.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the projects the API key reads",
		Long: `List every project the API key reads (GET /groups): those it has a project
role in, or every project for a key with a global role. The ID column is what
--project takes; --project also takes a project's name.`,
		Example: `  omctl projects list
  omctl projects list -o jsonl --jq .id`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return listRun(cmd.Context(), opts)
		},
	}
	opts.List = cmdutil.AddListFlags(cmd, false)
	return cmd
}

func listRun(ctx context.Context, opts *ListOptions) error {
	return cmdutil.PrintList(ctx, opts.Deps, 0, opts.List, nil, func(cmdutil.Resolved) string { return api.ListProjects.Path() }, Table)
}
