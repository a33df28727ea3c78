package clusters

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// DescribeOptions are the inputs of `clusters describe`.
type DescribeOptions struct {
	cmdutil.Deps

	ClusterID string
}

// NewCmdDescribe builds `clusters describe`.
func NewCmdDescribe(f *cmdutil.Factory, runF func(context.Context, *DescribeOptions) error) *cobra.Command {
	opts := &DescribeOptions{Deps: cmdutil.NewDeps(f)}
	return &cobra.Command{
		Use:               "describe CLUSTER_ID",
		Short:             "Show a cluster",
		Long:              `Show a cluster of a project (GET /groups/{project_id}/clusters/{cluster_id}).`,
		Example:           `  omctl clusters describe 5e3c0c2e8f9d4b0012340001`,
		Args:              cmdutil.ExactArgs(1, "CLUSTER_ID"),
		ValidArgsFunction: cmdutil.CompleteListed(f, 0, cmdutil.ClustersListed),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ClusterID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return describeRun(cmd.Context(), opts)
		},
	}
}

func describeRun(ctx context.Context, opts *DescribeOptions) error {
	if err := cmdutil.CheckID("cluster", opts.ClusterID); err != nil {
		return err
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedProject | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	body, err := r.Client.Get(ctx, api.GetCluster.Path(r.ProjectID, opts.ClusterID), nil)
	if err != nil {
		return err
	}
	return r.Printer.Describe(body, Table, Detail.Of("id", opts.ClusterID))
}
