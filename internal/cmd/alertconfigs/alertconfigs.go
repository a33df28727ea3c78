// Package alertconfigs implements `omctl alertconfigs`: list, create, read,
// replace, switch on or off and delete the alert configurations of a
// project (endpoints 4 to 6 and the real service's create, read and
// delete, docs/api.md).
package alertconfigs

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// NewCmdAlertConfigs is the `alertconfigs` command group.
func NewCmdAlertConfigs(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "alertconfigs <command>",
		Short: "List, create, show, replace, enable, disable and delete alert configurations of a project",
	})
	cmd.AddCommand(NewCmdList(f, nil), NewCmdCreate(f, nil), NewCmdDescribe(f, nil), NewCmdUpdate(f, nil),
		NewCmdSetEnabled(f, true, nil), NewCmdSetEnabled(f, false, nil), NewCmdDelete(f, nil))
	return cmd
}

// Table is how alert configurations show as rows; global ones share it.
var Table = output.Columns([]string{"ID", "EVENT", "ENABLED", "NOTIFICATIONS", "UPDATED"},
	func(c api.AlertConfig) []string {
		return []string{c.ID, c.EventTypeName, strconv.FormatBool(c.Enabled), NotificationKinds(c), c.Updated}
	})

// NotificationKinds lists the typeName of each notification target.
func NotificationKinds(c api.AlertConfig) string {
	kinds := make([]string, 0, len(c.Notifications))
	for _, n := range c.Notifications {
		if t, ok := n["typeName"].(string); ok {
			kinds = append(kinds, t)
		}
	}
	return strings.Join(kinds, ",")
}
