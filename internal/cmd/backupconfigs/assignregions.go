package backupconfigs

import (
	"context"
	"encoding/json"
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
	DryRun      bool
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
until every new member has a region.

RS_ID is the replica set name of a shard (as a snapshot's parts name it);
the server refuses one that is not a shard of the cluster. A shard keeps
its region until it is given another. omctl reports the regions the
server's answer shows, and fails if the answer shows another region or
multi-region setting than was sent; an answer that does not list regions
(the API's backup configuration has no field for them) is the server's word.
--dry-run prints the PATCH and the diff of the configuration, and sends
nothing.`,
		Example: `  omctl backupconfigs assign-regions 5e3c0c2e8f9d4b0012340001 \
    --region rs0=us-east`,
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
	cmdutil.AddDryRunFlag(cmd, &opts.DryRun)
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
	path := api.PatchBackupConfig.Path(projectID, opts.ClusterID)
	if opts.DryRun {
		before, err := cmdutil.Current(ctx, c, api.GetBackupConfig.Path(projectID, opts.ClusterID), false)
		if err != nil {
			return err
		}
		after, err := cmdutil.Object(before, "a backup configuration")
		if err != nil {
			return err
		}
		after["multiRegionBackupEnabled"] = body.MultiRegionBackupEnabled
		after["multiRegionMisconfigured"] = false
		after["deploymentConfigs"] = withRegions(after["deploymentConfigs"], body.DeploymentConfigs)
		w := cmdutil.Write{Method: api.PatchBackupConfig.Method, Path: path, Body: body, Before: before, After: after}
		return w.Preview(opts.IO.Out, printer.Format())
	}
	res, err := c.Send(ctx, api.PatchBackupConfig.Method, path, body)
	if err != nil {
		return err
	}
	var got map[string]json.RawMessage
	if err := cmdutil.DecodeAnswer(c.Content(res), "a backup configuration", &got); err != nil {
		return err
	}
	msg, err := regionsShown(opts.ClusterID, body, got)
	if err != nil {
		return err
	}
	return printer.Confirm(res, Table, msg)
}

// regionsShown checks the answer to an assignment against what was sent,
// reading only what it shows: the API's backup configuration has
// multiRegionBackupEnabled but no deploymentConfigs (omctl server adds
// them, the real service does not), so an answer without them confirms
// nothing and denies nothing, and the 2xx is the server's word.
func regionsShown(clusterID string, body api.AssignRegionsRequest, got map[string]json.RawMessage) (string, error) {
	mode := map[bool]string{true: "enabled", false: "disabled"}[body.MultiRegionBackupEnabled]
	if raw, ok := got["multiRegionBackupEnabled"]; ok {
		var enabled bool
		if json.Unmarshal(raw, &enabled) != nil || enabled != body.MultiRegionBackupEnabled {
			return "", cmdutil.ErrNotApplied("backup configuration of cluster "+clusterID, []string{"multiRegionBackupEnabled"})
		}
	}
	var sent []string
	for _, d := range body.DeploymentConfigs {
		sent = append(sent, d.RSID+"="+d.DeploymentID)
	}
	raw, ok := got["deploymentConfigs"]
	if !ok {
		return fmt.Sprintf("Cluster %s: deployment regions %s sent (multi-region backup %s); the answer does not show regions, so that is the server's word",
			clusterID, strings.Join(sent, ", "), mode), nil
	}
	var shownList []api.DeploymentConfig
	if err := json.Unmarshal(raw, &shownList); err != nil {
		return "", fmt.Errorf("the server's answer is not a backup configuration: its deploymentConfigs is not a list of {rsId, deploymentId}")
	}
	shown := map[string]string{}
	for _, d := range shownList {
		shown[d.RSID] = d.DeploymentID
	}
	var missing []string
	for _, d := range body.DeploymentConfigs {
		if shown[d.RSID] != d.DeploymentID {
			missing = append(missing, d.RSID+"="+d.DeploymentID)
		}
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("the server answered with success, but its answer does not show the region of %s for cluster %s: the regions may not have been assigned; check with describe",
			strings.Join(missing, ", "), clusterID)
	}
	return fmt.Sprintf("Cluster %s: deployment regions %s (multi-region backup %s)", clusterID, strings.Join(sent, ", "), mode), nil
}

// withRegions is a configuration's deploymentConfigs, as shown, with the
// regions of assigned put in, as the server keeps them: a shard's new
// region in place of its old one.
func withRegions(shown any, assigned []api.DeploymentConfig) []any {
	list, _ := shown.([]any)
	out := append([]any{}, list...)
	for _, d := range assigned {
		entry := map[string]any{"rsId": d.RSID, "deploymentId": d.DeploymentID}
		replaced := false
		for i, e := range out {
			if m, ok := e.(map[string]any); ok && m["rsId"] == d.RSID {
				out[i], replaced = entry, true
			}
		}
		if !replaced {
			out = append(out, entry)
		}
	}
	return out
}
