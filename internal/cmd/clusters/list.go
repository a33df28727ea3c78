package clusters

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// ListOptions are the inputs of `clusters list`.
type ListOptions struct {
	cmdutil.Deps

	List *cmdutil.ListFlags
}

// NewCmdList builds `clusters list`.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the clusters of a project",
		Long: `List the clusters of a project (GET /groups/{project_id}/clusters), in the
order the service discovered them. A sharded cluster is listed with its shards'
replica sets (their SHARD column set). The ID column is what
snapshots --cluster and backupconfigs describe take.`,
		Example: `  omctl clusters list --project 5e2b0c2e8f9d4b0012340001
  omctl clusters list --project shop -o jsonl --jq 'select(.typeName == "REPLICA_SET") | .id'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return listRun(cmd.Context(), opts)
		},
	}
	opts.List = cmdutil.AddListFlags(cmd, true)
	return cmd
}

func listRun(ctx context.Context, opts *ListOptions) error {
	return cmdutil.PrintList(ctx, opts.Deps, cmdutil.NeedProject, opts.List, nil,
		func(r cmdutil.Resolved) string { return api.ListClusters.Path(r.ProjectID) }, Table)
}
