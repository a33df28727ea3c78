package snapshotstores

import (
	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/s3store"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/rules"
)

// NewCmdDescribe builds `snapshotstores describe`.
func NewCmdDescribe(f *cmdutil.Factory) *cobra.Command {
	cmd := s3store.NewCmdDescribe(f, api.GetSnapshotStore, rules.SnapshotStore,
		"Show an S3-compatible snapshot store (GET /admin/backup/snapshot/s3Configs/{id}).",
		"  omctl snapshotstores describe blockstore-1", nil)
	cmd.Short = "Show a snapshot store"
	return cmd
}
