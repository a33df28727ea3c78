// Package alerts implements `omctl alerts`: list, describe, ack and unack
// the alerts of a project (endpoints 1 to 3).
package alerts

import (
	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// NewCmdAlerts is the `alerts` command group.
func NewCmdAlerts(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "alerts <command>",
		Short: "List, read and acknowledge the alerts of a project",
		Long: `Alerts are raised when a condition of an alert configuration holds. They go
TRACKING -> OPEN when the configuration's smallest notification delay has
passed, and are CLOSED when the condition ends. Acknowledging an alert stops
its notifications until the acknowledgement ends.`,
	})
	cmd.AddCommand(NewCmdList(f, nil), NewCmdDescribe(f, nil), NewCmdAck(f, nil), NewCmdUnack(f, nil), NewCmdWait(f, nil))
	return cmd
}

func alertsPath(projectID string) string { return api.ListAlerts.Path(projectID) }

// Table is how alerts show as rows; global alerts share it.
var Table = output.Columns([]string{"ID", "STATUS", "EVENT", "CREATED", "TARGET", "ACK UNTIL"},
	func(a api.Alert) []string {
		return []string{a.ID, a.Status, a.EventTypeName, a.Created, Target(a), a.AcknowledgedUntil}
	})

// Target names what an alert is about: a host, a cluster or a replica set.
func Target(a api.Alert) string {
	switch {
	case a.HostnameAndPort != "":
		return a.HostnameAndPort
	case a.ClusterName != "":
		return a.ClusterName
	case a.ReplicaSetName != "":
		return a.ReplicaSetName
	}
	return ""
}
