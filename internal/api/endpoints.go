package api

import (
	"net/url"
	"strings"
)

// Endpoint is one endpoint of the API: its method and its path under
// BasePath, with {placeholders}. The server registers its routes from
// these, commands build their paths with them, and tests name them, so an
// endpoint's name finds all of it.
type Endpoint struct {
	Name, Method, Pattern string
}

// Path fills the endpoint's placeholders with values, in order, escaped.
func (e Endpoint) Path(values ...string) string {
	var b strings.Builder
	rest := e.Pattern
	for _, v := range values {
		open := strings.IndexByte(rest, '{')
		end := strings.IndexByte(rest, '}')
		if open < 0 || end < open {
			panic("api: " + e.Name + " has fewer placeholders than values")
		}
		b.WriteString(rest[:open])
		b.WriteString(url.PathEscape(v))
		rest = rest[end+1:]
	}
	if strings.IndexByte(rest, '{') >= 0 {
		panic("api: " + e.Name + " needs more values")
	}
	b.WriteString(rest)
	return b.String()
}

func endpoint(name, method, pattern string) Endpoint {
	e := Endpoint{name, method, pattern}
	Endpoints = append(Endpoints, e)
	return e
}

// Endpoints lists every endpoint, the API's own and those of the real
// service that omctl serves beyond it (docs/api.md).
var Endpoints []Endpoint

// The endpoints, by name.
var (
	ListAlerts        = endpoint("ListAlerts", "GET", "/groups/{project_id}/alerts")
	GetAlert          = endpoint("GetAlert", "GET", "/groups/{project_id}/alerts/{alert_id}")
	AckAlert          = endpoint("AckAlert", "PATCH", "/groups/{project_id}/alerts/{alert_id}")
	ListAlertConfigs  = endpoint("ListAlertConfigs", "GET", "/groups/{project_id}/alertConfigs")
	CreateAlertConfig = endpoint("CreateAlertConfig", "POST", "/groups/{project_id}/alertConfigs")
	GetAlertConfig    = endpoint("GetAlertConfig", "GET", "/groups/{project_id}/alertConfigs/{config_id}")
	PutAlertConfig    = endpoint("PutAlertConfig", "PUT", "/groups/{project_id}/alertConfigs/{config_id}")
	EnableAlertConfig = endpoint("EnableAlertConfig", "PATCH", "/groups/{project_id}/alertConfigs/{config_id}")
	DeleteAlertConfig = endpoint("DeleteAlertConfig", "DELETE", "/groups/{project_id}/alertConfigs/{config_id}")

	ListGlobalAlerts        = endpoint("ListGlobalAlerts", "GET", "/globalAlerts")
	ListGlobalAlertConfigs  = endpoint("ListGlobalAlertConfigs", "GET", "/globalAlertConfigs")
	GetGlobalAlertConfig    = endpoint("GetGlobalAlertConfig", "GET", "/globalAlertConfigs/{config_id}")
	EnableGlobalAlertConfig = endpoint("EnableGlobalAlertConfig", "PUT", "/globalAlertConfigs/{config_id}")

	GetBackupConfig        = endpoint("GetBackupConfig", "GET", "/groups/{project_id}/backupConfigs/{cluster_id}")
	PatchBackupConfig      = endpoint("PatchBackupConfig", "PATCH", "/groups/{project_id}/backupConfigs/{cluster_id}")
	GetBackupConfigMembers = endpoint("GetBackupConfigMembers", "GET", "/groups/{project_id}/backupConfigs/{cluster_id}/availableMembers")

	ListSnapshots             = endpoint("ListSnapshots", "GET", "/groups/{project_id}/clusters/{cluster_id}/snapshots")
	GetSnapshot               = endpoint("GetSnapshot", "GET", "/groups/{project_id}/clusters/{cluster_id}/snapshots/{snapshot_id}")
	ExpireSnapshot            = endpoint("ExpireSnapshot", "PATCH", "/groups/{project_id}/clusters/{cluster_id}/snapshots/{snapshot_id}")
	ListConfigServerSnapshots = endpoint("ListConfigServerSnapshots", "GET", "/groups/{project_id}/hosts/{host_id}/snapshots")
	GetConfigServerSnapshot   = endpoint("GetConfigServerSnapshot", "GET", "/groups/{project_id}/hosts/{host_id}/snapshots/{snapshot_id}")

	GetOplogStore       = endpoint("GetOplogStore", "GET", "/admin/backup/oplog/s3Configs/{store_id}")
	CreateOplogStore    = endpoint("CreateOplogStore", "POST", "/admin/backup/oplog/s3Configs")
	PutOplogStore       = endpoint("PutOplogStore", "PUT", "/admin/backup/oplog/s3Configs/{store_id}")
	GetSnapshotStore    = endpoint("GetSnapshotStore", "GET", "/admin/backup/snapshot/s3Configs/{store_id}")
	CreateSnapshotStore = endpoint("CreateSnapshotStore", "POST", "/admin/backup/snapshot/s3Configs")
	PutSnapshotStore    = endpoint("PutSnapshotStore", "PUT", "/admin/backup/snapshot/s3Configs/{store_id}")
	GetBackupJobConfig  = endpoint("GetBackupJobConfig", "GET", "/admin/backup/groups/{project_id}")
	PutBackupJobConfig  = endpoint("PutBackupJobConfig", "PUT", "/admin/backup/groups/{project_id}")

	CreateAPIKey   = endpoint("CreateAPIKey", "POST", "/groups/{project_id}/apiKeys")
	AddAccessList  = endpoint("AddAccessList", "POST", "/orgs/{org_id}/apiKeys/{key_id}/accessList")
	ListAccessList = endpoint("ListAccessList", "GET", "/orgs/{org_id}/apiKeys/{key_id}/accessList")

	// The real service's lists and reads of what the ids above name
	// (docs/api.md, Lists and reads).
	ListProjects          = endpoint("ListProjects", "GET", "/groups")
	GetProject            = endpoint("GetProject", "GET", "/groups/{project_id}")
	GetProjectByName      = endpoint("GetProjectByName", "GET", "/groups/byName/{name}")
	ListOrgs              = endpoint("ListOrgs", "GET", "/orgs")
	GetOrg                = endpoint("GetOrg", "GET", "/orgs/{org_id}")
	ListOrgProjects       = endpoint("ListOrgProjects", "GET", "/orgs/{org_id}/groups")
	ListClusters          = endpoint("ListClusters", "GET", "/groups/{project_id}/clusters")
	GetCluster            = endpoint("GetCluster", "GET", "/groups/{project_id}/clusters/{cluster_id}")
	ListBackupConfigs     = endpoint("ListBackupConfigs", "GET", "/groups/{project_id}/backupConfigs")
	ListOplogStores       = endpoint("ListOplogStores", "GET", "/admin/backup/oplog/s3Configs")
	ListSnapshotStores    = endpoint("ListSnapshotStores", "GET", "/admin/backup/snapshot/s3Configs")
	ListAPIKeys           = endpoint("ListAPIKeys", "GET", "/orgs/{org_id}/apiKeys")
	GetAPIKey             = endpoint("GetAPIKey", "GET", "/orgs/{org_id}/apiKeys/{key_id}")
	GetAccessListEntry    = endpoint("GetAccessListEntry", "GET", "/orgs/{org_id}/apiKeys/{key_id}/accessList/{entry}")
	DeleteAccessListEntry = endpoint("DeleteAccessListEntry", "DELETE", "/orgs/{org_id}/apiKeys/{key_id}/accessList/{entry}")
)
