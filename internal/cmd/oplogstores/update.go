package oplogstores

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmd/s3store"
	"github.com/omctl/omctl/internal/cmdutil"
)

// UpdateOptions are the inputs of `oplogstores update`.
type UpdateOptions = s3store.WriteOptions

// NewCmdUpdate builds `oplogstores update`; runF replaces updateRun in tests.
func NewCmdUpdate(f *cmdutil.Factory, runF func(context.Context, *UpdateOptions) error) *cobra.Command {
	if runF == nil {
		runF = updateRun
	}
	return s3store.NewCmdWrite(f, s3store.Oplog, s3store.Update, s3store.Help{
		Short: "Update an S3-compatible oplog store",
		Long: `Change the settings of an S3-compatible oplog store
(PUT /admin/backup/oplog/s3Configs/{id}).

With flags alone, omctl reads the store and changes only the fields the
flags name; the rest is sent back as it was, and omctl prints which fields
the server's answer changed. The endpoint replaces the whole store, so
--replace sends the flags' fields alone, and --file sends the file (flags
overriding its fields) as the whole store; both then need every required
field: --accepted-tos, --path-style-access, --bucket-endpoint,
--bucket-name, --max-connections (positive), --sse, --uri. A secret key the
server shows only redacted is never sent back: give --secret-key. A file may
repeat the store's id, but not name another: a store cannot be renamed.
With --auth-method IAM_ROLE the key fields are ignored and not returned.
--dry-run prints the PUT and its diff against the store, and sends nothing.`,
		Example: `  omctl oplogstores update oplog-east-1 --max-connections 100
  omctl oplogstores update oplog-east-1 --label us --label ssd --dry-run
  omctl oplogstores describe oplog-east-1 -o json > store.json   # edit, then:
  omctl oplogstores update oplog-east-1 --file store.json`,
	}, runF)
}

func updateRun(ctx context.Context, opts *UpdateOptions) error {
	return s3store.Write(ctx, opts, s3store.Oplog, s3store.Update)
}
