// Package clusters implements `omctl clusters`: list a project's clusters
// and show one (docs/api.md, Cluster).
package clusters

import (
	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// NewCmdClusters is the `clusters` command group.
func NewCmdClusters(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:     "clusters <command>",
		Aliases: []string{"cluster"},
		Short:   "List the clusters of a project and show one",
	})
	cmd.AddCommand(NewCmdList(f, nil), NewCmdDescribe(f, nil))
	return cmd
}

// Table shows clusters.
var Table = output.Columns([]string{"ID", "NAME", "TYPE", "REPLICA SET", "SHARD", "LAST HEARTBEAT"},
	func(c api.Cluster) []string {
		return []string{c.ID, c.ClusterName, c.TypeName, c.ReplicaSetName, c.ShardName, c.LastHeartbeat}
	})

// Detail is the terminal view of `clusters describe`.
var Detail = output.Details("a cluster", func(c api.Cluster) []output.Field {
	return []output.Field{
		{Name: "ID", Value: c.ID},
		{Name: "Project", Value: c.GroupID},
		{Name: "Name", Value: c.ClusterName},
		{Name: "Type", Value: c.TypeName},
		{Name: "Replica set", Value: c.ReplicaSetName},
		{Name: "Shard", Value: c.ShardName},
		{Name: "Last heartbeat", Value: c.LastHeartbeat},
	}
})
