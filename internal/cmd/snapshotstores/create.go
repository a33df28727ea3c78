package snapshotstores

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/s3store"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/rules"
)

// CreateOptions are the inputs of `snapshotstores create`.
type CreateOptions = s3store.WriteOptions

// NewCmdCreate builds `snapshotstores create`; runF replaces createRun in tests.
func NewCmdCreate(f *cmdutil.Factory, runF func(context.Context, *CreateOptions) error) *cobra.Command {
	if runF == nil {
		runF = createRun
	}
	return s3store.NewCmdWrite(f, api.CreateSnapshotStore, rules.SnapshotStore, s3store.Help{
		Short: "Create an S3-compatible snapshot store",
		Long: `Create an S3-compatible snapshot store (POST /admin/backup/snapshot/s3Configs)
from a JSON file, from flags, or from a file with flags overriding its fields.

Required: --id, --accepted-tos, --path-style-access, --bucket-endpoint,
--bucket-name, --sse, --uri. --max-connections and --load-factor, when given,
must be positive; left out, the server sets them to 50 and 1. The terms of
service must be accepted (--accepted-tos) or the store cannot be created. An
id already used by a snapshot store is refused by the server (409).`,
		Example: `  omctl snapshotstores create --id blockstore-2 --accepted-tos --path-style-access=false \
    --bucket-endpoint https://s3.us-east-1.example.com --bucket-name blocks \
    --sse --uri db1.example.com:27017,db2.example.com:27017 --auth-method IAM_ROLE
  omctl snapshotstores create --file blockstore.json --load-factor 2`,
	}, runF)
}

func createRun(ctx context.Context, opts *CreateOptions) error {
	return s3store.Write(ctx, opts, api.CreateSnapshotStore, rules.SnapshotStore)
}
