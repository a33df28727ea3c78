package orgs

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// ListOptions are the inputs of `orgs list`.
type ListOptions struct {
	cmdutil.Deps

	Name string
	List *cmdutil.ListFlags
}

// NewCmdList builds `orgs list`.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "list [--name NAME]",
		Short: "List the organizations the API key is in",
		Long: `List the organizations the API key is in (GET /orgs): those it has a role in
or in one of whose projects it has a role; every one for a key with a global
role. --name keeps those of that whole name, without regard to case.`,
		Example: `  omctl orgs list
  omctl orgs list --name acme -o jsonl --jq .id`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return listRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Name, "name", "", "only the organizations of this name (case ignored)")
	opts.List = cmdutil.AddListFlags(cmd, false)
	return cmd
}

func listRun(ctx context.Context, opts *ListOptions) error {
	return cmdutil.PrintList(ctx, opts.Deps, 0, opts.List, nameQuery(opts.Name),
		func(cmdutil.Resolved) string { return api.ListOrgs.Path() }, Table)
}
