package store

import "github.com/omctl/omctl/internal/rules"

// BackupConfig is the backup configuration of a cluster.
type BackupConfig struct {
	members
	GroupID, ClusterID string
}

func newBackupConfig(d doc) *BackupConfig {
	b := &BackupConfig{members: members{d}}
	b.GroupID, _ = d["groupId"].(string)
	b.ClusterID, _ = d["clusterId"].(string)
	return b
}

func (b *BackupConfig) key() string { return joinKey(b.GroupID, b.ClusterID) }

// BackupConfig is a cluster's backup configuration, nil for none.
func (s *State) BackupConfig(project, cluster string) *BackupConfig {
	return s.backupConfigs[joinKey(project, cluster)]
}

// HasCluster reports whether the project has the cluster: one with a
// backup configuration or snapshots.
func (s *State) HasCluster(project, cluster string) bool {
	return s.clusters[joinKey(project, cluster)]
}

// UpdateBackupConfig sets the settings of a backup configuration, which
// passed rules.CheckBackupConfigChange; choosing regions for the shards
// (deploymentConfigs) ends a misconfiguration. syncSource says where a
// resync starts from: it is not a setting.
func (s *State) UpdateBackupConfig(cfg *BackupConfig, settings doc) *BackupConfig {
	cfg = newBackupConfig(cfg.changed(func(d doc) {
		for k, v := range settings {
			if k != "syncSource" && k != "deploymentConfigs" {
				d[k] = v
			}
		}
		if _, ok := settings["deploymentConfigs"]; ok {
			d["multiRegionMisconfigured"] = false
		}
	}))
	s.backupConfigs[cfg.key()] = cfg
	s.touch("backupConfigs", cfg)
	return cfg
}

// validateBackupConfigs checks the backup configurations: one a cluster
// of a project of the fixtures.
func validateBackupConfigs(f *Fixtures, c *fixtureCheck) error {
	seen := map[string]bool{}
	for i, d := range f.BackupConfigs {
		if err := c.needProject("backupConfigs", i, d); err != nil {
			return err
		}
		cluster, err := needID("backupConfigs", i, d, "clusterId")
		if err != nil {
			return err
		}
		k := joinKey(d["groupId"].(string), cluster)
		if seen[k] {
			return failFixture("backupConfigs", i, "cluster %s of project %s appears twice", cluster, d["groupId"])
		}
		seen[k] = true
		if err := checkFixture("backupConfigs", i, rules.BackupConfigResource(), d); err != nil {
			return err
		}
		if rules.NamespacesExclusive(rules.StringList(d["excludedNamespaces"]), rules.StringList(d["includedNamespaces"])) != nil {
			return failFixture("backupConfigs", i, "excludedNamespaces and includedNamespaces are mutually exclusive")
		}
	}
	return nil
}

// loadBackupConfigs indexes the backup configurations of the fixtures;
// each names a cluster.
func (s *State) loadBackupConfigs(f *Fixtures) {
	for _, d := range f.BackupConfigs {
		b := newBackupConfig(d)
		s.backupConfigs[b.key()] = b
		s.clusters[b.key()] = true
	}
}
