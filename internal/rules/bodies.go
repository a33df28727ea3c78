package rules

import (
	"github.com/omctl/omctl/internal/api"
)

// MaxNotificationMinutes bounds delayMin and intervalMin: a year.
const MaxNotificationMinutes = 365 * 24 * 60

// backupEvents are the event types whose alerts carry the backup fields
// (replicaSetName, sourceTypeName): the backup events (docs/api.md, Alert).
var backupEvents = map[string]bool{"BACKUP": true, "BACKUP_TOO_MANY_RETRIES": true, "BACKUP_IN_UNEXPECTED_STATE": true,
	"RS_BIND_ERROR": true}

func init() {
	for _, e := range api.NamedEventTypes {
		switch e {
		case "BAD_CLUSTERSHOTS", "CLUSTER_BLACKLIST_UPDATED_AUDIT", "CLUSTER_CHECKKPOINT_UPDATED_AUDIT",
			"CLUSTER_CREDENTIAL_UPDATED_AUDIT", "CLUSTER_SNAPSHOT_SCHEDULE_UPDATED_AUDIT", "CLUSTER_STATE_CHANGED_AUDIT",
			"CLUSTER_STORAGE_ENGINE_UPDATED_AUDIT", "CLUSTERSHOT_DELETED_AUDIT", "CLUSTERSHOT_EXPIRY_UPDATED_AUDIT",
			"CONSISTENT_BACKUP_CONFIGURATION", "GOOD_CLUSTERSHOT", "INCONSISTENT_BACKUP_CONFIGURATION",
			"INITIAL_SYNC_FINISHED_AUDIT", "INITIAL_SYNC_STARTED_AUDIT", "OPLOG_BEHIND", "OPLOG_CURRENT",
			"RESTORE_REQUESTED_AUDIT", "RESYNC_PERFORMED", "RESYNC_REQUIRED", "RS_BLACKLIST_UPDATED_AUDIT",
			"RS_CREDENTIAL_UPDATED_AUDIT", "RS_ROTATE_MASTER_KEY_AUDIT", "RS_SNAPSHOT_SCHEDULE_UPDATED_AUDIT",
			"RS_STATE_CHANGED_AUDIT", "RS_STORAGE_ENGINE_UPDATED_AUDIT", "SNAPSHOT_DELETED_AUDIT",
			"SNAPSHOT_EXPIRY_UPDATED_AUDIT", "SYNC_PENDING_AUDIT", "SYNC_REQUIRED_AUDIT":
			backupEvents[e] = true
		}
	}
}

// AlertFieldAllowed says whether an alert of event type event may carry
// the conditional field (docs/api.md, Alert).
func AlertFieldAllowed(field, event string) bool {
	switch field {
	case "clusterId", "clusterName":
		return event == api.EventShardedCluster
	case "currentValue", "metricName":
		return event == api.EventOutsideMetricThreshold
	case "hostId", "hostnameAndPort":
		return event == api.EventHostDown || event == api.EventOutsideMetricThreshold || event == api.EventReplicaSet
	case "replicaSetName":
		return backupEvents[event] || event == api.EventHostDown || event == api.EventOutsideMetricThreshold || event == api.EventReplicaSet
	case "sourceTypeName":
		return backupEvents[event]
	}
	return true
}

// ConditionalAlertFields are the fields of an alert only some event types
// carry (see AlertFieldAllowed).
var ConditionalAlertFields = []string{"clusterId", "clusterName", "currentValue", "metricName", "hostId", "hostnameAndPort", "replicaSetName", "sourceTypeName"}

// NotificationFields are the fields of each notification type: the API's
// own names and the real service's.
var NotificationFields = map[string][]string{
	"EMAIL":           {"emailAddress"},
	"SMS":             {"mobileNumber"},
	"ORG":             {"roles", "emailEnabled", "smsEnabled"},
	"GROUP":           {"roles", "emailEnabled", "smsEnabled"},
	"USER":            {"username", "emailEnabled", "smsEnabled"},
	"TEAM":            {"teamId", "teamName"},
	"ADMIN":           {},
	"WEBHOOK":         {"webhookUrl", "webhookSecret"},
	"CHAT_A":          {"apiToken", "channelName"},
	"SLACK":           {"apiToken", "channelName"},
	"CHAT_B":          {"chatBWebhookUrl"},
	"MICROSOFT_TEAMS": {"microsoftTeamsWebhookUrl"},
	"CHAT_C":          {"notificationToken", "roomName"},
	"HIP_CHAT":        {"notificationToken", "roomName"},
	"MONITORING":      {"monitoringApiKey"},
	"DATADOG":         {"datadogApiKey", "datadogRegion"},
	"ALERTING":        {"alertingApiKey", "alertingRegion"},
	"OPS_GENIE":       {"opsGenieApiKey", "opsGenieRegion"},
	"PAGING":          {"serviceKey"},
	"PAGER_DUTY":      {"serviceKey"},
	"INCIDENT":        {"incidentApiKey", "incidentRoutingKey"},
	"VICTOR_OPS":      {"victorOpsApiKey", "victorOpsRoutingKey"},
}

// PartlyRedacted fields show only their last characters once stored.
var PartlyRedacted = map[string]bool{"apiToken": true, "monitoringApiKey": true, "notificationToken": true,
	"alertingApiKey": true, "serviceKey": true, "incidentApiKey": true, "datadogApiKey": true,
	"opsGenieApiKey": true, "victorOpsApiKey": true}

// redactedURLs show only their scheme and host once stored.
var redactedURLs = map[string]bool{"webhookUrl": true, "chatBWebhookUrl": true, "microsoftTeamsWebhookUrl": true}

var notificationTypeNames = SortedKeys(NotificationFields)

var operators = []string{"GREATER_THAN", "LESS_THAN", "EQUALS", "NOT_EQUALS", "CONTAINS", "NOT_CONTAINS", "STARTS_WITH", "ENDS_WITH", "REGEX"}

func notificationSchema() Schema {
	s := Schema{
		"typeName":    Str(notificationTypeNames...).Req(),
		"delayMin":    Integer().Within(0, MaxNotificationMinutes),
		"intervalMin": Integer().Within(0, MaxNotificationMinutes),
	}
	for _, fields := range NotificationFields {
		for _, f := range fields {
			switch f {
			case "roles":
				s[f] = Array(Str())
			case "emailEnabled", "smsEnabled":
				s[f] = Bool()
			default:
				s[f] = Str()
			}
		}
	}
	return s
}

func thresholdSchema() Schema {
	return Schema{"operator": Str(operators...), "threshold": Number(), "units": Str(api.Units...)}
}

func metricThresholdSchema() Schema {
	return Schema{"metricName": Str(api.MetricNames...), "mode": Str("AVERAGE"), "operator": Str(operators...),
		"threshold": Number(), "units": Str(api.Units...)}
}

func matcherSchema() Schema {
	return Schema{"fieldName": Str(), "field": Str(), "operator": Str(operators...), "value": Str()}
}

// AlertConfigBody is the body that creates or replaces an alert
// configuration (endpoints 5 and 6), and a fixture configuration's shape.
func AlertConfigBody() Schema {
	return Schema{
		"id": ReadOnly(), "groupId": ReadOnly(), "links": Ignored(), "created": Ignored(), "updated": Ignored(),
		"typeName":        Ignored(),
		"enabled":         Bool(),
		"eventTypeName":   Str().Req(),
		"matchers":        Array(Object(matcherSchema())),
		"metricThreshold": Object(metricThresholdSchema()).OrNull(),
		"threshold":       Object(thresholdSchema()).OrNull(),
		"notifications":   Array(Object(notificationSchema())).Req(),
		"tags":            Array(Str()),
	}
}

// EnableAlertConfigBody is the body that enables or disables a project's
// alert configuration (PATCH, endpoint 7).
func EnableAlertConfigBody() Schema {
	return Schema{"enabled": Bool().Req(), "id": ReadOnly(), "groupId": ReadOnly()}
}

// EnableGlobalAlertConfigBody is the body that enables or disables a
// global alert configuration (endpoint 9): enabled, and the other fields
// of a configuration as GET showed it, which change nothing.
func EnableGlobalAlertConfigBody() Schema {
	sch := Schema{"enabled": Bool().Req(), "id": ReadOnly()}
	for _, k := range []string{"links", "created", "updated", "eventTypeName", "typeName", "forAllGroups", "groupIds",
		"matchers", "metricThreshold", "threshold", "notifications", "tags"} {
		sch[k] = Ignored()
	}
	return sch
}

// acknowledgeBody is the body of PATCH on an alert: acknowledgedUntil
// (null or absent to unacknowledge) and a comment. Other fields of the
// alert, current, may be sent back unchanged (a GET, edited).
func acknowledgeBody(body, current Doc) Schema {
	return echoing(Schema{
		"acknowledgedUntil":      Timestamp().OrNull(),
		"acknowledgementComment": Str().OrNull(),
		"links":                  Ignored(),
	}, body, current)
}

// echoing lets body repeat, unchanged, the attributes of current that sch
// does not name: a client may send back what GET showed, edited.
func echoing(sch Schema, body, current Doc) Schema {
	for k := range body {
		if _, known := sch[k]; !known && current[k] != nil {
			sch[k] = ReadOnly()
		}
	}
	return sch
}

// BackupConfigBody is the body of PATCH on a backup configuration: the
// settings a fixture may hold, those the server computes read-only, and
// the syncSource and deploymentConfigs of a change.
func BackupConfigBody() Schema {
	sch := BackupConfigResource()
	sch["multiRegionMisconfigured"] = ReadOnly()
	sch["availableMembers"] = ReadOnly()
	sch["preferredMember"] = ReadOnly()
	sch["links"] = Ignored()
	sch["syncSource"] = Str()
	sch["deploymentConfigs"] = Array(Object(Schema{"rsId": Str().Req(), "deploymentId": Str().Req()}))
	return sch
}

// snapshotExpiryBody is the body of PATCH on a snapshot: doNotDelete and
// expires; the snapshot's other fields, current, may be sent unchanged.
func snapshotExpiryBody(body, current Doc) Schema {
	return echoing(Schema{"doNotDelete": Bool(), "expires": Timestamp(), "links": Ignored()}, body, current)
}

// BackupJobConfigBody is the body that creates or replaces a project's
// backup jobs configuration (docs/api.md, Backup jobs configuration).
func BackupJobConfigBody() Schema {
	return Schema{
		"id": ReadOnly(), "links": Ignored(),
		"labelFilter":            Array(Str()),
		"syncStoreFilter":        Array(Str()),
		"oplogStoreFilter":       Array(Object(Schema{"id": Str().Req(), "type": Str("oplogStore")})),
		"snapshotStoreFilter":    Array(Object(Schema{"id": Str().Req(), "type": Str(api.SnapshotStoreFilterTypes...)})),
		"daemonFilter":           Array(Object(Schema{"machine": Str(), "headRootDirectory": Str()})),
		"kmipClientCertPath":     Str(),
		"kmipClientCertPassword": Str(),
	}
}

// apiKeyBody is the body that creates an organization API key.
func apiKeyBody() Schema {
	return Schema{"desc": Str(), "roles": Array(Str())}
}
