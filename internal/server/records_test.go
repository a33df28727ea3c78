package server

import (
	"encoding/json"
	"testing"
)

// Every resource keeps the members a fixture gave it that the API does not
// name: GET shows them, before and after a change.
func TestFixtureMembersTheAPIDoesNotNameAreKept(t *testing.T) {
	var f map[string][]map[string]any
	if err := json.Unmarshal([]byte(fixtureJSON), &f); err != nil {
		t.Fatal(err)
	}
	for key, items := range f {
		if key == "users" || key == "apiKeys" {
			continue
		}
		for _, item := range items {
			item["futureField"] = map[string]any{"from": key}
		}
	}
	raw, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnvWith(t, string(raw))
	snapshot := "/groups/" + projA + "/clusters/" + clusterA + "/snapshots/" + snapOK
	for _, c := range []struct {
		kind, path string
		change     func()
	}{
		{"alertConfigs", "/groups/" + projA + "/alertConfigs/" + cfgHost, func() {
			e.expect(e.do("owner", "PATCH", "/groups/"+projA+"/alertConfigs/"+cfgHost, map[string]any{"enabled": false}), 200, "")
		}},
		{"globalAlertConfigs", "/globalAlertConfigs/" + gcfg, func() {
			e.expect(e.do("owner", "PUT", "/globalAlertConfigs/"+gcfg, map[string]any{"enabled": false}), 200, "")
		}},
		{"backupConfigs", "/groups/" + projA + "/backupConfigs/" + clusterA, func() {
			e.expect(e.do("owner", "PATCH", "/groups/"+projA+"/backupConfigs/"+clusterA, map[string]any{"multiRegionBackupEnabled": true, "deploymentConfigs": []any{map[string]any{"rsId": "shard0", "deploymentId": "us-east"}}}), 200, "")
		}},
		{"snapshots", snapshot, func() {
			e.expect(e.do("owner", "PATCH", snapshot, map[string]any{"doNotDelete": true}), 200, "")
		}},
		{"configServerSnapshots", "/groups/" + projA + "/hosts/cfghost1/snapshots/5f3d00000000000000000001", nil},
		{"oplogStores", "/admin/backup/oplog/s3Configs/oplog1", nil},
		{"snapshotStores", "/admin/backup/snapshot/s3Configs/blocks1", nil},
		{"backupJobConfigs", "/admin/backup/groups/" + projA, nil},
	} {
		r := e.do("owner", "GET", c.path, nil)
		e.expect(r, 200, "")
		if r.str("futureField", "from") != c.kind {
			t.Errorf("GET %s: futureField not kept: %s", c.kind, r.raw)
		}
		if c.change == nil {
			continue
		}
		c.change()
		if r := e.do("owner", "GET", c.path, nil); r.str("futureField", "from") != c.kind {
			t.Errorf("%s after a change: futureField not kept: %s", c.kind, r.raw)
		}
	}
}
