package apikeys

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// ListOptions are the inputs of `apikeys list`.
type ListOptions struct {
	cmdutil.Deps

	List *cmdutil.ListFlags
}

// NewCmdList builds `apikeys list`.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "list --org ORG_ID",
		Short: "List the API keys of an organization",
		Long: `List the API keys of an organization (GET /orgs/{org_id}/apiKeys): those with a
role in it or in one of its projects. Private keys are shown masked. Only an
ORG_OWNER of the organization or a GLOBAL_OWNER may list them.`,
		Example: `  omctl apikeys list --org 5e1a0c2e8f9d4b0012340001
  omctl apikeys list -o jsonl --jq 'select(.desc == "CI") | .id'`,
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
	return cmdutil.PrintList(ctx, opts.Deps, cmdutil.NeedOrg, opts.List, nil,
		func(r cmdutil.Resolved) string { return api.ListAPIKeys.Path(r.OrgID) }, Table)
}
