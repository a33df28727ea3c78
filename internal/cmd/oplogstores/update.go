package oplogstores

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/s3store"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/rules"
)

// UpdateOptions are the inputs of `oplogstores update`.
type UpdateOptions = s3store.WriteOptions

// NewCmdUpdate builds `oplogstores update`; runF replaces updateRun in tests.
func NewCmdUpdate(f *cmdutil.Factory, runF func(context.Context, *UpdateOptions) error) *cobra.Command {
	if runF == nil {
		runF = updateRun
	}
	return s3store.NewCmdWrite(f, api.PutOplogStore, rules.OplogStore, s3store.Help{
		Short: "Update an S3-compatible oplog store",
		Long:  s3store.UpdateLong(api.PutOplogStore, rules.OplogStore, "\n\nA file may repeat the store's id, but not name another: a store cannot be\nrenamed."),
		Example: `  omctl oplogstores update oplog-east-1 --max-connections 100
  omctl oplogstores update oplog-east-1 --label us --label ssd --dry-run
  omctl oplogstores describe oplog-east-1 -o json > store.json   # edit, then:
  omctl oplogstores update oplog-east-1 --file store.json`,
	}, runF)
}

func updateRun(ctx context.Context, opts *UpdateOptions) error {
	return s3store.Write(ctx, opts, api.PutOplogStore, rules.OplogStore)
}
