// Package handlers is omctl server's API endpoints: each reads its
// request, calls one named operation of the store's model and renders
// the answer (docs/api.md); Ctx is one request on its way through them.
package handlers

import (
	"net/http"
	"sync/atomic"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/store/model"
)

// Func handles one request: it reads c, renders the answer into c, and
// returns an error the answer is made of instead.
type Func func(c *Ctx) error

// Handlers are the API's endpoints over the server's clock and store.
type Handlers struct {
	now  func() time.Time // the server's clock
	logf func(format string, a ...any)
	// base is where the base URL clients last used is kept, for the
	// server's webhook bodies.
	base *atomic.Value
}

// New makes the handlers.
func New(now func() time.Time, logf func(string, ...any), base *atomic.Value) *Handlers {
	return &Handlers{now: now, logf: logf, base: base}
}

// NewCtx is the context of request r of caller (nil before
// authentication), answered through w.
func (s *Handlers) NewCtx(r *http.Request, caller *model.Principal, w http.ResponseWriter) *Ctx {
	return &Ctx{R: r, s: s, Caller: caller, Header: w.Header(), W: w}
}

// Endpoints pairs every endpoint of internal/api with its handler, which
// bears the endpoint's name (api.AckAlert, s.ackAlert), so that one grep
// finds both; a test holds them to it.
func (s *Handlers) Endpoints() map[api.Endpoint]Func {
	return map[api.Endpoint]Func{
		api.ListAlerts:                s.listAlerts,
		api.GetAlert:                  s.getAlert,
		api.AckAlert:                  s.ackAlert,
		api.ListAlertConfigs:          s.listAlertConfigs,
		api.CreateAlertConfig:         s.createAlertConfig,
		api.DeleteAlertConfig:         s.deleteAlertConfig,
		api.GetAlertConfig:            s.getAlertConfig,
		api.PutAlertConfig:            s.putAlertConfig,
		api.EnableAlertConfig:         s.enableAlertConfig,
		api.ListGlobalAlerts:          s.listGlobalAlerts,
		api.ListGlobalAlertConfigs:    s.listGlobalAlertConfigs,
		api.GetGlobalAlertConfig:      s.getGlobalAlertConfig,
		api.EnableGlobalAlertConfig:   s.enableGlobalAlertConfig,
		api.GetBackupConfig:           s.getBackupConfig,
		api.PatchBackupConfig:         s.patchBackupConfig,
		api.GetBackupConfigMembers:    s.getBackupConfigMembers,
		api.ListSnapshots:             s.listSnapshots,
		api.GetSnapshot:               s.getSnapshot,
		api.ExpireSnapshot:            s.expireSnapshot,
		api.ListConfigServerSnapshots: s.listConfigServerSnapshots,
		api.GetConfigServerSnapshot:   s.getConfigServerSnapshot,
		api.GetOplogStore:             s.getOplogStore,
		api.CreateOplogStore:          s.createOplogStore,
		api.PutOplogStore:             s.putOplogStore,
		api.CreateSnapshotStore:       s.createSnapshotStore,
		api.GetSnapshotStore:          s.getSnapshotStore,
		api.PutSnapshotStore:          s.putSnapshotStore,
		api.GetBackupJobConfig:        s.getBackupJobConfig,
		api.PutBackupJobConfig:        s.putBackupJobConfig,
		api.CreateAPIKey:              s.createAPIKey,
		api.AddAccessList:             s.addAccessList,
		api.ListAccessList:            s.listAccessList,
		api.ListProjects:              s.listProjects,
		api.GetProject:                s.getProject,
		api.GetProjectByName:          s.getProjectByName,
		api.ListOrgs:                  s.listOrgs,
		api.GetOrg:                    s.getOrg,
		api.ListOrgProjects:           s.listOrgProjects,
		api.ListClusters:              s.listClusters,
		api.GetCluster:                s.getCluster,
		api.ListBackupConfigs:         s.listBackupConfigs,
		api.ListOplogStores:           s.listOplogStores,
		api.ListSnapshotStores:        s.listSnapshotStores,
		api.ListAPIKeys:               s.listAPIKeys,
		api.GetAPIKey:                 s.getAPIKey,
		api.GetAccessListEntry:        s.getAccessListEntry,
		api.DeleteAccessListEntry:     s.deleteAccessListEntry,
	}
}
