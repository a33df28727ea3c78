package demo

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/fixture"
)

// ProjectID is the first demo project, so examples can name it.
const ProjectID = "5e2b0c2e8f9d4b0012340001"

// OrgID is the first demo organization.
const OrgID = "5e1a0c2e8f9d4b0012340001"

// Fixtures builds the demo data set around now: several organizations
// and projects, a few hundred alerts of every event type and status,
// configurations with every notification kind, backup configurations,
// snapshots in every state, stores and keys of several roles. Ids and keys
// are the same on every start; times follow now.
func Fixtures(now time.Time) *fixture.Fixtures {
	d := &demo{rng: rand.New(rand.NewPCG(42, 1)), now: now.UTC().Truncate(time.Second), f: &fixture.Fixtures{},
		orgs:     []string{OrgID, "5e1a0c2e8f9d4b0012340002"},
		projects: []string{ProjectID, "5e2b0c2e8f9d4b0012340002", "5e2b0c2e8f9d4b0012340003"}}
	// In this order: each draws ids and random numbers from the same
	// sequences, so that every start makes the same data.
	d.signIns()
	d.alertConfigs()
	d.alerts()
	d.globalAlerts()
	d.backups()
	d.configServerSnapshots()
	d.stores()
	return d.f
}

// demo is the demo data set being built.
type demo struct {
	rng            *rand.Rand
	now            time.Time
	seq            int
	f              *fixture.Fixtures
	orgs, projects []string
	configOf       map[string]map[string]string // by project and event type
}

var (
	demoEvents = []string{"HOST_DOWN", "OUTSIDE_METRIC_THRESHOLD", "REPLICA_SET", "SHARDED_CLUSTER", "BACKUP",
		"MONITORING_AGENT_DOWN", "BACKUP_AGENT_DOWN", "OPLOG_BEHIND", "RESYNC_REQUIRED", "GOOD_CLUSTERSHOT"}
	demoGlobalEvents = []string{"RS_BIND_ERROR", "BACKUP_TOO_MANY_RETRIES", "BACKUP_IN_UNEXPECTED_STATE", "BACKUP_AGENT_DOWN"}
	demoStatuses     = []string{api.StatusOpen, api.StatusOpen, api.StatusClosed, api.StatusClosed, api.StatusClosed, api.StatusTracking, api.StatusCancelled}
	demoHosts        = []string{"db-a1.example.com:27017", "db-a2.example.com:27017", "db-b1.example.com:27017", "cfg1.example.com:27019"}
)

// id is the next id of a kind (its prefix).
func (d *demo) id(prefix string) string {
	d.seq++
	return fmt.Sprintf("%s%08x", prefix, d.seq)
}

// ts is the time ago before now.
func (d *demo) ts(ago time.Duration) string { return rules.FormatTime(d.now.Add(-ago)) }

func demoRole(name string, scope ...string) any {
	m := map[string]any{"roleName": name}
	if len(scope) == 2 {
		m[scope[0]] = scope[1]
	}
	return m
}

// signIns are the organizations, projects, keys and users.
func (d *demo) signIns() {
	f, orgs, projects, role := d.f, d.orgs, d.projects, demoRole
	f.Orgs = []doc{{"id": orgs[0], "name": "Acme Databases"}, {"id": orgs[1], "name": "Acme Analytics"}}
	f.Projects = []doc{
		{"id": projects[0], "name": "production", "orgId": orgs[0]},
		{"id": projects[1], "name": "staging", "orgId": orgs[0]},
		{"id": projects[2], "name": "analytics", "orgId": orgs[1]},
	}
	f.APIKeys = []doc{
		{"id": "5f4d0c2e8f9d4b0012340001", "desc": "demo global owner", "publicKey": "demoowner", "privateKey": "11111111-aaaa-4bbb-8ccc-000000000001",
			"roles": []any{role("GLOBAL_OWNER")}},
		{"id": "5f4d0c2e8f9d4b0012340002", "desc": "production monitoring", "publicKey": "demomonitor", "privateKey": "11111111-aaaa-4bbb-8ccc-000000000002",
			"roles": []any{role("GROUP_MONITORING_ADMIN", "groupId", projects[0])}},
		{"id": "5f4d0c2e8f9d4b0012340003", "desc": "production read-only", "publicKey": "demoreader", "privateKey": "11111111-aaaa-4bbb-8ccc-000000000003",
			"roles": []any{role("GROUP_READ_ONLY", "groupId", projects[0])}},
		{"id": "5f4d0c2e8f9d4b0012340004", "desc": "backup admin", "publicKey": "demobackup", "privateKey": "11111111-aaaa-4bbb-8ccc-000000000004",
			"roles": []any{role("GLOBAL_BACKUP_ADMIN")}},
		{"id": "5f4d0c2e8f9d4b0012340005", "desc": "organization owner", "publicKey": "demoorgowner", "privateKey": "11111111-aaaa-4bbb-8ccc-000000000005",
			"roles":      []any{role("ORG_OWNER", "orgId", orgs[0]), role("GROUP_OWNER", "groupId", projects[0])},
			"accessList": []any{map[string]any{"cidrBlock": "127.0.0.0/8"}, map[string]any{"ipAddress": "::1"}}},
	}
	f.Users = []doc{{"username": "admin@example.com", "apiKey": "22222222-bbbb-4ccc-8ddd-000000000001", "roles": []any{role("GLOBAL_READ_ONLY")}}}
}

// demoNotificationKinds are a notification of every kind.
var demoNotificationKinds = []doc{
	{"typeName": "EMAIL", "emailAddress": "dba@example.com"},
	{"typeName": "SMS", "mobileNumber": "+15555550100"},
	{"typeName": "ORG", "roles": []any{"ORG_OWNER"}, "emailEnabled": true, "smsEnabled": false},
	{"typeName": "GROUP", "roles": []any{"GROUP_OWNER"}, "emailEnabled": true, "smsEnabled": true},
	{"typeName": "USER", "username": "oncall@example.com", "emailEnabled": true, "smsEnabled": false},
	{"typeName": "TEAM", "teamId": "5e3d0c2e8f9d4b0012340001", "teamName": "dba-team"},
	{"typeName": "WEBHOOK", "webhookUrl": "https://hooks.example.com/omctl/alerts", "webhookSecret": "webhook-secret-value"},
	{"typeName": "CHAT_A", "apiToken": "xoxb-demo-token-1234567890", "channelName": "#db-alerts"},
	{"typeName": "CHAT_B", "chatBWebhookUrl": "https://chat-b.example.com/webhook/abcdef"},
	{"typeName": "CHAT_C", "notificationToken": "chatc-token-0987654321", "roomName": "ops"},
	{"typeName": "MONITORING", "monitoringApiKey": "monitoring-key-1122334455"},
	{"typeName": "ALERTING", "alertingApiKey": "alerting-key-5566778899", "alertingRegion": "US"},
	{"typeName": "PAGING", "serviceKey": "paging-service-key-42424242"},
	{"typeName": "INCIDENT", "incidentApiKey": "incident-key-13579", "incidentRoutingKey": "db-team"},
	{"typeName": "SLACK", "apiToken": "xoxb-real-name-token-5678", "channelName": "#ops"},
	{"typeName": "PAGER_DUTY", "serviceKey": "pagerduty-key-97531"},
}

// alertConfigs are a configuration of each event type in each project.
func (d *demo) alertConfigs() {
	f, ts, notificationKinds := d.f, d.ts, demoNotificationKinds
	d.configOf = map[string]map[string]string{}
	for pi, p := range d.projects {
		d.configOf[p] = map[string]string{}
		for ei, e := range demoEvents {
			cid := d.id("5f2a0c2e8f9d4b00")
			d.configOf[p][e] = cid
			n1 := rules.CopyJSON(notificationKinds[(ei+pi)%len(notificationKinds)]).(doc)
			n1["delayMin"], n1["intervalMin"] = int64(5*(ei%4)), int64(60)
			n2 := rules.CopyJSON(notificationKinds[(ei+pi+7)%len(notificationKinds)]).(doc)
			n2["delayMin"], n2["intervalMin"] = int64(15+5*(ei%3)), int64(120)
			cfg := doc{"id": cid, "groupId": p, "eventTypeName": e, "enabled": ei != 3,
				"created": ts(90 * 24 * time.Hour), "updated": ts(30 * 24 * time.Hour),
				"notifications": []any{n1, n2}, "matchers": []any{}}
			if e == "OUTSIDE_METRIC_THRESHOLD" {
				cfg["metricThreshold"] = doc{"metricName": "CONNECTIONS", "mode": "AVERAGE", "operator": "GREATER_THAN", "threshold": int64(500), "units": "RAW"}
			} else {
				cfg["threshold"] = doc{"operator": "LESS_THAN", "threshold": int64(1), "units": "RAW"}
			}
			f.AlertConfigs = append(f.AlertConfigs, cfg)
		}
	}
	// The first project's configurations cover every notification kind.
	var everyKind []any
	for _, n := range notificationKinds {
		m := rules.CopyJSON(n).(doc)
		m["delayMin"], m["intervalMin"] = int64(0), int64(30)
		everyKind = append(everyKind, m)
	}
	f.AlertConfigs[0]["notifications"] = everyKind
}

// alerts are a few hundred alerts of the projects.
func (d *demo) alerts() {
	var docs []doc
	for pi, p := range d.projects {
		count := []int{250, 60, 30}[pi]
		for i := 0; i < count; i++ {
			docs = append(docs, d.alert(p, i))
		}
	}
	d.f.Alerts = settledAlerts(docs)
}

// settledAlerts makes the demo's alerts keep the engine's rule of one
// active alert per configuration and target. Of the active alerts drawn
// for one pair, the first raised keeps it, as the engine would (it
// raises no other while one is active); each later one is moved to a
// host or replica set of its own, or, when its target is the project
// itself or a cluster, made history: closed when it was OPEN, cancelled
// when TRACKING. Statuses, and the oldest alerts, which lists show
// first, stay as they were drawn.
func settledAlerts(docs []doc) []*alert.Doc {
	alerts := make([]*alert.Doc, len(docs))
	order := make([]int, len(docs))
	for i, d := range docs {
		alerts[i], order[i] = alert.NewDoc(d), i
	}
	sort.SliceStable(order, func(x, y int) bool { return alerts[order[x]].Created.Before(alerts[order[y]].Created) })
	taken := map[alert.Pair]bool{}
	for _, i := range order {
		k, active := alert.PairOf(alerts[i])
		if !active {
			continue
		}
		if !taken[k] {
			taken[k] = true
			continue
		}
		d := docs[i]
		field, format := "", ""
		switch k.Target.Identity {
		case d["hostnameAndPort"]:
			field, format = "hostnameAndPort", "db-r%d.example.com:27017"
		case d["replicaSetName"]:
			field, format = "replicaSetName", "rs%d"
		}
		if field == "" {
			d["status"] = map[string]string{api.StatusOpen: api.StatusClosed, api.StatusTracking: api.StatusCancelled}[alerts[i].Status]
			alerts[i] = alert.NewDoc(d) // CLOSED: resolved when it was last updated
			continue
		}
		for n := 1; taken[k]; n++ {
			d[field] = fmt.Sprintf(format, n)
			alerts[i] = alert.NewDoc(d)
			k, _ = alert.PairOf(alerts[i])
		}
		taken[k] = true
	}
	return alerts
}

// alert is alert i of project p, of a random event type and status.
func (d *demo) alert(p string, i int) doc {
	rng, ts := d.rng, d.ts
	e := demoEvents[rng.IntN(len(demoEvents))]
	st := demoStatuses[rng.IntN(len(demoStatuses))]
	age := time.Duration(rng.IntN(30*24*60)) * time.Minute
	if st == api.StatusTracking {
		age = time.Duration(rng.IntN(20)) * time.Minute
	}
	a := doc{"id": d.id("5f1a0c2e8f9d4b00"), "groupId": p, "alertConfigId": d.configOf[p][e], "eventTypeName": e,
		"status": st, "created": ts(age), "updated": ts(age / 2)}
	if st != api.StatusTracking {
		a["lastNotified"] = ts(age / 2)
	}
	if st == api.StatusClosed {
		a["resolved"] = ts(age / 3)
	}
	host := demoHosts[rng.IntN(len(demoHosts))]
	switch e {
	case "HOST_DOWN", "REPLICA_SET":
		// No hostId: an alert is then known by its host and port, as a
		// condition reported with --host is (server trigger).
		_ = rng.Uint64() // drawn all the same, so the data after it stays as it was
		a["hostnameAndPort"], a["replicaSetName"] = host, "rs0"
	case "OUTSIDE_METRIC_THRESHOLD":
		_ = rng.Uint64()
		a["hostnameAndPort"], a["replicaSetName"] = host, "rs0"
		a["metricName"] = api.MetricNames[rng.IntN(len(api.MetricNames))]
		a["currentValue"] = doc{"number": float64(rng.IntN(10000)) / 10, "units": "RAW"}
	case "SHARDED_CLUSTER":
		a["clusterId"], a["clusterName"] = "5e3c0c2e8f9d4b0012340001", "Cluster0"
	case "BACKUP", "OPLOG_BEHIND", "RESYNC_REQUIRED", "GOOD_CLUSTERSHOT":
		a["replicaSetName"], a["sourceTypeName"] = "rs0", api.SourceTypeNames[rng.IntN(len(api.SourceTypeNames))]
	}
	if st == api.StatusOpen && i%5 == 0 {
		a["acknowledgedUntil"] = rules.FormatTime(d.now.Add(time.Duration(1+i%48) * time.Hour))
		a["acknowledgementComment"] = "investigating"
		a["acknowledgingUsername"] = "demomonitor"
	}
	return a
}

// globalAlerts are the global configurations and their alerts.
func (d *demo) globalAlerts() {
	f, rng, ts, projects, statuses, globalEvents := d.f, d.rng, d.ts, d.projects, demoStatuses, demoGlobalEvents
	for i, e := range globalEvents {
		f.GlobalAlertConfigs = append(f.GlobalAlertConfigs, doc{"id": fmt.Sprintf("5f2b0c2e8f9d4b00123400%02x", i+1),
			"eventTypeName": e, "enabled": i != 2, "forAllGroups": i%2 == 0, "groupIds": []any{},
			"created": ts(200 * 24 * time.Hour), "updated": ts(10 * 24 * time.Hour), "tags": []any{},
			"threshold":     doc{"operator": "GREATER_THAN", "threshold": int64(3), "units": "RAW"},
			"notifications": []any{doc{"typeName": "ADMIN", "delayMin": int64(5 * i), "intervalMin": int64(60)}}})
	}
	var globals []doc
	for i := 0; i < 40; i++ {
		e := globalEvents[i%len(globalEvents)]
		st := statuses[rng.IntN(len(statuses))]
		age := time.Duration(rng.IntN(20*24*60)) * time.Minute
		g := doc{"id": d.id("5f1b0c2e8f9d4b00"), "groupId": projects[i%len(projects)], "alertConfigId": fmt.Sprintf("5f2b0c2e8f9d4b00123400%02x", i%len(globalEvents)+1),
			"eventTypeName": e, "status": st, "created": ts(age), "updated": ts(age / 2), "typeName": "BACKUP", "tags": []any{},
			"replicaSetName": "rs0", "sourceTypeName": "REPLICA_SET"}
		if st != api.StatusTracking {
			g["lastNotified"] = ts(age / 2)
		}
		globals = append(globals, g)
	}
	f.GlobalAlerts = settledAlerts(globals)
}

// backups are the clusters' backup configurations and snapshots.
func (d *demo) backups() {
	f, projects := d.f, d.projects
	clusters := []demoCluster{
		{"5e3c0c2e8f9d4b0012340001", "Cluster0", projects[0], true, false, true, "5e3c0c2e8f9d4b0012340011"},
		{"5e3c0c2e8f9d4b0012340002", "rs-orders", projects[0], false, false, false, ""},
		{"5e3c0c2e8f9d4b0012340003", "Cluster-eu", projects[1], true, true, false, "5e3c0c2e8f9d4b0012340013"},
		{"5e3c0c2e8f9d4b0012340004", "rs-reports", projects[2], false, false, false, ""},
	}
	for _, c := range clusters {
		f.Clusters = append(f.Clusters, c.record(d.ts(30*time.Second)))
		if c.sharded {
			// The shard's own replica set, as the real service lists it
			// beside its sharded cluster.
			f.Clusters = append(f.Clusters, doc{"id": c.shardID, "groupId": c.project, "clusterName": c.name,
				"typeName": "REPLICA_SET", "replicaSetName": "rs0", "shardName": c.name + "-shard-0", "lastHeartbeat": d.ts(30 * time.Second)})
		}
	}
	for ci, c := range clusters {
		bc := doc{"clusterId": c.id, "groupId": c.project, "statusName": []string{"STARTED", "STARTED", "PROVISIONING", "STOPPED"}[ci],
			"storageEngineName": "WIRED_TIGER", "encryptionEnabled": c.encryption, "sslEnabled": true, "authMechanismName": "NATIVE_CR",
			"multiRegionBackupEnabled": c.sharded, "multiRegionMisconfigured": c.misconfig, "excludedNamespaces": []any{"test", "logs.debug"},
			"availableMembers": []any{fmt.Sprintf("%s-0.example.com:27017", c.name), fmt.Sprintf("%s-1.example.com:27017", c.name)}}
		if ci == 1 {
			bc["preferredMember"] = "rs-orders-1.example.com:27017"
			bc["excludedNamespaces"] = []any{}
			bc["includedNamespaces"] = []any{"orders", "customers.profiles"}
		}
		f.BackupConfigs = append(f.BackupConfigs, bc)
		for i := 0; i < 8; i++ {
			f.Snapshots = append(f.Snapshots, d.snapshot(c, bc, i))
		}
	}
}

type demoCluster struct {
	id, name   string
	project    string
	sharded    bool
	misconfig  bool
	encryption bool
	shardID    string // a sharded cluster's shard
}

// record is the cluster as the fixtures list it.
func (c demoCluster) record(heartbeat string) doc {
	d := doc{"id": c.id, "groupId": c.project, "clusterName": c.name, "lastHeartbeat": heartbeat}
	if c.sharded {
		d["typeName"] = "SHARDED_REPLICA_SET"
	} else {
		d["typeName"], d["replicaSetName"] = "REPLICA_SET", c.name
	}
	return d
}

// snapshot is snapshot i of a cluster, 6 hours older than the one before.
func (d *demo) snapshot(c demoCluster, bc doc, i int) doc {
	now := d.now
	created := now.Add(-time.Duration(6*i+1) * time.Hour)
	snap := doc{"id": d.id("5f3c0c2e8f9d4b00"), "groupId": c.project, "clusterId": c.id, "clusterName": c.name,
		"complete": i != 0, "doNotDelete": i == 3,
		"created":                   doc{"date": rules.FormatTime(created), "increment": int64(1 + i)},
		"lastOplogAppliedTimestamp": doc{"date": rules.FormatTime(created.Add(-time.Minute)), "increment": int64(3)},
		"namespaceFilterList":       doc{"filterList": bc["excludedNamespaces"], "filterType": "blacklist"},
		"parts": []any{doc{"clusterId": c.id, "completedTime": rules.FormatTime(created.Add(10 * time.Minute)), "compressionSetting": "GZIP",
			"dataSizeBytes": int64(1 << 30), "encryptionEnabled": c.encryption, "fcv": "6.0", "fileSizeBytes": int64(1 << 29),
			"machineId": "backup-daemon-1.example.com:8443", "mongodVersion": "6.0.14", "replicaSetName": "rs0",
			"replicaState": "PRIMARY", "storageSizeBytes": int64(1 << 30), "typeName": "REPLICA_SET"}},
	}
	if c.encryption {
		snap["parts"].([]any)[0].(doc)["masterKeyUUID"] = "72659f08-8b3c-4913-bb4e-a8a68e036502"
	}
	switch {
	case i == 3: // do not delete: no expiry
	case i == 7:
		snap["expires"] = rules.FormatTime(now.Add(-2 * time.Hour)) // already expired
	default:
		snap["expires"] = rules.FormatTime(created.Add(7 * 24 * time.Hour))
	}
	if c.sharded {
		snap["isPossiblyInconsistent"] = i == 5
		snap["missingShards"] = []any{}
	}
	return snap
}

// configServerSnapshots are snapshots of a config server.
func (d *demo) configServerSnapshots() {
	f, now, projects := d.f, d.now, d.projects
	for i := 0; i < 3; i++ {
		created := now.Add(-time.Duration(24*(i+1)) * time.Hour)
		f.ConfigServerSnapshots = append(f.ConfigServerSnapshots, doc{"id": d.id("5f3d0c2e8f9d4b00"), "groupId": projects[0],
			"complete": true, "doNotDelete": false, "expires": rules.FormatTime(created.Add(30 * 24 * time.Hour)),
			"created": doc{"date": rules.FormatTime(created), "increment": int64(1)},
			"parts": []any{doc{"hostId": "a1b2c3d4e5f60718293a4b5c6d7e8f90", "typeName": "CONFIG_SERVER", "machineId": "cfg1.example.com:27019",
				"dataSizeBytes": int64(1 << 20), "encryptionEnabled": false, "mongodVersion": "3.2.22"}}})
	}
}

// stores are the oplog and snapshot stores, and a backup jobs
// configuration naming them.
func (d *demo) stores() {
	f, projects := d.f, d.projects
	f.OplogStores = []doc{
		{"id": "oplog-us-east-1", "acceptedTos": true, "assignmentEnabled": true, "cloudAccessKey": "AKIADEMOOPLOG", "cloudSecretKey": "demo-oplog-secret",
			"pathStyleAccessEnabled": false, "s3BucketEndpoint": "https://s3.us-east-1.example.com", "s3BucketName": "acme-oplogs",
			"s3MaxConnections": int64(50), "sseEnabled": true, "uri": "mongodb://meta-1.example.com:27017/?replicaSet=meta",
			"ssl": true, "writeConcern": "MAJORITY", "labels": []any{"us"}},
	}
	f.SnapshotStores = []doc{
		{"id": "blockstore-us-1", "acceptedTos": true, "assignmentEnabled": true, "s3AuthMethod": "IAM_ROLE",
			"pathStyleAccessEnabled": true, "s3BucketEndpoint": "https://minio.example.com:9000", "s3BucketName": "acme-blocks",
			"s3MaxConnections": int64(40), "sseEnabled": false, "uri": "meta-1.example.com:27017,meta-2.example.com:27017",
			"loadFactor": int64(2), "labels": []any{"us"}},
		{"id": "blockstore-eu-1", "acceptedTos": true, "assignmentEnabled": false, "awsAccessKey": "AKIADEMOBLOCK", "awsSecretKey": "demo-block-secret",
			"pathStyleAccessEnabled": false, "s3BucketEndpoint": "https://s3.eu-west-1.example.com", "s3BucketName": "acme-blocks-eu",
			"s3MaxConnections": int64(20), "s3RegionOverride": "eu-west-1", "sseEnabled": true, "uri": "meta-eu.example.com:27017"},
	}
	f.BackupJobConfigs = []doc{{"id": projects[0], "labelFilter": []any{"us"}, "syncStoreFilter": []any{},
		"oplogStoreFilter":       []any{doc{"id": "oplog-us-east-1", "type": "oplogStore"}},
		"snapshotStoreFilter":    []any{doc{"id": "blockstore-us-1", "type": "s3blockstore"}},
		"daemonFilter":           []any{doc{"machine": "backup-daemon-1.example.com", "headRootDirectory": "/data/backup/"}},
		"kmipClientCertPath":     "/etc/kmip/client.pem",
		"kmipClientCertPassword": "kmip-password"}}
}
