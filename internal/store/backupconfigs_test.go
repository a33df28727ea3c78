package store

import (
	"slices"
	"testing"
)

func TestUpdateBackupConfigStoresSettingsOnly(t *testing.T) {
	st := newState(DemoFixtures(start), start)
	var cfg *BackupConfig
	for _, c := range st.backupConfigs {
		cfg = c
		break
	}
	got := st.UpdateBackupConfig(cfg, doc{"syncSource": "PRIMARY", "deploymentConfigs": []any{}, "excludedNamespaces": []any{"a.b"}})
	if got.raw()["syncSource"] != nil || got.raw()["deploymentConfigs"] != nil {
		t.Errorf("syncSource and deploymentConfigs are not settings: %v", got.Members())
	}
	if got.raw()["multiRegionMisconfigured"] != false || !slices.Equal(got.raw()["excludedNamespaces"].([]any), []any{"a.b"}) {
		t.Errorf("settings: %v", got.Members())
	}
	if st.BackupConfig(cfg.GroupID, cfg.ClusterID) != got {
		t.Error("the state does not hold the new configuration")
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
