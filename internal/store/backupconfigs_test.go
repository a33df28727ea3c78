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
