// Package api holds the resource models and the closed value sets of the
// Monitoring and Backup Administration Public API v1.0, shared by the
// omctl client and the embedded server so both agree on one vocabulary.
package api

import (
	"slices"
)

// BasePath is the version prefix every API path sits under (docs/api.md).
const BasePath = "/api/public/v1.0"

// Alert statuses (docs/api.md, Alert).
const (
	StatusTracking  = "TRACKING"
	StatusOpen      = "OPEN"
	StatusClosed    = "CLOSED"
	StatusCancelled = "CANCELLED"
)

// AlertStatuses are all states an alert can be in.
var AlertStatuses = []string{StatusTracking, StatusOpen, StatusClosed, StatusCancelled}

// AlertStatusFilters are the values the `status` query parameter accepts
// (endpoints 1 and 7): CANCELLED is a state but not a filter.
var AlertStatusFilters = []string{StatusTracking, StatusOpen, StatusClosed}

// Event types whose alerts carry conditional fields (docs/api.md, Alert).
const (
	EventHostDown               = "HOST_DOWN"
	EventOutsideMetricThreshold = "OUTSIDE_METRIC_THRESHOLD"
	EventReplicaSet             = "REPLICA_SET"
	EventShardedCluster         = "SHARDED_CLUSTER"
	EventBackup                 = "BACKUP"
)

// Units of currentValue and thresholds (docs/api.md, Alert).
var Units = []string{"RAW", "BITS", "BYTES", "KILOBITS", "KILOBYTES", "MEGABITS", "MEGABYTES",
	"GIGABITS", "GIGABYTES", "TERABYTES", "PETABYTES", "MILLISECONDS", "SECONDS", "MINUTES",
	"HOURS", "DAYS"}

// SourceTypeNames of backup alerts (docs/api.md, Alert).
var SourceTypeNames = []string{"REPLICA_SET", "SHARDED_CLUSTER", "CONFIG_SERVER"}

// MetricNames are the values of metricName.
var MetricNames = []string{"ASSERT_REGULAR", "ASSERT_WARNING", "ASSERT_MSG", "ASSERT_USER",
	"BACKGROUND_FLUSH_AVG", "CACHE_BYTES_READ_INTO", "CACHE_BYTES_WRITTEN_FROM", "CACHE_DIRTY_BYTES",
	"CACHE_USED_BYTES", "TICKETS_AVAILABLE_READS", "TICKETS_AVAILABLE_WRITE", "CONNECTIONS",
	"CURSORS_TOTAL_OPEN", "CURSORS_TOTAL_TIMED_OUT", "EXTRA_INFO_PAGE_FAULTS",
	"GLOBAL_ACCESSES_NOT_IN_MEMORY", "GLOBAL_PAGE_FAULT_EXCEPTIONS_THROWN",
	"GLOBAL_LOCK_CURRENT_QUEUE_TOTAL", "GLOBAL_LOCK_CURRENT_QUEUE_READERS",
	"GLOBAL_LOCK_CURRENT_QUEUE_WRITERS", "INDEX_COUNTERS_BTREE_ACCESSES", "INDEX_COUNTERS_BTREE_HITS",
	"INDEX_COUNTERS_BTREE_MISSES", "INDEX_COUNTERS_BTREE_MISS_RATIO", "JOURNALING_COMMITS_IN_WRITE_LOCK",
	"JOURNALING_MB", "JOURNALING_WRITE_DATA_FILES_MB", "MEMORY_RESIDENT", "MEMORY_VIRTUAL",
	"MEMORY_MAPPED", "COMPUTED_MEMORY", "NETWORK_BYTES_IN", "NETWORK_BYTES_OUT", "NETWORK_NUM_REQUESTS",
	"OPLOG_RATE_GB_PER_HOUR", "OPLOG_MASTER_TIME", "OPLOG_MASTER_LAG_TIME_DIFF",
	"OPLOG_SLAVE_LAG_MASTER_TIME", "DB_STORAGE_TOTAL", "DB_DATA_SIZE_TOTAL", "OPCOUNTER_CMD",
	"OPCOUNTER_QUERY", "OPCOUNTER_UPDATE", "OPCOUNTER_DELETE", "OPCOUNTER_GETMORE", "OPCOUNTER_INSERT",
	"OPCOUNTER_REPL_CMD", "OPCOUNTER_REPL_UPDATE", "OPCOUNTER_REPL_DELETE", "OPCOUNTER_REPL_INSERT",
	"DOCUMENT_METRICS_RETURNED", "DOCUMENT_METRICS_INSERTED", "DOCUMENT_METRICS_UPDATED",
	"DOCUMENT_METRICS_DELETED", "OPERATIONS_SCAN_AND_ORDER", "OP_EXECUTION_TIME_READS",
	"OP_EXECUTION_TIME_WRITES", "OP_EXECUTION_TIME_COMMANDS", "RESTARTS_IN_LAST_HOUR",
	"SYSTEM_MEMORY_USED", "SYSTEM_MEMORY_FREE", "SYSTEM_MEMORY_AVAILABLE", "SYSTEM_NETWORK_BYTES_IN",
	"SYSTEM_NETWORK_BYTES_OUT", "SWAP_USAGE_USED", "SWAP_USAGE_FREE", "QUERY_EXECUTOR_SCANNED",
	"QUERY_EXECUTOR_SCANNED_OBJECTS", "QUERY_TARGETING_SCANNED_PER_RETURNED",
	"QUERY_TARGETING_SCANNED_OBJECTS_PER_RETURNED"}

// Backup configuration values (docs/api.md, Backup configuration).
var (
	BackupStatusNames  = []string{"INACTIVE", "PROVISIONING", "STARTED", "STOPPED", "TERMINATING"}
	StorageEngineNames = []string{"MEMORY_MAPPED", "WIRED_TIGER"}
	AuthMechanismNames = []string{"NATIVE_CR", "GSSAPI", "PLAIN", "NATIVE_X509", "NONE"}
)

// Store values (docs/api.md, S3 stores).
var (
	S3AuthMethods            = []string{"KEYS", "IAM_ROLE"}
	WriteConcerns            = []string{"ACKNOWLEDGED", "W2", "JOURNALED", "MAJORITY"}
	SnapshotStoreFilterTypes = []string{"s3blockstore", "blockstore", "fileSystemStore"}
	NamespaceFilterTypes     = []string{"blacklist", "whitelist"}
	SnapshotPartTypeNames    = []string{"REPLICA_SET", "CONFIG_SERVER_REPLICA_SET", "CONFIG_SERVER"}
)

// Roles (docs/api.md, Roles).
var (
	OrgRoles     = []string{"ORG_OWNER", "ORG_MEMBER", "ORG_GROUP_CREATOR", "ORG_READ_ONLY"}
	ProjectRoles = []string{"GROUP_OWNER", "GROUP_READ_ONLY", "GROUP_MONITORING_ADMIN",
		"GROUP_BACKUP_ADMIN", "GROUP_AUTOMATION_ADMIN", "GROUP_USER_ADMIN", "GROUP_DATA_ACCESS_ADMIN",
		"GROUP_DATA_ACCESS_READ_ONLY", "GROUP_DATA_ACCESS_READ_WRITE"}
	GlobalRoles = []string{"GLOBAL_OWNER", "GLOBAL_READ_ONLY", "GLOBAL_MONITORING_ADMIN",
		"GLOBAL_BACKUP_ADMIN", "GLOBAL_AUTOMATION_ADMIN", "GLOBAL_USER_ADMIN"}
)

// NamedEventTypes are the event types the API names one by one.
// The complete list is not published, so servers accept other upper-snake names too.
var NamedEventTypes = []string{EventHostDown, EventOutsideMetricThreshold, EventReplicaSet,
	EventShardedCluster, "MONITORING_AGENT_DOWN", "BACKUP_AGENT_DOWN", EventBackup,
	"BAD_CLUSTERSHOTS", "CLUSTER_BLACKLIST_UPDATED_AUDIT", "CLUSTER_CHECKKPOINT_UPDATED_AUDIT",
	"CLUSTER_CREDENTIAL_UPDATED_AUDIT", "CLUSTER_SNAPSHOT_SCHEDULE_UPDATED_AUDIT",
	"CLUSTER_STATE_CHANGED_AUDIT", "CLUSTER_STORAGE_ENGINE_UPDATED_AUDIT", "CLUSTERSHOT_DELETED_AUDIT",
	"CLUSTERSHOT_EXPIRY_UPDATED_AUDIT", "CONSISTENT_BACKUP_CONFIGURATION", "GOOD_CLUSTERSHOT",
	"INCONSISTENT_BACKUP_CONFIGURATION", "INITIAL_SYNC_FINISHED_AUDIT", "INITIAL_SYNC_STARTED_AUDIT",
	"OPLOG_BEHIND", "OPLOG_CURRENT", "RESTORE_REQUESTED_AUDIT", "RESYNC_PERFORMED", "RESYNC_REQUIRED",
	"RS_BLACKLIST_UPDATED_AUDIT", "RS_CREDENTIAL_UPDATED_AUDIT", "RS_ROTATE_MASTER_KEY_AUDIT",
	"RS_SNAPSHOT_SCHEDULE_UPDATED_AUDIT", "RS_STATE_CHANGED_AUDIT", "RS_STORAGE_ENGINE_UPDATED_AUDIT",
	"SNAPSHOT_DELETED_AUDIT", "SNAPSHOT_EXPIRY_UPDATED_AUDIT", "SYNC_PENDING_AUDIT",
	"SYNC_REQUIRED_AUDIT", "RS_BIND_ERROR", "BACKUP_TOO_MANY_RETRIES", "BACKUP_IN_UNEXPECTED_STATE"}

// IsObjectID reports whether s is a 24-hexadecimal-digit identifier. Every
// request naming a resource asks, so it is a loop, not a regular
// expression (docs/performance.md).
func IsObjectID(s string) bool {
	if len(s) != 24 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// IsEventTypeName reports whether s has the shape of an event type name,
// an upper-case letter then upper-case letters, digits and underscores.
// The API does not list them all, so the shape is all that can be checked.
// A loop, as IsObjectID: a regular expression was compiled on every start
// (docs/performance.md, "Start-up").
func IsEventTypeName(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !('A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// OneOf reports whether v is one of allowed.
func OneOf(v string, allowed []string) bool { return slices.Contains(allowed, v) }
