package oplogstores

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/s3store"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/rules"
)

// CreateOptions are the inputs of `oplogstores create`.
type CreateOptions = s3store.WriteOptions

// NewCmdCreate builds `oplogstores create`; runF replaces createRun in tests.
func NewCmdCreate(f *cmdutil.Factory, runF func(context.Context, *CreateOptions) error) *cobra.Command {
	if runF == nil {
		runF = createRun
	}
	return s3store.NewCmdWrite(f, api.CreateOplogStore, rules.OplogStore, s3store.Help{
		Short: "Create an S3-compatible oplog store",
		Long: `Create an S3-compatible oplog store (POST /admin/backup/oplog/s3Configs) from
a JSON file, from flags, or from a file with flags overriding its fields.

Required: --id, --accepted-tos, --path-style-access, --bucket-endpoint,
--bucket-name, --max-connections (positive), --sse, --uri. The terms of
service must be accepted (--accepted-tos) or the store cannot be created.`,
		Example: `  omctl oplogstores create --id oplog-east-1 --accepted-tos --path-style-access=false \
    --bucket-endpoint https://s3.us-east-1.example.com --bucket-name oplogs \
    --max-connections 50 --sse --uri mongodb://meta.example.com:27017 --auth-method IAM_ROLE
  omctl oplogstores create --file store.json`,
	}, runF)
}

func createRun(ctx context.Context, opts *CreateOptions) error {
	return s3store.Write(ctx, opts, api.CreateOplogStore, rules.OplogStore)
}
