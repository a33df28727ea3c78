package model

import (
	"slices"
	"testing"

	"github.com/omctl/omctl/internal/store/demo"
)

func TestUpdateBackupConfigStoresSettingsAndRegions(t *testing.T) {
	st := NewState(demo.Fixtures(start), start)
	var cfg *BackupConfig
	for _, c := range st.backupConfigs {
		cfg = c
		break
	}
	got, err := st.UpdateBackupConfig(cfg, doc{"syncSource": "PRIMARY", "deploymentConfigs": []any{doc{"rsId": "rs0", "deploymentId": "us-east"}}, "excludedNamespaces": []any{"a.b"}})
	if err != nil {
		t.Fatal(err)
	}
	if got.raw()["syncSource"] != nil {
		t.Errorf("syncSource is not a setting: %v", got.Members())
	}
	if got.raw()["multiRegionMisconfigured"] != false || !slices.Equal(got.raw()["excludedNamespaces"].([]any), []any{"a.b"}) {
		t.Errorf("settings: %v", got.Members())
	}
	if st.BackupConfig(cfg.GroupID, cfg.ClusterID) != got {
		t.Error("the state does not hold the new configuration")
	}
	// A shard's new region replaces its old one; the list keeps one entry a shard.
	got, _ = st.UpdateBackupConfig(got, doc{"deploymentConfigs": []any{doc{"rsId": "rs0", "deploymentId": "eu-west"}}})
	if regions := got.raw()["deploymentConfigs"].([]any); len(regions) != 1 || regions[0].(doc)["deploymentId"] != "eu-west" {
		t.Errorf("deploymentConfigs = %v", regions)
	}
	_, err = st.UpdateBackupConfig(got, doc{"deploymentConfigs": []any{doc{"rsId": "shard9", "deploymentId": "us-east"}}})
	if broken := brokenRule(err); broken.Code != "INVALID_ATTRIBUTE" || broken.Params[0] != "deploymentConfigs[0].rsId" {
		t.Errorf("a replica set that is not a shard of the cluster: %v", err)
	}
	if st.BackupConfig(cfg.GroupID, cfg.ClusterID) != got {
		t.Error("a refused assignment changed the configuration")
	}
}

func TestBadBackupConfigsAreRefused(t *testing.T) {
	bc := func(extra string) string {
		return `{"groupId": "` + testProject + `", "clusterId": "` + testOther + `", "statusName": "STARTED"` + extra + `}`
	}
	refusedFixtures(t, map[string]string{
		fixturesWith(`"backupConfigs": [` + bc("") + `, ` + bc("") + `]`):                                               "backupConfigs[1]: cluster " + testOther + " of project " + testProject + " appears twice",
		fixturesWith(`"backupConfigs": [` + bc(`, "excludedNamespaces": ["a.b"], "includedNamespaces": ["c.d"]`) + `]`): "excludedNamespaces and includedNamespaces are mutually exclusive",
		fixturesWith(`"backupConfigs": [{"groupId": "` + testProject + `", "clusterId": "c"}]`):                         "backupConfigs[0]: clusterId c must be 24 hexadecimal digits",
	})
}
