package oplogstores

import (
	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/s3store"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/rules"
)

// NewCmdList builds `oplogstores list`.
func NewCmdList(f *cmdutil.Factory) *cobra.Command {
	cmd := s3store.NewCmdList(f, api.ListOplogStores, rules.OplogStore,
		`List the S3-compatible oplog stores with their credentials as stored
(GET /admin/backup/oplog/s3Configs). Unless --assignable-only=false, stores
whose assignment is disabled are left out, as the service does.`,
		`  omctl oplogstores list
  omctl oplogstores list --assignable-only=false -o jsonl --jq .id`, nil)
	cmd.Short = "List the oplog stores"
	return cmd
}
