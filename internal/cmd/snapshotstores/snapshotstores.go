// Package snapshotstores implements `omctl snapshotstores`: update an
// S3-compatible snapshot store (endpoint 19) and read it back.
package snapshotstores

import (
	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
)

const basePath = "/admin/backup/snapshot/s3Configs"

// NewCmdSnapshotStores is the `snapshotstores` command group.
func NewCmdSnapshotStores(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "snapshotstores <command>",
		Short: "Update and read S3-compatible snapshot stores (blockstores)",
	})
	cmd.AddCommand(NewCmdUpdate(f, nil), NewCmdDescribe(f))
	return cmd
}
