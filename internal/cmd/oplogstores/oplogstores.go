// Package oplogstores implements `omctl oplogstores`: read, create and
// update S3-compatible oplog stores (endpoints 17, 18 and the real
// service's update, docs/api.md).
package oplogstores

import (
	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
)

// NewCmdOplogStores is the `oplogstores` command group.
func NewCmdOplogStores(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "oplogstores <command>",
		Short: "List, read, create and update S3-compatible oplog stores",
	})
	cmd.AddCommand(NewCmdList(f), NewCmdDescribe(f), NewCmdCreate(f, nil), NewCmdUpdate(f, nil))
	return cmd
}
