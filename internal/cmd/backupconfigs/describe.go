package backupconfigs

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// DescribeOptions are the inputs of `backupconfigs describe`.
type DescribeOptions struct {
	cmdutil.Deps

	ClusterID string
	Members   bool
}

// NewCmdDescribe builds `backupconfigs describe`.
func NewCmdDescribe(f *cmdutil.Factory, runF func(context.Context, *DescribeOptions) error) *cobra.Command {
	opts := &DescribeOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "describe CLUSTER_ID [--members]",
		Short: "Show the backup configuration of a cluster",
		Long: `Show the backup configuration of a cluster
(GET /groups/{project_id}/backupConfigs/{cluster_id}). With --members, also the
members available for backup and the preferred member
(GET .../backupConfigs/{cluster_id}/availableMembers).`,
		Example: `  omctl backupconfigs describe 5e3c0c2e8f9d4b0012340001
  omctl backupconfigs describe 5e3c0c2e8f9d4b0012340001 --members -o json`,
		Args: cmdutil.ExactArgs(1, "CLUSTER_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ClusterID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return describeRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Members, "members", false, "include the members available for backup")
	return cmd
}

func describeRun(ctx context.Context, opts *DescribeOptions) error {
	if err := cmdutil.CheckID("cluster", opts.ClusterID); err != nil {
		return err
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedProject | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, projectID, c := r.Printer, r.ProjectID, r.Client
	path := api.GetBackupConfig.Path(projectID, opts.ClusterID)
	if opts.Members {
		path = api.GetBackupConfigMembers.Path(projectID, opts.ClusterID)
	}
	body, err := c.Get(ctx, path, nil)
	if err != nil {
		return err
	}
	detail := Detail.Of("clusterId", opts.ClusterID)
	if opts.Members {
		detail = Detail // the members of a sharded cluster, as the server lists them
	}
	return printer.Describe(body, Table, detail)
}
