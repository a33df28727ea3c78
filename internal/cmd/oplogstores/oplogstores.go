// Package oplogstores implements `omctl oplogstores`: read and create
// S3-compatible oplog stores (endpoints 17, 18).
package oplogstores

import (
	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
)

const basePath = "/admin/backup/oplog/s3Configs"

// NewCmdOplogStores is the `oplogstores` command group.
func NewCmdOplogStores(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "oplogstores <command>",
		Short: "Read and create S3-compatible oplog stores",
	})
	cmd.AddCommand(NewCmdDescribe(f), NewCmdCreate(f, nil))
	return cmd
}
