package api

// Link is the link object every resource and list carries.
type Link struct {
	Href string `json:"href"`
	Rel  string `json:"rel"`
}

// List is the list envelope of every list endpoint, with its items left
// raw so callers decide how to read them.
type List[T any] struct {
	Results    []T    `json:"results"`
	Links      []Link `json:"links,omitempty"`
	TotalCount int    `json:"totalCount"`
}

// CurrentValue is the measured value of an OUTSIDE_METRIC_THRESHOLD alert.
type CurrentValue struct {
	Number float64 `json:"number"`
	Units  string  `json:"units"`
}

// Alert is an alert (docs/api.md, Alert); a global alert has the same shape.
type Alert struct {
	ID                     string        `json:"id"`
	GroupID                string        `json:"groupId,omitempty"`
	AlertConfigID          string        `json:"alertConfigId,omitempty"`
	EventTypeName          string        `json:"eventTypeName"`
	TypeName               string        `json:"typeName,omitempty"`
	Status                 string        `json:"status"`
	Created                string        `json:"created,omitempty"`
	Updated                string        `json:"updated,omitempty"`
	LastNotified           string        `json:"lastNotified,omitempty"`
	Resolved               string        `json:"resolved,omitempty"`
	AcknowledgedUntil      string        `json:"acknowledgedUntil,omitempty"`
	AcknowledgementComment string        `json:"acknowledgementComment,omitempty"`
	AcknowledgingUsername  string        `json:"acknowledgingUsername,omitempty"`
	ClusterID              string        `json:"clusterId,omitempty"`
	ClusterName            string        `json:"clusterName,omitempty"`
	CurrentValue           *CurrentValue `json:"currentValue,omitempty"`
	HostID                 string        `json:"hostId,omitempty"`
	HostnameAndPort        string        `json:"hostnameAndPort,omitempty"`
	MetricName             string        `json:"metricName,omitempty"`
	ReplicaSetName         string        `json:"replicaSetName,omitempty"`
	SourceTypeName         string        `json:"sourceTypeName,omitempty"`
	HumanReadable          string        `json:"humanReadable,omitempty"`
	Tags                   []string      `json:"tags,omitempty"`
	Links                  []Link        `json:"links,omitempty"`
}

// AcknowledgeRequest is the body of endpoint 3. A nil AcknowledgedUntil
// unacknowledges the alert.
type AcknowledgeRequest struct {
	AcknowledgedUntil      *string `json:"acknowledgedUntil,omitempty"`
	AcknowledgementComment string  `json:"acknowledgementComment,omitempty"`
}

// Matcher is one rule of an alert configuration.
type Matcher struct {
	FieldName string `json:"fieldName"`
	Operator  string `json:"operator"`
	Value     string `json:"value"`
}

// Threshold is the threshold of non-metric alert configurations.
type Threshold struct {
	Operator  string   `json:"operator,omitempty"`
	Threshold *float64 `json:"threshold,omitempty"`
	Units     string   `json:"units,omitempty"`
}

// MetricThreshold is the threshold of OUTSIDE_METRIC_THRESHOLD configurations.
type MetricThreshold struct {
	MetricName string   `json:"metricName,omitempty"`
	Mode       string   `json:"mode,omitempty"`
	Operator   string   `json:"operator,omitempty"`
	Threshold  *float64 `json:"threshold,omitempty"`
	Units      string   `json:"units,omitempty"`
}

// AlertConfig is a project alert configuration and, with GroupIDs and
// ForAllGroups, a global one (docs/api.md, Alert configuration).
type AlertConfig struct {
	ID              string           `json:"id"`
	GroupID         string           `json:"groupId,omitempty"`
	Created         string           `json:"created,omitempty"`
	Updated         string           `json:"updated,omitempty"`
	Enabled         bool             `json:"enabled"`
	EventTypeName   string           `json:"eventTypeName"`
	TypeName        string           `json:"typeName,omitempty"`
	ForAllGroups    *bool            `json:"forAllGroups,omitempty"`
	GroupIDs        []string         `json:"groupIds,omitempty"`
	Matchers        []Matcher        `json:"matchers,omitempty"`
	MetricThreshold *MetricThreshold `json:"metricThreshold,omitempty"`
	Threshold       *Threshold       `json:"threshold,omitempty"`
	Notifications   []map[string]any `json:"notifications"`
	Tags            []string         `json:"tags,omitempty"`
	Links           []Link           `json:"links,omitempty"`
}

// EnabledRequest is the body of endpoints 6 and 9.
type EnabledRequest struct {
	Enabled bool `json:"enabled"`
}

// BackupConfig is a backup configuration (docs/api.md).
type BackupConfig struct {
	ClusterID                string   `json:"clusterId"`
	GroupID                  string   `json:"groupId"`
	StatusName               string   `json:"statusName,omitempty"`
	StorageEngineName        string   `json:"storageEngineName,omitempty"`
	EncryptionEnabled        bool     `json:"encryptionEnabled"`
	ExcludedNamespaces       []string `json:"excludedNamespaces,omitempty"`
	IncludedNamespaces       []string `json:"includedNamespaces,omitempty"`
	SSLEnabled               bool     `json:"sslEnabled"`
	AuthMechanismName        string   `json:"authMechanismName,omitempty"`
	MultiRegionBackupEnabled bool     `json:"multiRegionBackupEnabled"`
	MultiRegionMisconfigured bool     `json:"multiRegionMisconfigured"`
	AvailableMembers         []string `json:"availableMembers,omitempty"`
	PreferredMember          string   `json:"preferredMember,omitempty"`
	// DeploymentConfigs are the regions assigned to shards (endpoint 11).
	DeploymentConfigs []DeploymentConfig `json:"deploymentConfigs,omitempty"`
	Links             []Link             `json:"links,omitempty"`
}

// DeploymentConfig assigns a deployment region to one shard (endpoint 11).
type DeploymentConfig struct {
	RSID         string `json:"rsId"`
	DeploymentID string `json:"deploymentId"`
}

// AssignRegionsRequest is the body of endpoint 11.
type AssignRegionsRequest struct {
	MultiRegionBackupEnabled bool               `json:"multiRegionBackupEnabled"`
	DeploymentConfigs        []DeploymentConfig `json:"deploymentConfigs"`
}

// BSONTimestamp is a date with an operation-order increment.
type BSONTimestamp struct {
	Date      string `json:"date"`
	Increment int64  `json:"increment"`
}

// SnapshotPart is one part of a snapshot (docs/api.md, Snapshot).
type SnapshotPart struct {
	ClusterID          string `json:"clusterId,omitempty"`
	HostID             string `json:"hostId,omitempty"`
	CompletedTime      string `json:"completedTime,omitempty"`
	CompressionSetting string `json:"compressionSetting,omitempty"`
	DataSizeBytes      int64  `json:"dataSizeBytes,omitempty"`
	EncryptionEnabled  bool   `json:"encryptionEnabled"`
	FCV                string `json:"fcv,omitempty"`
	FileSizeBytes      int64  `json:"fileSizeBytes,omitempty"`
	MachineID          string `json:"machineId,omitempty"`
	MasterKeyUUID      string `json:"masterKeyUUID,omitempty"`
	MongodVersion      string `json:"mongodVersion,omitempty"`
	ReplicaSetName     string `json:"replicaSetName,omitempty"`
	ReplicaState       string `json:"replicaState,omitempty"`
	StorageSizeBytes   int64  `json:"storageSizeBytes,omitempty"`
	TypeName           string `json:"typeName,omitempty"`
}

// NamespaceFilterList says which namespaces a snapshot holds.
type NamespaceFilterList struct {
	FilterList []string `json:"filterList"`
	FilterType string   `json:"filterType"`
}

// Snapshot is a cluster snapshot (docs/api.md); a legacy config-server snapshot has the same shape
// with one part and no MissingShards or IsPossiblyInconsistent.
type Snapshot struct {
	ID                        string               `json:"id"`
	GroupID                   string               `json:"groupId"`
	ClusterID                 string               `json:"clusterId,omitempty"`
	ClusterName               string               `json:"clusterName,omitempty"`
	Complete                  bool                 `json:"complete"`
	Created                   *BSONTimestamp       `json:"created,omitempty"`
	DoNotDelete               bool                 `json:"doNotDelete"`
	Expires                   string               `json:"expires,omitempty"`
	IsPossiblyInconsistent    *bool                `json:"isPossiblyInconsistent,omitempty"`
	LastOplogAppliedTimestamp *BSONTimestamp       `json:"lastOplogAppliedTimestamp,omitempty"`
	NamespaceFilterList       *NamespaceFilterList `json:"namespaceFilterList,omitempty"`
	MissingShards             []map[string]any     `json:"missingShards,omitempty"`
	Parts                     []SnapshotPart       `json:"parts,omitempty"`
	Links                     []Link               `json:"links,omitempty"`
}

// SnapshotExpiryRequest is the body of endpoint 14.
type SnapshotExpiryRequest struct {
	DoNotDelete *bool   `json:"doNotDelete,omitempty"`
	Expires     *string `json:"expires,omitempty"`
}

// CustomCertificate is a CA chain a store trusts.
type CustomCertificate struct {
	Filename   string `json:"filename"`
	CertString string `json:"certString"`
}

// S3Store (docs/api.md, S3 stores) is an S3-compatible oplog store or snapshot store.
// Optional booleans are pointers so a request says only what it means.
type S3Store struct {
	ID                     string              `json:"id,omitempty"`
	AcceptedTos            *bool               `json:"acceptedTos,omitempty"`
	AssignmentEnabled      *bool               `json:"assignmentEnabled,omitempty"`
	CloudAccessKey         string              `json:"cloudAccessKey,omitempty"`
	CloudSecretKey         string              `json:"cloudSecretKey,omitempty"`
	AWSAccessKey           string              `json:"awsAccessKey,omitempty"`
	AWSSecretKey           string              `json:"awsSecretKey,omitempty"`
	S3AuthMethod           string              `json:"s3AuthMethod,omitempty"`
	CustomCertificates     []CustomCertificate `json:"customCertificates,omitempty"`
	DisableProxyS3         *bool               `json:"disableProxyS3,omitempty"`
	EncryptedCredentials   *bool               `json:"encryptedCredentials,omitempty"`
	Labels                 []string            `json:"labels,omitempty"`
	LoadFactor             *int64              `json:"loadFactor,omitempty"`
	PathStyleAccessEnabled *bool               `json:"pathStyleAccessEnabled,omitempty"`
	S3BucketEndpoint       string              `json:"s3BucketEndpoint,omitempty"`
	S3BucketName           string              `json:"s3BucketName,omitempty"`
	S3MaxConnections       *int64              `json:"s3MaxConnections,omitempty"`
	S3RegionOverride       string              `json:"s3RegionOverride,omitempty"`
	SSEEnabled             *bool               `json:"sseEnabled,omitempty"`
	SSL                    *bool               `json:"ssl,omitempty"`
	URI                    string              `json:"uri,omitempty"`
	WriteConcern           string              `json:"writeConcern,omitempty"`
	Links                  []Link              `json:"links,omitempty"`
}

// StoreFilter names one store a project's backup jobs may use.
type StoreFilter struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

// DaemonFilter names one backup daemon a project's jobs may use.
type DaemonFilter struct {
	Machine           string `json:"machine"`
	HeadRootDirectory string `json:"headRootDirectory"`
}

// BackupJobConfig is a project backup jobs configuration, with the field
// names the real service uses (docs/api.md).
type BackupJobConfig struct {
	ID                     string         `json:"id"`
	DaemonFilter           []DaemonFilter `json:"daemonFilter,omitempty"`
	KMIPClientCertPath     string         `json:"kmipClientCertPath,omitempty"`
	KMIPClientCertPassword string         `json:"kmipClientCertPassword,omitempty"`
	LabelFilter            []string       `json:"labelFilter,omitempty"`
	OplogStoreFilter       []StoreFilter  `json:"oplogStoreFilter,omitempty"`
	SnapshotStoreFilter    []StoreFilter  `json:"snapshotStoreFilter,omitempty"`
	SyncStoreFilter        []string       `json:"syncStoreFilter,omitempty"`
	Links                  []Link         `json:"links,omitempty"`
}

// APIKeyRole is one role of an organization API key.
type APIKeyRole struct {
	GroupID  string `json:"groupId,omitempty"`
	OrgID    string `json:"orgId,omitempty"`
	RoleName string `json:"roleName"`
}

// APIKey is an organization API key (docs/api.md).
type APIKey struct {
	ID         string       `json:"id"`
	Desc       string       `json:"desc"`
	PublicKey  string       `json:"publicKey"`
	PrivateKey string       `json:"privateKey"`
	Roles      []APIKeyRole `json:"roles"`
	Links      []Link       `json:"links,omitempty"`
}

// APIKeyCreateRequest is the body of endpoint 21.
type APIKeyCreateRequest struct {
	Desc  string   `json:"desc,omitempty"`
	Roles []string `json:"roles,omitempty"`
}

// AccessListEntry is an entry of a key's access list (docs/api.md); in requests exactly one of IPAddress and
// CIDRBlock is set.
type AccessListEntry struct {
	IPAddress       string `json:"ipAddress,omitempty"`
	CIDRBlock       string `json:"cidrBlock,omitempty"`
	Count           *int64 `json:"count,omitempty"`
	Created         string `json:"created,omitempty"`
	LastUsed        string `json:"lastUsed,omitempty"`
	LastUsedAddress string `json:"lastUsedAddress,omitempty"`
	Links           []Link `json:"links,omitempty"`
}

// Error is the error body of every non-2xx response (docs/api.md, Errors).
type Error struct {
	Detail     string `json:"detail"`
	Error      int    `json:"error"`
	ErrorCode  string `json:"errorCode,omitempty"`
	Parameters []any  `json:"parameters,omitempty"`
	Reason     string `json:"reason"`
}

// Project is a project (a group) of the real service's project reads
// (docs/api.md, Project).
type Project struct {
	ID               string   `json:"id"`
	Name             string   `json:"name"`
	OrgID            string   `json:"orgId,omitempty"`
	ActiveAgentCount int      `json:"activeAgentCount"`
	ReplicaSetCount  int      `json:"replicaSetCount"`
	ShardCount       int      `json:"shardCount"`
	PublicAPIEnabled bool     `json:"publicApiEnabled"`
	LastActiveAgent  string   `json:"lastActiveAgent,omitempty"`
	Tags             []string `json:"tags,omitempty"`
	Links            []Link   `json:"links,omitempty"`
}

// Org is an organization (docs/api.md, Organization).
type Org struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	IsDeleted *bool  `json:"isDeleted,omitempty"`
	Links     []Link `json:"links,omitempty"`
}

// Cluster is a cluster of a project (docs/api.md, Cluster).
type Cluster struct {
	ID             string `json:"id"`
	GroupID        string `json:"groupId"`
	ClusterName    string `json:"clusterName,omitempty"`
	TypeName       string `json:"typeName,omitempty"`
	ReplicaSetName string `json:"replicaSetName,omitempty"`
	ShardName      string `json:"shardName,omitempty"`
	LastHeartbeat  string `json:"lastHeartbeat,omitempty"`
	Links          []Link `json:"links,omitempty"`
}
