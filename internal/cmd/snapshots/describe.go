package snapshots

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
)

// DescribeOptions are the inputs of `snapshots describe`.
type DescribeOptions struct {
	cmdutil.Deps

	SnapshotID string
	Source     source
}

// NewCmdDescribe builds `snapshots describe`.
func NewCmdDescribe(f *cmdutil.Factory, runF func(context.Context, *DescribeOptions) error) *cobra.Command {
	opts := &DescribeOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:     "describe SNAPSHOT_ID (--cluster CLUSTER_ID | --host HOST_ID)",
		Short:   "Show one snapshot",
		Long:    "Show one snapshot of a cluster or, deprecated, of a legacy config server.",
		Example: "  omctl snapshots describe 5f3c0c2e8f9d4b000000019c --cluster 5e3c0c2e8f9d4b0012340001 -o json",
		Args:    cmdutil.ExactArgs(1, "SNAPSHOT_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.SnapshotID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return describeRun(cmd.Context(), opts)
		},
	}
	addSourceFlags(cmd, &opts.Source)
	return cmd
}

func describeRun(ctx context.Context, opts *DescribeOptions) error {
	if err := cmdutil.CheckID("snapshot", opts.SnapshotID); err != nil {
		return err
	}
	r, at, err := opts.Source.resolve(opts.Deps)
	if err != nil {
		return err
	}
	printer, c := r.Printer, r.Client
	body, err := c.Get(ctx, at.snapshot(opts.SnapshotID), nil)
	if err != nil {
		return err
	}
	return printer.Describe(body, Table, Detail.Of("id", opts.SnapshotID))
}
