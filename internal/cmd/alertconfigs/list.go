package alertconfigs

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
)

// ListOptions are the inputs of `alertconfigs list` and `globalalertconfigs
// list`.
type ListOptions struct {
	cmdutil.Deps

	List *cmdutil.ListFlags
}

// NewCmdList builds `alertconfigs list`.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	if runF == nil {
		runF = listRun
	}
	return ProjectScope.NewCmdList(f, "List the alert configurations of a project",
		"List the alert configurations of a project (GET /groups/{project_id}/alertConfigs).",
		`  omctl alertconfigs list
  omctl alertconfigs list --all --jq '.results[] | select(.enabled | not) | .id'`, runF)
}

// NewCmdList builds the list command of the scope; run lists (tests
// replace it).
func (s Scope) NewCmdList(f *cmdutil.Factory, short, long, example string, run func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:     "list",
		Short:   short,
		Long:    long,
		Example: example,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return run(cmd.Context(), opts)
		},
	}
	opts.List = cmdutil.AddListFlags(cmd, true)
	return cmd
}

func listRun(ctx context.Context, opts *ListOptions) error {
	return ProjectScope.ListRun(ctx, opts.Deps, opts.List)
}
