package server

import (
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/rules"
)

func TestBackupConfigAndMembers(t *testing.T) {
	e := newEnv(t)
	path := "/groups/" + projA + "/backupConfigs/" + clusterA
	r := e.do("owner", "GET", path, nil)
	e.expect(r, 200, "")
	if r.body["availableMembers"] != nil || r.body["preferredMember"] != nil || r.str("statusName") != "STARTED" {
		t.Errorf("config = %s", r.raw)
	}
	r = e.do("owner", "GET", path+"/availableMembers", nil)
	if len(r.get("availableMembers").([]any)) != 2 || r.str("preferredMember") != "m2:27017" {
		t.Errorf("members = %s", r.raw)
	}
	e.expect(e.do("owner", "GET", "/groups/"+projA+"/backupConfigs/5e3c0000000000000000ffff", nil), 404, "BACKUP_CONFIG_NOT_FOUND")
}

func TestAssignRegionsEndsMisconfiguration(t *testing.T) {
	e := newEnv(t)
	path := "/groups/" + projA + "/backupConfigs/" + clusterA
	body := map[string]any{"multiRegionBackupEnabled": true, "deploymentConfigs": []any{map[string]any{"rsId": "shard0", "deploymentId": "us-east"}}}
	r := e.do("owner", "PATCH", path, body)
	e.expect(r, 200, "")
	if r.get("multiRegionMisconfigured") != false || r.get("multiRegionBackupEnabled") != true {
		t.Errorf("after assigning = %s", r.raw)
	}
	e.expect(e.do("owner", "PATCH", path, map[string]any{}), 400, "MISSING_ATTRIBUTE")
	e.expect(e.do("owner", "PATCH", path, map[string]any{"multiRegionBackupEnabled": true}), 400, "MISSING_ATTRIBUTE")
	e.expect(e.do("owner", "PATCH", path, map[string]any{"multiRegionBackupEnabled": true, "deploymentConfigs": []any{map[string]any{"rsId": "s"}}}), 400, "MISSING_ATTRIBUTE")
	e.expect(e.do("owner", "PATCH", path, map[string]any{"multiRegionMisconfigured": true}), 400, "ATTRIBUTE_READ_ONLY")
}

// Endpoint 11 records the regions it assigns, a shard at a time, and GET
// shows them; a replica set that is not one of the cluster's shards (the
// config server's included) is refused and changes nothing.
func TestAssignRegionsAreRecordedForShardsOnly(t *testing.T) {
	e := newEnv(t)
	path := "/groups/" + projA + "/backupConfigs/" + clusterA
	assign := func(pairs ...string) map[string]any {
		var configs []any
		for i := 0; i < len(pairs); i += 2 {
			configs = append(configs, map[string]any{"rsId": pairs[i], "deploymentId": pairs[i+1]})
		}
		return map[string]any{"multiRegionBackupEnabled": true, "deploymentConfigs": configs}
	}
	e.expect(e.do("owner", "PATCH", path, assign("shard0", "us-east", "shard1", "eu-west")), 200, "")
	r := e.do("owner", "PATCH", path, assign("shard0", "ap-south"))
	e.expect(r, 200, "")
	want := `[{"deploymentId":"ap-south","rsId":"shard0"},{"deploymentId":"eu-west","rsId":"shard1"}]`
	if got := string(rules.EncodeJSON(r.get("deploymentConfigs"))); got != want {
		t.Errorf("answer's deploymentConfigs = %s, want %s", got, want)
	}
	g := e.do("owner", "GET", path, nil)
	if got := string(rules.EncodeJSON(g.get("deploymentConfigs"))); got != want {
		t.Errorf("GET deploymentConfigs = %s, want %s", got, want)
	}
	for _, rs := range []string{"shard7", "configRS"} {
		bad := e.do("owner", "PATCH", path, assign("shard1", "us-west", rs, "us-east"))
		e.expect(bad, 400, "INVALID_ATTRIBUTE")
		if !strings.Contains(string(bad.raw), "deploymentConfigs[1].rsId") {
			t.Errorf("%s: the error does not name the attribute: %s", rs, bad.raw)
		}
	}
	g = e.do("owner", "GET", path, nil)
	if got := string(rules.EncodeJSON(g.get("deploymentConfigs"))); got != want {
		t.Errorf("a refused assignment changed deploymentConfigs: %s", got)
	}
}

func TestNamespaceAndEncryptionChangesNeedSyncSource(t *testing.T) {
	e := newEnv(t)
	path := "/groups/" + projA + "/backupConfigs/" + clusterA
	// Stored: excludedNamespaces [a b].
	e.expect(e.do("owner", "PATCH", path, map[string]any{"excludedNamespaces": []any{"a", "b", "c"}}), 200, "")
	e.expect(e.do("owner", "PATCH", path, map[string]any{"excludedNamespaces": []any{"a", "c"}}), 400, "SYNC_SOURCE_REQUIRED")
	e.expect(e.do("owner", "PATCH", path, map[string]any{"excludedNamespaces": []any{"a", "c"}, "syncSource": "PRIMARY"}), 200, "")
	e.expect(e.do("owner", "PATCH", path, map[string]any{"includedNamespaces": []any{"x"}}), 400, "INVALID_ATTRIBUTE")
	e.expect(e.do("owner", "PATCH", path, map[string]any{"includedNamespaces": []any{"x"}, "excludedNamespaces": []any{}}), 400, "SYNC_SOURCE_REQUIRED")
	r := e.do("owner", "PATCH", path, map[string]any{"includedNamespaces": []any{"x", "y"}, "excludedNamespaces": []any{}, "syncSource": "PRIMARY"})
	e.expect(r, 200, "")
	if r.body["syncSource"] != nil {
		t.Errorf("syncSource stored: %s", r.raw)
	}
	e.expect(e.do("owner", "PATCH", path, map[string]any{"includedNamespaces": []any{"x"}}), 200, "")
	e.expect(e.do("owner", "PATCH", path, map[string]any{"encryptionEnabled": true}), 400, "SYNC_SOURCE_REQUIRED")
	e.expect(e.do("owner", "PATCH", path, map[string]any{"encryptionEnabled": true, "syncSource": "SECONDARY"}), 200, "")
	e.expect(e.do("owner", "PATCH", path, map[string]any{"statusName": "PAUSED"}), 400, "INVALID_ENUM_VALUE")
}

func TestSnapshotExpiryRules(t *testing.T) {
	e := newEnv(t)
	base := "/groups/" + projA + "/clusters/" + clusterA + "/snapshots/"
	r := e.do("owner", "PATCH", base+snapOK, map[string]any{"doNotDelete": true})
	e.expect(r, 200, "")
	if r.get("doNotDelete") != true || r.body["expires"] != nil {
		t.Errorf("doNotDelete = %s", r.raw)
	}
	r = e.do("owner", "PATCH", base+snapOK, map[string]any{"expires": "2026-03-01T00:00:00+01:00"})
	e.expect(r, 200, "")
	if r.get("doNotDelete") != false || r.str("expires") != "2026-02-28T23:00:00Z" {
		t.Errorf("new expiry = %s", r.raw)
	}
	e.expect(e.do("owner", "PATCH", base+snapOld, map[string]any{"expires": "2026-06-01T00:00:00Z"}), 400, "SNAPSHOT_EXPIRY_IN_PAST")
	e.expect(e.do("owner", "PATCH", base+snapOld, map[string]any{"doNotDelete": true}), 200, "")
	e.expect(e.do("owner", "PATCH", base+snapOK, map[string]any{}), 400, "MISSING_ONE_OF_ATTRIBUTES")
	e.expect(e.do("owner", "PATCH", base+snapOK, map[string]any{"complete": false}), 400, "ATTRIBUTE_READ_ONLY")
	e.expect(e.do("owner", "GET", base+"nothex", nil), 404, "INVALID_SNAPSHOT_ID")
	e.expect(e.do("owner", "GET", base+"5f3c0000000000000000ffff", nil), 404, "SNAPSHOT_NOT_FOUND")
	e.expect(e.do("owner", "GET", "/groups/"+projA+"/clusters/5e3c0000000000000000ffff/snapshots", nil), 404, "CLUSTER_NOT_FOUND")
	r = e.do("owner", "GET", "/groups/"+projA+"/clusters/"+clusterA+"/snapshots", nil)
	if r.get("totalCount") != 2.0 {
		t.Errorf("list = %s", r.raw)
	}
}

func TestConfigServerSnapshots(t *testing.T) {
	e := newEnv(t)
	r := e.do("owner", "GET", "/groups/"+projA+"/hosts/cfghost1/snapshots", nil)
	e.expect(r, 200, "")
	if r.get("totalCount") != 1.0 || r.str("results", "0", "parts", "0", "typeName") != "CONFIG_SERVER" {
		t.Errorf("list = %s", r.raw)
	}
	e.expect(e.do("owner", "GET", "/groups/"+projA+"/hosts/cfghost1/snapshots/5f3d00000000000000000001", nil), 200, "")
	e.expect(e.do("owner", "GET", "/groups/"+projA+"/hosts/nohost/snapshots", nil), 404, "HOST_NOT_FOUND")
	e.expect(e.do("owner", "PATCH", "/groups/"+projA+"/hosts/cfghost1/snapshots/5f3d00000000000000000001", map[string]any{"doNotDelete": true}), 405, "")
}

func TestBackupJobConfig(t *testing.T) {
	e := newEnv(t)
	r := e.do("owner", "GET", "/admin/backup/groups/"+projA, nil)
	e.expect(r, 200, "")
	if r.str("links", "1", "rel") != groupLinkRel || r.str("oplogStoreFilter", "0", "type") != "oplogStore" {
		t.Errorf("config = %s", r.raw)
	}
	e.expect(e.do("owner", "GET", "/admin/backup/groups/"+projB, nil), 404, "RESOURCE_NOT_FOUND")
}
