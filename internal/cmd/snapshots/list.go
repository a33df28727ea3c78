package snapshots

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
)

// ListOptions are the inputs of `snapshots list`.
type ListOptions struct {
	cmdutil.Deps

	Source source
	List   *cmdutil.ListFlags
}

// NewCmdList builds `snapshots list`.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "list (--cluster CLUSTER_ID | --host HOST_ID)",
		Short: "List the snapshots of a cluster or legacy config server",
		Long: `List the snapshots of a cluster (GET /groups/{project_id}/clusters/{cluster_id}/snapshots)
or, deprecated, of a legacy config server (GET /groups/{project_id}/hosts/{host_id}/snapshots).`,
		Example: `  omctl snapshots list --cluster 5e3c0c2e8f9d4b0012340001
  omctl snapshots list --cluster 5e3c0c2e8f9d4b0012340001 --all --jq '.results[] | select(.complete) | .id'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return listRun(cmd.Context(), opts)
		},
	}
	addSourceFlags(cmd, &opts.Source)
	opts.List = cmdutil.AddListFlags(cmd, true)
	return cmd
}

func listRun(ctx context.Context, opts *ListOptions) error {
	lo, err := opts.List.ListOptions()
	if err != nil {
		return err
	}
	r, at, err := opts.Source.resolve(opts.Deps)
	if err != nil {
		return err
	}
	printer, c := r.Printer, r.Client
	return printer.List(c.Pages(ctx, at.list(), lo), opts.List.Part(), Table)
}
