package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/statelog"
)

const (
	orgA      = "5e1a00000000000000000001"
	orgB      = "5e1a00000000000000000002"
	projA     = "5e2b00000000000000000001"
	projB     = "5e2b00000000000000000002"
	clusterA  = "5e3c00000000000000000001"
	alertHost = "5f1a00000000000000000001"
	alertOMT  = "5f1a00000000000000000002"
	alertTrk  = "5f1a00000000000000000003"
	alertSh   = "5f1a00000000000000000004"
	alertBkp  = "5f1a00000000000000000005"
	cfgHost   = "5f2a00000000000000000001"
	cfgTrk    = "5f2a00000000000000000002"
	gcfg      = "5f2b00000000000000000001"
	snapOK    = "5f3c00000000000000000001"
	snapOld   = "5f3c00000000000000000002"
	keyListed = "5f4d00000000000000000005"
)

var start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

const fixtureJSON = `{
 "orgs": [{"id": "5e1a00000000000000000001", "name": "A"}, {"id": "5e1a00000000000000000002", "name": "B"}],
 "projects": [{"id": "5e2b00000000000000000001", "name": "a", "orgId": "5e1a00000000000000000001"},
              {"id": "5e2b00000000000000000002", "name": "b", "orgId": "5e1a00000000000000000002"}],
 "apiKeys": [
  {"id": "5f4d00000000000000000001", "desc": "owner", "publicKey": "owner", "privateKey": "owner-secret", "roles": [{"roleName": "GLOBAL_OWNER"}]},
  {"id": "5f4d00000000000000000002", "desc": "reader", "publicKey": "reader", "privateKey": "reader-secret", "roles": [{"groupId": "5e2b00000000000000000001", "roleName": "GROUP_READ_ONLY"}]},
  {"id": "5f4d00000000000000000003", "desc": "monitor", "publicKey": "monitor", "privateKey": "monitor-secret", "roles": [{"groupId": "5e2b00000000000000000001", "roleName": "GROUP_MONITORING_ADMIN"}]},
  {"id": "5f4d00000000000000000004", "desc": "orgowner", "publicKey": "orgowner", "privateKey": "orgowner-secret", "roles": [{"orgId": "5e1a00000000000000000001", "roleName": "ORG_OWNER"}, {"groupId": "5e2b00000000000000000001", "roleName": "GROUP_OWNER"}]},
  {"id": "5f4d00000000000000000005", "desc": "listed", "publicKey": "listed", "privateKey": "listed-secret", "roles": [{"groupId": "5e2b00000000000000000001", "roleName": "GROUP_OWNER"}], "accessList": [{"cidrBlock": "10.0.0.0/8"}]}
 ],
 "users": [{"username": "admin@example.com", "apiKey": "user-api-key", "roles": [{"roleName": "GLOBAL_READ_ONLY"}]}],
 "alertConfigs": [
  {"id": "5f2a00000000000000000001", "groupId": "5e2b00000000000000000001", "eventTypeName": "HOST_DOWN", "enabled": true,
   "notifications": [{"typeName": "EMAIL", "emailAddress": "a@example.com", "delayMin": 3.0, "intervalMin": 5, "serviceKey": "stray"},
                     {"typeName": "CHAT_A", "apiToken": "xoxb-1234567890", "channelName": "#a", "delayMin": 0},
                     {"typeName": "WEBHOOK", "webhookUrl": "https://hooks.example.com/path/secret", "webhookSecret": "s3cret"}],
   "threshold": {"operator": "LESS_THAN", "threshold": 1, "units": "RAW"},
   "metricThreshold": {"metricName": "CONNECTIONS", "operator": "GREATER_THAN", "threshold": 5, "units": "RAW"}},
  {"id": "5f2a00000000000000000002", "groupId": "5e2b00000000000000000001", "eventTypeName": "REPLICA_SET", "enabled": true,
   "notifications": [{"typeName": "EMAIL", "emailAddress": "a@example.com", "delayMin": 30}, {"typeName": "SMS", "mobileNumber": "+1555", "delayMin": 15}]}
 ],
 "alerts": [
  {"id": "5f1a00000000000000000001", "groupId": "5e2b00000000000000000001", "alertConfigId": "5f2a00000000000000000001", "eventTypeName": "HOST_DOWN", "status": "OPEN",
   "created": "2025-12-01T00:00:00Z", "hostId": "h1", "hostnameAndPort": "db1:27017", "replicaSetName": "rs0", "clusterId": "5e3c00000000000000000001", "resolved": "2025-12-02T00:00:00Z", "futureField": {"x": 1}},
  {"id": "5f1a00000000000000000002", "groupId": "5e2b00000000000000000001", "eventTypeName": "OUTSIDE_METRIC_THRESHOLD", "status": "CLOSED",
   "created": "2025-12-02T00:00:00Z", "metricName": "CONNECTIONS", "currentValue": {"number": 12.5, "units": "RAW"}, "hostnameAndPort": "db2:27017"},
  {"id": "5f1a00000000000000000003", "groupId": "5e2b00000000000000000001", "alertConfigId": "5f2a00000000000000000002", "eventTypeName": "REPLICA_SET", "status": "TRACKING",
   "created": "2025-12-31T23:55:00Z", "hostnameAndPort": "db3:27017"},
  {"id": "5f1a00000000000000000004", "groupId": "5e2b00000000000000000001", "eventTypeName": "SHARDED_CLUSTER", "status": "OPEN",
   "created": "2025-12-03T00:00:00Z", "clusterId": "5e3c00000000000000000001", "clusterName": "c0", "hostnameAndPort": "x:1"},
  {"id": "5f1a00000000000000000005", "groupId": "5e2b00000000000000000002", "eventTypeName": "BACKUP", "status": "OPEN",
   "created": "2025-12-04T00:00:00Z", "replicaSetName": "rs1", "sourceTypeName": "REPLICA_SET"}
 ],
 "globalAlertConfigs": [{"id": "5f2b00000000000000000001", "eventTypeName": "BACKUP_AGENT_DOWN", "enabled": true, "forAllGroups": true,
   "notifications": [{"typeName": "ADMIN", "delayMin": 5}]}],
 "globalAlerts": [
  {"id": "5f1b00000000000000000001", "eventTypeName": "BACKUP_AGENT_DOWN", "status": "OPEN", "created": "2025-11-01T00:00:00Z", "typeName": "AGENT"},
  {"id": "5f1b00000000000000000002", "eventTypeName": "RS_BIND_ERROR", "status": "CLOSED", "created": "2025-12-15T10:00:00Z"},
  {"id": "5f1b00000000000000000003", "eventTypeName": "BACKUP_AGENT_DOWN", "status": "OPEN", "created": "2025-12-20T00:00:00Z"}
 ],
 "backupConfigs": [{"clusterId": "5e3c00000000000000000001", "groupId": "5e2b00000000000000000001", "statusName": "STARTED", "storageEngineName": "WIRED_TIGER",
   "encryptionEnabled": false, "excludedNamespaces": ["a", "b"], "sslEnabled": true, "multiRegionBackupEnabled": true, "multiRegionMisconfigured": true,
   "availableMembers": ["m1:27017", "m2:27017"], "preferredMember": "m2:27017"}],
 "snapshots": [
  {"id": "5f3c00000000000000000001", "groupId": "5e2b00000000000000000001", "clusterId": "5e3c00000000000000000001", "complete": true, "doNotDelete": false,
   "expires": "2026-02-01T00:00:00Z", "created": {"date": "2025-12-30T00:00:00Z", "increment": 1},
   "parts": [{"replicaSetName": "shard0", "typeName": "REPLICA_SET"}, {"replicaSetName": "shard1", "typeName": "REPLICA_SET"},
     {"replicaSetName": "configRS", "typeName": "CONFIG_SERVER_REPLICA_SET"}]},
  {"id": "5f3c00000000000000000002", "groupId": "5e2b00000000000000000001", "clusterId": "5e3c00000000000000000001", "complete": true, "doNotDelete": false,
   "expires": "2025-12-31T00:00:00Z", "created": {"date": "2025-12-01T00:00:00Z", "increment": 1}}
 ],
 "configServerSnapshots": [{"id": "5f3d00000000000000000001", "groupId": "5e2b00000000000000000001", "complete": true,
   "parts": [{"hostId": "cfghost1", "typeName": "CONFIG_SERVER"}]}],
 "oplogStores": [{"id": "oplog1", "acceptedTos": true, "cloudAccessKey": "AK", "cloudSecretKey": "SK", "pathStyleAccessEnabled": true,
   "s3BucketEndpoint": "https://s3", "s3BucketName": "b", "s3MaxConnections": 5, "sseEnabled": false, "uri": "mongodb://m"}],
 "snapshotStores": [{"id": "blocks1", "acceptedTos": true, "pathStyleAccessEnabled": true, "s3BucketEndpoint": "https://s3", "s3BucketName": "b",
   "s3MaxConnections": 5, "sseEnabled": false, "uri": "h1:27017"}],
 "backupJobConfigs": [{"id": "5e2b00000000000000000001", "labelFilter": ["l"], "oplogStoreFilter": [{"id": "oplog1", "type": "oplogStore"}]}]
}`

// env is a running server with digest clients for the fixture's keys.
type env struct {
	t       *testing.T
	s       *Server
	ts      *httptest.Server
	base    string
	clients map[string]*http.Client
}

func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvWith(t, fixtureJSON)
}

// newFaultyEnv is a running server over fixture whose state file fails
// on demand.
func newFaultyEnv(t *testing.T, fixture string) (*env, *statelog.Faulty) {
	t.Helper()
	file, err := statelog.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { file.Close() })
	log := &statelog.Faulty{File: file}
	return newEnvOptions(t, fixture, Options{State: log}), log
}

// newEnvWith is a running server over fixture, on a virtual clock.
func newEnvWith(t *testing.T, data string) *env {
	t.Helper()
	f, err := fixture.ParseFixtures("fixture", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Fixtures: f, Clock: store.VirtualClock(start)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return &env{t: t, s: s, ts: ts, base: ts.URL + apiBase, clients: map[string]*http.Client{}}
}

var secrets = map[string]string{"owner": "owner-secret", "reader": "reader-secret", "monitor": "monitor-secret",
	"orgowner": "orgowner-secret", "listed": "listed-secret", "admin@example.com": "user-api-key"}

func (e *env) client(user string) *http.Client {
	if c, ok := e.clients[user]; ok {
		return c
	}
	c := &http.Client{Transport: client.DigestTransport(user, secrets[user], nil)}
	e.clients[user] = c
	return c
}

type response struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
}

func (r response) str(path ...string) string {
	v := r.get(path...)
	s, _ := v.(string)
	return s
}

// get walks a path of keys and indexes ("results", "0", "id").
func (r response) get(path ...string) any {
	var v any = r.body
	for _, p := range path {
		switch t := v.(type) {
		case map[string]any:
			v = t[p]
		case []any:
			i := 0
			for _, ch := range p {
				i = i*10 + int(ch-'0')
			}
			if i >= len(t) {
				return nil
			}
			v = t[i]
		default:
			return nil
		}
	}
	return v
}

// do sends a request as user ("" for none) and decodes the answer.
func (e *env) do(user, method, path string, body any) response {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, _ := json.Marshal(b)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, e.base+path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	c := http.DefaultClient
	if user != "" {
		c = e.client(user)
	}
	res, err := c.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := response{status: res.StatusCode, header: res.Header, raw: raw}
	json.Unmarshal(raw, &r.body)
	return r
}

// expect checks status and, for errors, the errorCode.
func (e *env) expect(r response, status int, code string) {
	e.t.Helper()
	if r.status != status || (code != "" && r.str("errorCode") != code) {
		e.t.Fatalf("got %d %s, want %d %s: %s", r.status, r.str("errorCode"), status, code, r.raw)
	}
	if status >= 400 && status != 401 {
		for _, k := range []string{"detail", "error", "reason", "parameters"} {
			if _, ok := r.body[k]; !ok {
				e.t.Fatalf("error body lacks %s: %s", k, r.raw)
			}
		}
	}
}

// doRaw sends a request to a path outside the API base (the /_omctl controls).
func (e *env) doRaw(user, method, path, body string) response {
	e.t.Helper()
	saved := e.base
	e.base = e.ts.URL
	defer func() { e.base = saved }()
	if body == "" {
		return e.do(user, method, path, nil)
	}
	return e.do(user, method, path, body)
}

// What the tests hold answers to, as the handlers name them.
const (
	maxBodyBytes = api.MaxBodyBytes
	groupLinkRel = "http://mms.mongodb.com/group"
)
