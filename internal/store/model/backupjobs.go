package model

import (
	"fmt"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/fixture"
)

// BackupJobConfig is the backup jobs configuration of a project (its ID):
// which stores the project's backups may go to.
type BackupJobConfig struct {
	members
	ID                              string
	OplogStoreIDs, SnapshotStoreIDs []string
}

func newBackupJobConfig(d doc) *BackupJobConfig {
	b := &BackupJobConfig{members: members{d}}
	b.ID, _ = d["id"].(string)
	b.OplogStoreIDs = filterIDs(d["oplogStoreFilter"])
	b.SnapshotStoreIDs = filterIDs(d["snapshotStoreFilter"])
	return b
}

func (b *BackupJobConfig) key() string { return b.ID }

// filterIDs are the store ids a store filter names, one an item ("" for
// an item without one).
func filterIDs(v any) []string {
	items, _ := v.([]any)
	ids := make([]string, len(items))
	for i, it := range items {
		m, _ := it.(map[string]any)
		ids[i], _ = m["id"].(string)
	}
	return ids
}

// BackupJobConfig is a project's backup jobs configuration, nil for none.
func (s *State) BackupJobConfig(project string) *BackupJobConfig { return s.backupJobs[project] }

// ReplaceBackupJobConfig creates or replaces a project's backup jobs
// configuration, which passed rules.BackupJobConfigBody. Every store its
// filters name must exist, as a store of the filter's kind (docs/api.md,
// Backup jobs configuration).
func (s *State) ReplaceBackupJobConfig(project string, body doc) (*BackupJobConfig, error) {
	body["id"] = project
	cfg := newBackupJobConfig(body)
	for _, f := range []struct {
		attr, kind string
		ids        []string
		stores     *Ordered[*S3Store]
	}{{"oplogStoreFilter", "oplog store", cfg.OplogStoreIDs, s.oplogStores}, {"snapshotStoreFilter", "snapshot store", cfg.SnapshotStoreIDs, s.snapshotStores}} {
		for i, id := range f.ids {
			if f.stores.Get(id) == nil {
				name := fmt.Sprintf("%s[%d].id", f.attr, i)
				return nil, rules.Invalidf("INVALID_ATTRIBUTE",
					fmt.Sprintf("Invalid attribute %s specified: no %s with ID %s exists.", name, f.kind, id), name, id)
			}
		}
	}
	putEntry(s, "backupJobConfigs", s.backupJobs, project, cfg)
	return cfg, nil
}

// loadBackupJobConfigs indexes the backup jobs configurations of the
// fixtures.
func (s *State) loadBackupJobConfigs(f *fixture.Fixtures) {
	for _, d := range f.BackupJobConfigs {
		b := newBackupJobConfig(d)
		s.backupJobs[b.ID] = b
	}
}
