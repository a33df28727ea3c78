package apikeys

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// AccessListDescribeOptions are the inputs of `apikeys accesslist describe`.
type AccessListDescribeOptions struct {
	cmdutil.Deps

	KeyID, Entry string
}

// NewCmdAccessListDescribe builds `apikeys accesslist describe`.
func NewCmdAccessListDescribe(f *cmdutil.Factory, runF func(context.Context, *AccessListDescribeOptions) error) *cobra.Command {
	opts := &AccessListDescribeOptions{Deps: cmdutil.NewDeps(f)}
	return &cobra.Command{
		Use:   "describe API_KEY_ID ADDRESS --org ORG_ID",
		Short: "Show one entry of the access list of an API key",
		Long: `Show one entry of the access list of an organization API key
(GET /orgs/{org_id}/apiKeys/{api_key_id}/accessList/{entry}). ADDRESS is an IP
address or a CIDR block; an address and its /32 (/128) block name the same entry.`,
		Example: `  omctl apikeys accesslist describe 5f4d0c2e8f9d4b0012340005 203.0.113.7 --org 5e1a0c2e8f9d4b0012340001
  omctl apikeys accesslist describe 5f4d0c2e8f9d4b0012340005 10.0.0.0/16`,
		Args:              cmdutil.ExactArgs(2, "API_KEY_ID", "ADDRESS"),
		ValidArgsFunction: completeKeyThenEntry(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.KeyID, opts.Entry = args[0], args[1]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return accessListDescribeRun(cmd.Context(), opts)
		},
	}
}

func accessListDescribeRun(ctx context.Context, opts *AccessListDescribeOptions) error {
	if err := checkEntry(opts.KeyID, opts.Entry); err != nil {
		return err
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedOrg | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	body, err := r.Client.Get(ctx, api.GetAccessListEntry.Path(r.OrgID, opts.KeyID, opts.Entry), nil)
	if err != nil {
		return err
	}
	return r.Printer.Describe(body, AccessListTable, AccessListDetail.OfEither("ipAddress", "cidrBlock"))
}
