package model

import (
	"slices"
	"testing"

	"github.com/omctl/omctl/internal/store/demo"
)

func TestBackupJobConfigNamesOnlyStoresThatExist(t *testing.T) {
	f := demo.Fixtures(start)
	project := f.Projects[1]["id"].(string) // one without a backup jobs configuration
	st := NewState(f, start)
	oplog := st.OplogStores().All()[0].ID
	_, err := st.ReplaceBackupJobConfig(project, doc{"oplogStoreFilter": []any{
		map[string]any{"id": oplog, "type": "oplogStore"}, map[string]any{"id": "nowhere", "type": "oplogStore"}}})
	if broken := brokenRule(err); broken.Code != "INVALID_ATTRIBUTE" || broken.Params[0] != "oplogStoreFilter[1].id" {
		t.Fatalf("a filter naming no store: %+v", err)
	}
	if st.BackupJobConfig(project) != nil {
		t.Error("a refused configuration was kept")
	}
	cfg, err := st.ReplaceBackupJobConfig(project, doc{"oplogStoreFilter": []any{map[string]any{"id": oplog, "type": "oplogStore"}}})
	if err != nil || cfg.ID != project || !slices.Equal(cfg.OplogStoreIDs, []string{oplog}) {
		t.Fatalf("%+v, %v", cfg, err)
	}
}

func TestBadBackupJobConfigsAreRefused(t *testing.T) {
	refusedFixtures(t, map[string]string{
		fixturesWith(`"backupJobConfigs": [{"id": "p"}]`):                                                  "backupJobConfigs[0]: id p must be 24 hexadecimal digits",
		fixturesWith(`"backupJobConfigs": [{"id": "` + testProject + `"}, {"id": "` + testProject + `"}]`): "backupJobConfigs[1]: id " + testProject + " appears twice",
	})
}
