package alertconfigs

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
)

// ListOptions are the inputs of `alertconfigs list`.
type ListOptions struct {
	cmdutil.Deps

	List *cmdutil.ListFlags
}

// NewCmdList builds `alertconfigs list`.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the alert configurations of a project",
		Long:  "List the alert configurations of a project (GET /groups/{project_id}/alertConfigs).",
		Example: `  omctl alertconfigs list
  omctl alertconfigs list --all --jq '.results[] | select(.enabled | not) | .id'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return listRun(cmd.Context(), opts)
		},
	}
	opts.List = cmdutil.AddListFlags(cmd, true)
	return cmd
}

func listRun(ctx context.Context, opts *ListOptions) error {
	return ProjectScope.ListRun(ctx, opts.Deps, opts.List)
}
