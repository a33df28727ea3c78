package backupconfigs

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// AssignRegionsOptions are the inputs of `backupconfigs assign-regions`.
type AssignRegionsOptions struct {
	cmdutil.Deps

	ClusterID   string
	Regions     []string
	MultiRegion bool
}

// NewCmdAssignRegions builds `backupconfigs assign-regions`.
func NewCmdAssignRegions(f *cmdutil.Factory, runF func(context.Context, *AssignRegionsOptions) error) *cobra.Command {
	opts := &AssignRegionsOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "assign-regions CLUSTER_ID --region RS_ID=DEPLOYMENT_ID ... [--multi-region=true]",
		Short: "Assign deployment regions to the shards of a cluster",
		Long: `Assign a deployment region to each shard (replica set) of a cluster for
multi-region backup (PATCH /groups/{project_id}/backupConfigs/{cluster_id}).
A cluster whose multi-region backup is misconfigured takes no new snapshots
until every new member has a region.`,
		Example: `  omctl backupconfigs assign-regions 5e2b0c2e8f9d4b0012345678 \
    --region shard0=us-east --region shard1=eu-west`,
		Args: cmdutil.ExactArgs(1, "CLUSTER_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ClusterID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return assignRegionsRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringArrayVar(&opts.Regions, "region", nil, "RS_ID=DEPLOYMENT_ID: the deployment region of one shard (repeatable)")
	cmd.Flags().BoolVar(&opts.MultiRegion, "multi-region", true, "enable multi-region backup")
	_ = cmd.MarkFlagRequired("region")
	return cmd
}

func assignRegionsRun(ctx context.Context, opts *AssignRegionsOptions) error {
	if err := cmdutil.CheckID("cluster", opts.ClusterID); err != nil {
		return err
	}
	if len(opts.Regions) == 0 {
		return cmdutil.FlagErrorf("give at least one --region RS_ID=DEPLOYMENT_ID")
	}
	body := api.AssignRegionsRequest{MultiRegionBackupEnabled: opts.MultiRegion}
	seen := map[string]bool{}
	for _, r := range opts.Regions {
		rs, dep, ok := strings.Cut(r, "=")
		rs, dep = strings.TrimSpace(rs), strings.TrimSpace(dep)
		if !ok || rs == "" || dep == "" {
			return cmdutil.FlagErrorf("invalid --region %q: want RS_ID=DEPLOYMENT_ID, both non-empty", r)
		}
		if seen[rs] {
			return cmdutil.FlagErrorf("invalid --region %q: shard %q is given a region twice", r, rs)
		}
		seen[rs] = true
		body.DeploymentConfigs = append(body.DeploymentConfigs, api.DeploymentConfig{RSID: rs, DeploymentID: dep})
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedProject | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, projectID, c := r.Printer, r.ProjectID, r.Client
	res, err := c.Send(ctx, api.PatchBackupConfig.Method, api.PatchBackupConfig.Path(projectID, opts.ClusterID), body)
	if err != nil {
		return err
	}
	return printer.Confirm(res, Table, fmt.Sprintf("Deployment regions assigned to %d shard(s) of cluster %s", len(body.DeploymentConfigs), opts.ClusterID))
}
