package root

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

// The answers of a service that sends exactly the API's objects
// (docs/api.md, Resources): every field the object has, none that omctl
// server adds (a backup configuration's deploymentConfigs, an access-list
// entry's cidrBlock beside its ipAddress). Every write command must
// succeed on them: a client reads an answer by the API's object for it.

const (
	specOrg     = "5e1a0c2e8f9d4b0012340001"
	specCluster = "5e3c0c2e8f9d4b0012340001"
	specAlert   = "5f1a0c2e8f9d4b0000000025"
	specConfig  = "5f2a0c2e8f9d4b0000000001"
	specGlobal  = "5f2b0c2e8f9d4b0012340003"
	specSnap    = "5f3c0c2e8f9d4b000000019c"
	specKey     = "5f4d0c2e8f9d4b0012340005"
)

// specFields are the fields of each object of the API, as docs/api.md
// and the API's own tables list them; a shape below may hold no other.
var specFields = map[string][]string{
	"alert": {"id", "groupId", "alertConfigId", "eventTypeName", "status", "created", "updated", "lastNotified", "resolved",
		"acknowledgedUntil", "acknowledgementComment", "acknowledgingUsername", "clusterId", "clusterName", "currentValue",
		"hostId", "hostnameAndPort", "metricName", "replicaSetName", "sourceTypeName", "tags", "links", "typeName", "humanReadable"},
	"alertConfig": {"id", "groupId", "created", "updated", "enabled", "eventTypeName", "typeName", "matchers",
		"metricThreshold", "threshold", "notifications", "links"},
	"globalAlertConfig": {"id", "created", "updated", "enabled", "eventTypeName", "forAllGroups", "groupIds", "matchers",
		"metricThreshold", "threshold", "notifications", "tags", "typeName", "links"},
	"backupConfig": {"clusterId", "groupId", "statusName", "storageEngineName", "encryptionEnabled", "excludedNamespaces",
		"includedNamespaces", "sslEnabled", "authMechanismName", "multiRegionBackupEnabled", "multiRegionMisconfigured",
		"availableMembers", "preferredMember", "links"},
	"snapshot": {"id", "groupId", "clusterId", "clusterName", "complete", "created", "doNotDelete", "expires",
		"isPossiblyInconsistent", "lastOplogAppliedTimestamp", "namespaceFilterList", "missingShards", "parts", "links"},
	"store": {"id", "acceptedTos", "assignmentEnabled", "cloudAccessKey", "cloudSecretKey", "s3AuthMethod", "customCertificates",
		"disableProxyS3", "encryptedCredentials", "labels", "loadFactor", "pathStyleAccessEnabled", "s3BucketEndpoint",
		"s3BucketName", "s3MaxConnections", "s3RegionOverride", "sseEnabled", "ssl", "uri", "writeConcern", "links"},
	"backupJobs": {"id", "daemonFilter", "kmipClientCertPath", "kmipClientCertPassword", "labelFilter", "oplogStoreFilter",
		"snapshotStoreFilter", "syncStoreFilter", "links"},
	"apiKey":      {"id", "desc", "publicKey", "privateKey", "roles", "links"},
	"accessEntry": {"ipAddress", "cidrBlock", "count", "created", "lastUsed", "lastUsedAddress", "links"},
	"list":        {"results", "links", "totalCount"},
	"empty":       {},
}

var (
	specLinks = `"links":[{"href":"https://om.example.com/api/public/v1.0/x","rel":"self"}]`

	specAlertOpen = `{"id":"` + specAlert + `","groupId":"` + project + `","alertConfigId":"` + specConfig + `","eventTypeName":"HOST_DOWN","status":"OPEN",` +
		`"created":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z","hostId":"h1","hostnameAndPort":"db1.example.com:27017","replicaSetName":"rs0","tags":[],` + specLinks + `}`
	specAlertAcked = strings.Replace(specAlertOpen, `"tags":[]`, `"acknowledgedUntil":"2126-01-01T00:00:00Z","acknowledgementComment":"disk swap","acknowledgingUsername":"ops","tags":[]`, 1)

	specAlertConfig = func(enabled string) string {
		return `{"id":"` + specConfig + `","groupId":"` + project + `","created":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z",` +
			`"enabled":` + enabled + `,"eventTypeName":"HOST_DOWN","matchers":[],"threshold":{"operator":"LESS_THAN","threshold":1,"units":"RAW"},` +
			`"notifications":[{"typeName":"EMAIL","emailAddress":"ops@example.com","delayMin":0,"intervalMin":60}],` + specLinks + `}`
	}
	specGlobalConfig = `{"id":"` + specGlobal + `","created":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z","enabled":true,"eventTypeName":"BACKUP_AGENT_DOWN",` +
		`"forAllGroups":true,"groupIds":[],"matchers":[],"notifications":[{"typeName":"ADMIN","delayMin":0,"intervalMin":60}],"tags":[],"typeName":"AGENT",` + specLinks + `}`

	// What the vendor client's tests show the real service answering to
	// GET and PATCH of a backup configuration: no multi-region fields.
	specBackupConfig = `{"clusterId":"` + specCluster + `","groupId":"` + project + `","statusName":"STARTED","storageEngineName":"WIRED_TIGER",` +
		`"encryptionEnabled":false,"sslEnabled":false,"multiRegionBackupEnabled":true,"multiRegionMisconfigured":false,` + specLinks + `}`

	specSnapshot = func(expiry string) string {
		return `{"id":"` + specSnap + `","groupId":"` + project + `","clusterId":"` + specCluster + `","clusterName":"Cluster0","complete":true,` +
			`"created":{"date":"2026-01-01T00:00:00Z","increment":1},` + expiry + `,"parts":[{"clusterId":"` + specCluster + `","replicaSetName":"rs0","typeName":"REPLICA_SET"}],` + specLinks + `}`
	}

	specStore = func(id, extra string) string {
		return `{"id":"` + id + `","acceptedTos":true,"assignmentEnabled":true,"cloudAccessKey":"AKIA","cloudSecretKey":"secret","s3AuthMethod":"KEYS",` +
			`"labels":["us"],"pathStyleAccessEnabled":false,"s3BucketEndpoint":"https://s3.example.com","s3BucketName":"b","sseEnabled":true,` +
			`"uri":"mongodb://meta.example.com:27017",` + extra + `,` + specLinks + `}`
	}

	specJobs = func(oplog string) string {
		return `{"id":"` + project + `","daemonFilter":[],"kmipClientCertPath":"/etc/kmip.pem","labelFilter":["us"],` +
			`"oplogStoreFilter":[{"id":"` + oplog + `","type":"oplogStore"}],"snapshotStoreFilter":[{"id":"blockstore-us-1","type":"s3blockstore"}],"syncStoreFilter":[],` + specLinks + `}`
	}

	specNewKey = `{"id":"` + specKey + `","desc":"CI","publicKey":"abcdefgh","privateKey":"11111111-2222-3333-4444-555555555555",` +
		`"roles":[{"groupId":"` + project + `","roleName":"GROUP_READ_ONLY"}],` + specLinks + `}`

	specEntries = `{"results":[{"ipAddress":"192.0.2.7","count":0,"created":"2026-01-01T00:00:00Z",` + specLinks + `}],"totalCount":1,` + specLinks + `}`
)

// specAnswer is one answer of the double, and the object it is.
type specAnswer struct {
	method, path string
	status       int
	object, body string
}

func TestEveryWriteCommandSucceedsOnAnswersShapedAsTheAPIDefinesThem(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	configFile := write("config.json", `{"eventTypeName":"HOST_DOWN","enabled":true,"threshold":{"operator":"LESS_THAN","threshold":1,"units":"RAW"},"notifications":[{"typeName":"EMAIL","emailAddress":"ops@example.com","delayMin":0,"intervalMin":60}]}`)
	storeFile := write("store.json", `{"id":"oplog-eu-1","acceptedTos":true,"pathStyleAccessEnabled":false,"s3BucketEndpoint":"https://s3.example.com","s3BucketName":"b","s3MaxConnections":20,"sseEnabled":true,"s3AuthMethod":"IAM_ROLE","uri":"mongodb://meta.example.com:27017"}`)
	docs := write("all.yaml", `kind: OplogStore
id: oplog-eu-1
acceptedTos: true
pathStyleAccessEnabled: false
s3BucketEndpoint: https://s3.example.com
s3BucketName: b
s3MaxConnections: 20
sseEnabled: true
s3AuthMethod: IAM_ROLE
uri: mongodb://meta.example.com:27017
---
kind: SnapshotStore
id: blockstore-us-1
loadFactor: 3
---
kind: BackupJobsConfig
oplogStoreFilter: [{id: oplog-eu-1, type: oplogStore}]
---
kind: BackupConfig
clusterId: `+specCluster+`
sslEnabled: true
---
kind: AlertConfig
name: hosts-down
eventTypeName: HOST_DOWN
enabled: true
threshold: {operator: LESS_THAN, threshold: 1, units: RAW}
notifications: [{typeName: EMAIL, emailAddress: ops@example.com, delayMin: 0, intervalMin: 60}]
---
kind: GlobalAlertConfig
id: `+specGlobal+`
enabled: false
---
kind: AccessList
apiKeyId: `+specKey+`
results: [{ipAddress: 192.0.2.7}, {cidrBlock: 198.51.100.0/24}]
`)
	notFound := `{"detail":"No such store.","error":404,"errorCode":"RESOURCE_NOT_FOUND","parameters":[],"reason":"Not Found"}`
	alertPath := "/groups/" + project + "/alerts/" + specAlert
	configPath := "/groups/" + project + "/alertConfigs/" + specConfig
	snapPath := "/groups/" + project + "/clusters/" + specCluster + "/snapshots/" + specSnap
	bcPath := "/groups/" + project + "/backupConfigs/" + specCluster
	keyPath := "/orgs/" + specOrg + "/apiKeys/" + specKey + "/accessList"

	for _, tc := range []struct {
		name    string
		args    []string
		answers []specAnswer
		// want is in what the command prints, piped (stdout, tab-separated)
		// or at a terminal (the confirmation); stderr must hold no error.
		want string
		tty  bool
	}{
		{"alerts ack", []string{"alerts", "ack", specAlert, "--until", "4h", "--comment", "disk swap"},
			[]specAnswer{{"PATCH", alertPath, 200, "alert", specAlertAcked}}, "✓ Alert " + specAlert + " acknowledged until 2126-01-01T00:00:00Z", true},
		{"alerts unack", []string{"alerts", "unack", specAlert},
			[]specAnswer{{"PATCH", alertPath, 200, "alert", specAlertOpen}}, "✓ Alert " + specAlert + " unacknowledged", true},
		{"alerts ack by filter", []string{"alerts", "ack", "--status", "OPEN", "--until", "4h", "--comment", "disk swap", "--yes"},
			[]specAnswer{{"GET", "/groups/" + project + "/alerts", 200, "list", `{"results":[` + specAlertOpen + `],"totalCount":1,` + specLinks + `}`},
				{"PATCH", alertPath, 200, "alert", specAlertAcked}},
			specAlert + "\tacknowledged\tuntil 2126-01-01T00:00:00Z", false},
		{"alertconfigs create", []string{"alertconfigs", "create", "--file", configFile},
			[]specAnswer{{"POST", "/groups/" + project + "/alertConfigs", 200, "alertConfig", specAlertConfig("true")}}, "✓ Alert configuration " + specConfig + " created (enabled)", true},
		{"alertconfigs update", []string{"alertconfigs", "update", specConfig, "--file", configFile},
			[]specAnswer{{"PUT", configPath, 200, "alertConfig", specAlertConfig("true")}}, "✓ Alert configuration " + specConfig + " replaced", true},
		{"alertconfigs disable", []string{"alertconfigs", "disable", specConfig},
			[]specAnswer{{"PATCH", configPath, 200, "alertConfig", specAlertConfig("false")}}, "✓ Alert configuration " + specConfig + " disabled", true},
		{"alertconfigs enable", []string{"alertconfigs", "enable", specConfig},
			[]specAnswer{{"PATCH", configPath, 200, "alertConfig", specAlertConfig("true")}}, "✓ Alert configuration " + specConfig + " enabled", true},
		// The real service answers this DELETE with no body.
		{"alertconfigs delete", []string{"alertconfigs", "delete", specConfig, "--yes"},
			[]specAnswer{{"DELETE", configPath, 200, "empty", ``}}, specConfig, false},
		{"globalalertconfigs disable", []string{"globalalertconfigs", "disable", specGlobal},
			[]specAnswer{{"PUT", "/globalAlertConfigs/" + specGlobal, 200, "globalAlertConfig", strings.Replace(specGlobalConfig, `"enabled":true`, `"enabled":false`, 1)}},
			"disabled", true},
		{"snapshots expire", []string{"snapshots", "expire", specSnap, "--cluster", specCluster, "--expires", "2126-01-01"},
			[]specAnswer{{"PATCH", snapPath, 200, "snapshot", specSnapshot(`"doNotDelete":false,"expires":"2126-01-01T00:00:00Z"`)}},
			"✓ Snapshot " + specSnap + " expires at 2126-01-01T00:00:00Z", true},
		{"snapshots expire --do-not-delete", []string{"snapshots", "expire", specSnap, "--cluster", specCluster, "--do-not-delete"},
			[]specAnswer{{"PATCH", snapPath, 200, "snapshot", specSnapshot(`"doNotDelete":true`)}}, "✓ Snapshot " + specSnap + " will not be deleted", true},
		{"backupconfigs assign-regions", []string{"backupconfigs", "assign-regions", specCluster, "--region", "rs0=us-east"},
			[]specAnswer{{"PATCH", bcPath, 200, "backupConfig", specBackupConfig}}, "✓ Cluster " + specCluster + ": deployment regions rs0=us-east sent", true},
		{"oplogstores create", []string{"oplogstores", "create", "--file", storeFile},
			[]specAnswer{{"POST", "/admin/backup/oplog/s3Configs", 200, "store", specStore("oplog-eu-1", `"s3MaxConnections":20`)}}, "✓ Oplog store oplog-eu-1 created", true},
		{"oplogstores update", []string{"oplogstores", "update", "oplog-us-east-1", "--max-connections", "80"},
			[]specAnswer{{"GET", "/admin/backup/oplog/s3Configs/oplog-us-east-1", 200, "store", specStore("oplog-us-east-1", `"s3MaxConnections":50`)},
				{"PUT", "/admin/backup/oplog/s3Configs/oplog-us-east-1", 200, "store", specStore("oplog-us-east-1", `"s3MaxConnections":80`)}},
			"✓ Oplog store oplog-us-east-1 updated: changed s3MaxConnections", true},
		{"snapshotstores create", []string{"snapshotstores", "create", "--file", storeFile},
			[]specAnswer{{"POST", "/admin/backup/snapshot/s3Configs", 200, "store", specStore("oplog-eu-1", `"loadFactor":1,"s3MaxConnections":20`)}}, "✓ Snapshot store oplog-eu-1 created", true},
		{"snapshotstores update", []string{"snapshotstores", "update", "blockstore-us-1", "--load-factor", "2"},
			[]specAnswer{{"GET", "/admin/backup/snapshot/s3Configs/blockstore-us-1", 200, "store", specStore("blockstore-us-1", `"loadFactor":1,"s3MaxConnections":50`)},
				{"PUT", "/admin/backup/snapshot/s3Configs/blockstore-us-1", 200, "store", specStore("blockstore-us-1", `"loadFactor":2,"s3MaxConnections":50`)}},
			"✓ Snapshot store blockstore-us-1 updated: changed loadFactor", true},
		{"backupjobs update", []string{"backupjobs", "update", "--oplog-store", "oplog-eu-1"},
			[]specAnswer{{"GET", "/admin/backup/groups/" + project, 200, "backupJobs", specJobs("oplog-us-east-1")},
				{"PUT", "/admin/backup/groups/" + project, 200, "backupJobs", specJobs("oplog-eu-1")}},
			"✓ Backup job settings of project " + project + " saved: changed oplogStoreFilter", true},
		{"apikeys create", []string{"apikeys", "create", "--desc", "CI", "--role", "GROUP_READ_ONLY"},
			[]specAnswer{{"POST", "/groups/" + project + "/apiKeys", 200, "apiKey", specNewKey}}, "11111111-2222-3333-4444-555555555555", false},
		{"apikeys accesslist add", []string{"apikeys", "accesslist", "add", specKey, "--ip", "192.0.2.7"},
			[]specAnswer{{"POST", keyPath, 200, "list", specEntries}}, "192.0.2.7", false},
		{"apikeys accesslist remove", []string{"apikeys", "accesslist", "remove", specKey, "192.0.2.7"},
			[]specAnswer{{"DELETE", keyPath + "/192.0.2.7", 200, "empty", `{}`}}, "✓ Removed 192.0.2.7", true},
		{"apply", []string{"apply", "-f", docs},
			[]specAnswer{
				{"GET", "/admin/backup/oplog/s3Configs/oplog-eu-1", 404, "", notFound},
				{"POST", "/admin/backup/oplog/s3Configs", 200, "store", specStore("oplog-eu-1", `"s3MaxConnections":20`)},
				{"GET", "/admin/backup/snapshot/s3Configs/blockstore-us-1", 200, "store", specStore("blockstore-us-1", `"loadFactor":1,"s3MaxConnections":50`)},
				{"PUT", "/admin/backup/snapshot/s3Configs/blockstore-us-1", 200, "store", specStore("blockstore-us-1", `"loadFactor":3,"s3MaxConnections":50`)},
				{"GET", "/admin/backup/groups/" + project, 200, "backupJobs", specJobs("oplog-us-east-1")},
				{"PUT", "/admin/backup/groups/" + project, 200, "backupJobs", specJobs("oplog-eu-1")},
				{"GET", bcPath, 200, "backupConfig", specBackupConfig},
				{"PATCH", bcPath, 200, "backupConfig", strings.Replace(specBackupConfig, `"sslEnabled":false`, `"sslEnabled":true`, 1)},
				{"GET", "/groups/" + project + "/alertConfigs", 200, "list", `{"results":[],"totalCount":0,` + specLinks + `}`},
				{"POST", "/groups/" + project + "/alertConfigs", 200, "alertConfig", specAlertConfig("true")},
				{"GET", "/globalAlertConfigs/" + specGlobal, 200, "globalAlertConfig", specGlobalConfig},
				{"PUT", "/globalAlertConfigs/" + specGlobal, 200, "globalAlertConfig", strings.Replace(specGlobalConfig, `"enabled":true`, `"enabled":false`, 1)},
				{"GET", keyPath, 200, "list", specEntries},
				{"POST", keyPath, 200, "list", specEntries},
			}, "2 created, 5 updated, 0 unchanged.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := stubapi.New(t)
			for _, a := range tc.answers {
				if a.object != "" {
					checkSpecShape(t, a.object, a.body)
				}
				srv.Reply(a.method, a.path, a.status, a.body)
			}
			cmdtest.Env(t, srv.URL, project)
			t.Setenv("OMCTL_ORG_ID", specOrg)
			t.Setenv("OMCTL_RETRIES", "0")
			ios, _, out, errOut := iostreams.Test()
			ios.SetStdoutTTY(tc.tty)
			ios.SetNoColor(true)
			if code := Run(tc.args, ios); code != cmdutil.ExitOK || strings.Contains(errOut.String(), "Error") || !strings.Contains(out.String(), tc.want) {
				t.Errorf("exit %d\nstdout %s\nstderr %s\nwant in stdout %q", code, out.String(), errOut.String(), tc.want)
			}
			for _, r := range srv.Requests() {
				if e, ok := api.Lookup(r.Method, r.Path); ok && e.Method != "GET" {
					specWritten[e.Name] = true
				}
			}
		})
	}
	for _, e := range api.Endpoints {
		if e.Method != "GET" && !specWritten[e.Name] {
			t.Errorf("no write command was tried on an answer shaped as the API defines it for %s (%s %s)", e.Name, e.Method, e.Pattern)
		}
	}
}

// specWritten are the write endpoints the test above sent a request to.
var specWritten = map[string]bool{}

// checkSpecShape fails the test when an answer holds a field its object
// does not have (the lists' items too).
func checkSpecShape(t *testing.T, object, body string) {
	t.Helper()
	if body == "" {
		return
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("%s: %v", object, err)
	}
	for k, v := range m {
		if !slices.Contains(specFields[object], k) {
			t.Errorf("the %s answer holds %q, which the API's %s has not", object, k, object)
		}
		if object == "list" && k == "results" {
			var items []map[string]json.RawMessage
			_ = json.Unmarshal(v, &items)
			for _, item := range items {
				for f := range item {
					if !slices.Contains(specFields["alert"], f) && !slices.Contains(specFields["accessEntry"], f) {
						t.Errorf("a list item holds %q, which no object of the API has", f)
					}
				}
			}
		}
	}
}
