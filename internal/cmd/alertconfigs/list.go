package alertconfigs

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// ListOptions are the inputs of `alertconfigs list` and `globalalertconfigs
// list`.
type ListOptions struct {
	cmdutil.Deps

	List *cmdutil.ListFlags
	// AllProjects lists the configurations of every project the key
	// reads (project scope only).
	AllProjects bool
}

// NewCmdList builds `alertconfigs list`.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	if runF == nil {
		runF = listRun
	}
	return ProjectScope.NewCmdList(f, "List the alert configurations of a project",
		"List the alert configurations of a project (GET /groups/{project_id}/alertConfigs).",
		`  omctl alertconfigs list
  omctl alertconfigs list --all --jq '.results[] | select(.enabled | not) | .id'
  omctl alertconfigs list --all-projects -o jsonl --jq 'select(.eventTypeName == "HOST_DOWN") | .groupId'`, runF)
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
	if s.List == api.ListAlertConfigs {
		cmdutil.AddAllProjectsFlag(cmd, &opts.AllProjects)
	}
	return cmd
}

func listRun(ctx context.Context, opts *ListOptions) error {
	if opts.AllProjects {
		return allProjectsRun(ctx, opts)
	}
	return ProjectScope.ListRun(ctx, opts.Deps, opts.List)
}

// allProjectsRun lists the configurations of every project the key
// reads, with a PROJECT column.
func allProjectsRun(ctx context.Context, opts *ListOptions) error {
	lo, err := opts.List.ListOptions()
	if err != nil {
		return err
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	return r.Printer.List(cmdutil.EveryProjectsPages(ctx, r.Client, api.ListAlertConfigs, lo), output.AllPages, output.WithProject(Table))
}
