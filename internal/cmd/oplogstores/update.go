package oplogstores

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmd/s3store"
	"github.com/omctl/omctl/internal/cmdutil"
)

// UpdateOptions are the inputs of `oplogstores update`.
type UpdateOptions struct {
	cmdutil.Deps

	StoreID string
	Store   s3store.Flags
}

// NewCmdUpdate builds `oplogstores update`.
func NewCmdUpdate(f *cmdutil.Factory, runF func(context.Context, *UpdateOptions) error) *cobra.Command {
	opts := &UpdateOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "update STORE_ID (--file FILE | flags)",
		Short: "Update an S3-compatible oplog store",
		Long: `Replace the settings of an S3-compatible oplog store
(PUT /admin/backup/oplog/s3Configs/{id}) from a JSON file, from flags, or from
a file with flags overriding its fields.

Required: --accepted-tos, --path-style-access, --bucket-endpoint,
--bucket-name, --max-connections (positive), --sse, --uri. A file may repeat
the store's id, but not name another: a store cannot be renamed. With
--auth-method IAM_ROLE the key fields are ignored and not returned.`,
		Example: `  omctl oplogstores update oplog-east-1 --file store.json
  omctl oplogstores describe oplog-east-1 -o json > store.json   # edit, then:
  omctl oplogstores update oplog-east-1 --file store.json --max-connections 100`,
		Args: cmdutil.ExactArgs(1, "STORE_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.StoreID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return updateRun(cmd.Context(), opts)
		},
	}
	s3store.AddFlags(cmd, s3store.Oplog, s3store.Update, &opts.Store)
	return cmd
}

func updateRun(ctx context.Context, opts *UpdateOptions) error {
	w := &s3store.WriteOptions{Deps: opts.Deps, Store: opts.Store}
	return s3store.Write(ctx, w, s3store.Oplog, s3store.Update, basePath, opts.StoreID)
}
