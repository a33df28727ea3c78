package alerts

import (
	"strconv"
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/output"
)

// Detail is the terminal view of `alerts describe`: what fired, on what,
// the value that crossed the threshold, and who acknowledged it.
var Detail = output.Details("an alert", func(a api.Alert) []output.Field {
	value := ""
	if a.CurrentValue != nil {
		value = strings.TrimSpace(strconv.FormatFloat(a.CurrentValue.Number, 'f', -1, 64) + " " + a.CurrentValue.Units)
	}
	return []output.Field{
		{Name: "ID", Value: a.ID},
		{Name: "Status", Value: a.Status},
		{Name: "Event", Value: a.EventTypeName},
		{Name: "Target", Value: Target(a)},
		{Name: "Replica set", Value: replicaSetIfNotTarget(a)},
		{Name: "Metric", Value: a.MetricName},
		{Name: "Current value", Value: value},
		{Name: "Created", Value: a.Created},
		{Name: "Updated", Value: a.Updated},
		{Name: "Last notified", Value: a.LastNotified},
		{Name: "Resolved", Value: a.Resolved},
		{Name: "Acknowledged until", Value: a.AcknowledgedUntil},
		{Name: "Acknowledged by", Value: a.AcknowledgingUsername},
		{Name: "Ack comment", Value: a.AcknowledgementComment},
		{Name: "Alert config", Value: a.AlertConfigID},
		{Name: "Project", Value: a.GroupID},
		{Name: "Cluster ID", Value: a.ClusterID},
		{Name: "Host ID", Value: a.HostID},
		{Name: "Tags", Value: strings.Join(a.Tags, "\n")},
	}
})

func replicaSetIfNotTarget(a api.Alert) string {
	if Target(a) == a.ReplicaSetName {
		return ""
	}
	return a.ReplicaSetName
}
