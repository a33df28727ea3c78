package apikeys

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// DescribeOptions are the inputs of `apikeys describe`.
type DescribeOptions struct {
	cmdutil.Deps

	KeyID string
}

// NewCmdDescribe builds `apikeys describe`.
func NewCmdDescribe(f *cmdutil.Factory, runF func(context.Context, *DescribeOptions) error) *cobra.Command {
	opts := &DescribeOptions{Deps: cmdutil.NewDeps(f)}
	return &cobra.Command{
		Use:   "describe API_KEY_ID --org ORG_ID",
		Short: "Show an API key of an organization",
		Long: `Show an API key of an organization, its private key masked
(GET /orgs/{org_id}/apiKeys/{api_key_id}).`,
		Example:           `  omctl apikeys describe 5f4d0c2e8f9d4b0012340005 --org 5e1a0c2e8f9d4b0012340001`,
		Args:              cmdutil.ExactArgs(1, "API_KEY_ID"),
		ValidArgsFunction: cmdutil.CompleteListed(f, 0, cmdutil.APIKeysListed),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.KeyID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return describeRun(cmd.Context(), opts)
		},
	}
}

func describeRun(ctx context.Context, opts *DescribeOptions) error {
	if err := cmdutil.CheckID("API key", opts.KeyID); err != nil {
		return err
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedOrg | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	body, err := r.Client.Get(ctx, api.GetAPIKey.Path(r.OrgID, opts.KeyID), nil)
	if err != nil {
		return err
	}
	return r.Printer.Describe(body, Table, Detail.Of("id", opts.KeyID))
}
