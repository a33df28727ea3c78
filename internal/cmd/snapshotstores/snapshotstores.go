// Package snapshotstores implements `omctl snapshotstores`: create and
// update S3-compatible snapshot stores (endpoint 19 and the real service's
// creation, docs/api.md) and read them back.
package snapshotstores

import (
	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
)

// NewCmdSnapshotStores is the `snapshotstores` command group.
func NewCmdSnapshotStores(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "snapshotstores <command>",
		Short: "List, create, update and read S3-compatible snapshot stores (blockstores)",
	})
	cmd.AddCommand(NewCmdList(f), NewCmdCreate(f, nil), NewCmdUpdate(f, nil), NewCmdDescribe(f))
	return cmd
}
