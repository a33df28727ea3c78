package oplogstores

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmd/s3store"
	"github.com/omctl/omctl/internal/cmdutil"
)

// CreateOptions are the inputs of `oplogstores create`.
type CreateOptions struct {
	cmdutil.Deps

	Store s3store.Flags
}

// NewCmdCreate builds `oplogstores create`.
func NewCmdCreate(f *cmdutil.Factory, runF func(context.Context, *CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "create (--file FILE | flags)",
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
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return createRun(cmd.Context(), opts)
		},
	}
	s3store.AddFlags(cmd, s3store.Oplog, s3store.Create, &opts.Store)
	return cmd
}

func createRun(ctx context.Context, opts *CreateOptions) error {
	w := &s3store.WriteOptions{Deps: opts.Deps, Store: opts.Store}
	return s3store.Write(ctx, w, s3store.Oplog, s3store.Create, basePath, "")
}
