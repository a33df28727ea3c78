package server

import (
	"github.com/omctl/omctl/internal/api"
)

const (
	apiBase         = api.BasePath
	maxItemsPerPage = api.MaxItemsPerPage
	maxAPIKeysOrg   = 500
	maxBodyBytes    = api.MaxBodyBytes
	// maxAccessListEntries bounds one key's access list (docs/server.md).
	maxAccessListEntries = 1000
	// maxNotificationMinutes bounds delayMin and intervalMin: a year.
	maxNotificationMinutes = 365 * 24 * 60
	realm                  = "MMS Public API"

	statusTracking  = api.StatusTracking
	statusOpen      = api.StatusOpen
	statusClosed    = api.StatusClosed
	statusCancelled = api.StatusCancelled

	groupLinkRel = "http://mms.mongodb.com/group"
)

var alertStatuses = api.AlertStatuses

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

// conditionalAlertFields says, per conditional field of an alert, which event
// types carry it.
func alertFieldAllowed(field, event string) bool {
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

var conditionalAlertFields = []string{"clusterId", "clusterName", "currentValue", "metricName", "hostId", "hostnameAndPort", "replicaSetName", "sourceTypeName"}

// Notification kinds: the API's own names and the real service's.
var notificationFields = map[string][]string{
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

// partlyRedacted fields show only their last characters once stored.
var partlyRedacted = map[string]bool{"apiToken": true, "monitoringApiKey": true, "notificationToken": true,
	"alertingApiKey": true, "serviceKey": true, "incidentApiKey": true, "datadogApiKey": true,
	"opsGenieApiKey": true, "victorOpsApiKey": true}

// redactedURLs show only their scheme and host once stored.
var redactedURLs = map[string]bool{"webhookUrl": true, "chatBWebhookUrl": true, "microsoftTeamsWebhookUrl": true}

var notificationTypeNames = sortedKeys(notificationFields)

var operators = []string{"GREATER_THAN", "LESS_THAN", "EQUALS", "NOT_EQUALS", "CONTAINS", "NOT_CONTAINS", "STARTS_WITH", "ENDS_WITH", "REGEX"}

func notificationSchema() schema {
	s := schema{
		"typeName":    str(notificationTypeNames...).req(),
		"delayMin":    integer().within(0, maxNotificationMinutes),
		"intervalMin": integer().within(0, maxNotificationMinutes),
	}
	for _, fields := range notificationFields {
		for _, f := range fields {
			switch f {
			case "roles":
				s[f] = array(str())
			case "emailEnabled", "smsEnabled":
				s[f] = boolean()
			default:
				s[f] = str()
			}
		}
	}
	return s
}

func thresholdSchema() schema {
	return schema{"operator": str(operators...), "threshold": number(), "units": str(api.Units...)}
}

func metricThresholdSchema() schema {
	return schema{"metricName": str(api.MetricNames...), "mode": str("AVERAGE"), "operator": str(operators...),
		"threshold": number(), "units": str(api.Units...)}
}

func matcherSchema() schema {
	return schema{"fieldName": str(), "field": str(), "operator": str(operators...), "value": str()}
}

// alertConfigSchema is the body of endpoint 5 (and a fixture's shape).
func alertConfigSchema() schema {
	return schema{
		"id": readOnly(), "groupId": readOnly(), "links": ignored(), "created": ignored(), "updated": ignored(),
		"typeName":        ignored(),
		"enabled":         boolean(),
		"eventTypeName":   str().req(),
		"matchers":        array(object(matcherSchema())),
		"metricThreshold": object(metricThresholdSchema()).orNull(),
		"threshold":       object(thresholdSchema()).orNull(),
		"notifications":   array(object(notificationSchema())).req(),
		"tags":            array(str()),
	}
}

func s3StoreSchema(withLoadFactor bool) schema {
	s := schema{
		"id": str(), "links": ignored(),
		"acceptedTos": boolean().req(), "assignmentEnabled": boolean(),
		"cloudAccessKey": str(), "cloudSecretKey": str(), "awsAccessKey": str(), "awsSecretKey": str(),
		"s3AuthMethod":       str(api.S3AuthMethods...),
		"customCertificates": array(object(schema{"filename": str(), "certString": str()})),
		"disableProxyS3":     boolean(), "encryptedCredentials": boolean(),
		"labels":                 array(str()),
		"pathStyleAccessEnabled": boolean().req(),
		"s3BucketEndpoint":       str().req(),
		"s3BucketName":           str().req(),
		"s3MaxConnections":       integer().req().pos(),
		"s3RegionOverride":       str(),
		"sseEnabled":             boolean().req(),
		"ssl":                    boolean(),
		"uri":                    str().req(),
		"writeConcern":           str(api.WriteConcerns...),
	}
	if withLoadFactor {
		s["loadFactor"] = integer().pos()
	}
	return s
}

// backupJobConfigBodySchema is the body that creates or replaces a
// project's backup jobs configuration (docs/api.md, Backup jobs
// configuration).
func backupJobConfigBodySchema() schema {
	return schema{
		"id": readOnly(), "links": ignored(),
		"labelFilter":            array(str()),
		"syncStoreFilter":        array(str()),
		"oplogStoreFilter":       array(object(schema{"id": str().req(), "type": str("oplogStore")})),
		"snapshotStoreFilter":    array(object(schema{"id": str().req(), "type": str(api.SnapshotStoreFilterTypes...)})),
		"daemonFilter":           array(object(schema{"machine": str(), "headRootDirectory": str()})),
		"kmipClientCertPath":     str(),
		"kmipClientCertPassword": str(),
	}
}
