package snapshotstores

import (
	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/s3store"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/rules"
)

// NewCmdList builds `snapshotstores list`.
func NewCmdList(f *cmdutil.Factory) *cobra.Command {
	cmd := s3store.NewCmdList(f, api.ListSnapshotStores, rules.SnapshotStore,
		`List the S3-compatible snapshot stores with their credentials as stored
(GET /admin/backup/snapshot/s3Configs). Unless --assignable-only=false, stores
whose assignment is disabled are left out, as the service does.`,
		`  omctl snapshotstores list
  omctl snapshotstores list --assignable-only=false -o jsonl --jq .id`, nil)
	cmd.Short = "List the snapshot stores"
	return cmd
}
