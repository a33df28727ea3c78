package apikeys

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// AccessListListOptions are the inputs of `apikeys accesslist list`.
type AccessListListOptions struct {
	cmdutil.Deps

	KeyID string
	List  *cmdutil.ListFlags
}

// NewCmdAccessListList builds `apikeys accesslist list`.
func NewCmdAccessListList(f *cmdutil.Factory, runF func(context.Context, *AccessListListOptions) error) *cobra.Command {
	opts := &AccessListListOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "list API_KEY_ID --org ORG_ID",
		Short: "List the access list of an API key",
		Long: `List the addresses and blocks an organization API key may be used from
(GET /orgs/{org_id}/apiKeys/{api_key_id}/accessList), with how often and when
each was last used. The ADDRESS column is what remove and describe take.`,
		Example:           `  omctl apikeys accesslist list 5f4d0c2e8f9d4b0012340005 --org 5e1a0c2e8f9d4b0012340001`,
		Args:              cmdutil.ExactArgs(1, "API_KEY_ID"),
		ValidArgsFunction: cmdutil.CompleteListed(f, 0, cmdutil.APIKeysListed),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.KeyID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return accessListListRun(cmd.Context(), opts)
		},
	}
	opts.List = cmdutil.AddListFlags(cmd, false)
	return cmd
}

func accessListListRun(ctx context.Context, opts *AccessListListOptions) error {
	if err := cmdutil.CheckID("API key", opts.KeyID); err != nil {
		return err
	}
	return cmdutil.PrintList(ctx, opts.Deps, cmdutil.NeedOrg, opts.List, nil,
		func(r cmdutil.Resolved) string { return api.ListAccessList.Path(r.OrgID, opts.KeyID) }, AccessListTable)
}
