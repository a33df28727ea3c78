package orgs

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// DescribeOptions are the inputs of `orgs describe`.
type DescribeOptions struct {
	cmdutil.Deps

	OrgID string
}

// NewCmdDescribe builds `orgs describe`.
func NewCmdDescribe(f *cmdutil.Factory, runF func(context.Context, *DescribeOptions) error) *cobra.Command {
	opts := &DescribeOptions{Deps: cmdutil.NewDeps(f)}
	return &cobra.Command{
		Use:               "describe ORG_ID",
		Short:             "Show an organization",
		Long:              `Show an organization (GET /orgs/{org_id}).`,
		Example:           `  omctl orgs describe 5e1a0c2e8f9d4b0012340001`,
		Args:              cmdutil.ExactArgs(1, "ORG_ID"),
		ValidArgsFunction: cmdutil.CompleteListed(f, 0, cmdutil.OrgsListed),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.OrgID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return describeRun(cmd.Context(), opts)
		},
	}
}

func describeRun(ctx context.Context, opts *DescribeOptions) error {
	if err := cmdutil.CheckID("organization", opts.OrgID); err != nil {
		return err
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	body, err := r.Client.Get(ctx, api.GetOrg.Path(opts.OrgID), nil)
	if err != nil {
		return err
	}
	return r.Printer.Describe(body, Table, Detail.Of("id", opts.OrgID))
}
