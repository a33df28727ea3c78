package oplogstores

import (
	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/s3store"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/rules"
)

// NewCmdDescribe builds `oplogstores describe`.
func NewCmdDescribe(f *cmdutil.Factory) *cobra.Command {
	cmd := s3store.NewCmdDescribe(f, api.GetOplogStore, rules.OplogStore,
		"Show an S3-compatible oplog store with its credentials as stored (GET /admin/backup/oplog/s3Configs/{id}).",
		"  omctl oplogstores describe oplog-east-1 -o json", nil)
	cmd.Short = "Show an oplog store"
	return cmd
}
