// Package backupconfigs implements `omctl backupconfigs`: read a cluster's
// backup configuration and assign deployment regions (endpoints 10, 11).
package backupconfigs

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// NewCmdBackupConfigs is the `backupconfigs` command group.
func NewCmdBackupConfigs(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "backupconfigs <command>",
		Short: "List and read backup configurations and assign deployment regions",
	})
	cmd.AddCommand(NewCmdList(f, nil), NewCmdDescribe(f, nil), NewCmdAssignRegions(f, nil))
	return cmd
}

// Table shows a backup configuration.
var Table = output.Columns([]string{"CLUSTER", "STATUS", "STORAGE ENGINE", "ENCRYPTED", "MULTI-REGION", "MISCONFIGURED", "MEMBERS"},
	func(c api.BackupConfig) []string {
		return []string{c.ClusterID, c.StatusName, c.StorageEngineName, strconv.FormatBool(c.EncryptionEnabled),
			strconv.FormatBool(c.MultiRegionBackupEnabled), strconv.FormatBool(c.MultiRegionMisconfigured),
			strings.Join(c.AvailableMembers, ",")}
	})
