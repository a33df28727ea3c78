package snapshotstores

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/s3store"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/rules"
)

// UpdateOptions are the inputs of `snapshotstores update`.
type UpdateOptions = s3store.WriteOptions

// NewCmdUpdate builds `snapshotstores update`; runF replaces updateRun in tests.
func NewCmdUpdate(f *cmdutil.Factory, runF func(context.Context, *UpdateOptions) error) *cobra.Command {
	if runF == nil {
		runF = updateRun
	}
	return s3store.NewCmdWrite(f, api.PutSnapshotStore, rules.SnapshotStore, s3store.Help{
		Short: "Update an S3-compatible snapshot store",
		Long:  s3store.UpdateLong(api.PutSnapshotStore, rules.SnapshotStore, "\n\n--load-factor, when given, must be positive."),
		Example: `  omctl snapshotstores update blockstore-1 --load-factor 2
  omctl snapshotstores update blockstore-1 --file blockstore.json
  omctl snapshotstores update blockstore-1 --max-connections 80 --dry-run`,
	}, runF)
}

func updateRun(ctx context.Context, opts *UpdateOptions) error {
	return s3store.Write(ctx, opts, api.PutSnapshotStore, rules.SnapshotStore)
}
