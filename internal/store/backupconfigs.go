package store

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
