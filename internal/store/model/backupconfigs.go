package model

import (
	"fmt"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/fixture"
)

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

// BackupConfigs are a project's backup configurations, in the order they
// came into being.
func (s *State) BackupConfigs(project string) []*BackupConfig {
	var out []*BackupConfig
	for _, k := range s.configOrder {
		if cfg := s.backupConfigs[k]; cfg.GroupID == project {
			out = append(out, cfg)
		}
	}
	return out
}

// UpdateBackupConfig sets the settings of a backup configuration, which
// passed rules.CheckBackupConfigChange; choosing regions for the shards
// (deploymentConfigs) ends a misconfiguration. syncSource says where a
// resync starts from: it is not a setting. The regions assigned are kept
// by shard, a later assignment of a shard replacing its earlier one, so
// GET shows every shard's region; a shard that is not one of the
// cluster's is refused (docs/api.md, Backup configuration).
func (s *State) UpdateBackupConfig(cfg *BackupConfig, settings doc) (*BackupConfig, error) {
	assigned, assigning := settings["deploymentConfigs"].([]any)
	if assigning {
		shards := s.shardsOf(cfg)
		for i, a := range assigned {
			rs := rsID(a)
			if !shards[rs] {
				name := fmt.Sprintf("deploymentConfigs[%d].rsId", i)
				return nil, rules.Invalidf("INVALID_ATTRIBUTE",
					fmt.Sprintf("Invalid attribute %s specified: no shard with replica set name %s exists in cluster %s.", name, rs, cfg.ClusterID), name, rs)
			}
		}
	}
	cfg = newBackupConfig(cfg.changed(func(d doc) {
		for k, v := range settings {
			if k != "syncSource" && k != "deploymentConfigs" {
				d[k] = v
			}
		}
		if assigning {
			d["deploymentConfigs"] = assignRegions(d["deploymentConfigs"], assigned)
			d["multiRegionMisconfigured"] = false
		}
	}))
	putEntry(s, "backupConfigs", s.backupConfigs, cfg.key(), cfg)
	return cfg, nil
}

// shardsOf are the replica set names of a cluster's shards: those its
// snapshots hold a part of or miss, and those a fixture gave a region.
// A config server's replica set is not a shard.
func (s *State) shardsOf(cfg *BackupConfig) map[string]bool {
	shards := map[string]bool{}
	add := func(items any) {
		list, _ := items.([]any)
		for _, item := range list {
			m, _ := item.(map[string]any)
			if t, _ := m["typeName"].(string); t == "CONFIG_SERVER_REPLICA_SET" {
				continue
			}
			if rs, _ := m["replicaSetName"].(string); rs != "" {
				shards[rs] = true
			}
		}
	}
	for _, snap := range s.Snapshots(cfg.GroupID, cfg.ClusterID).All() {
		add(snap.m["parts"])
		add(snap.m["missingShards"])
	}
	list, _ := cfg.m["deploymentConfigs"].([]any)
	for _, item := range list {
		if rs := rsID(item); rs != "" {
			shards[rs] = true
		}
	}
	return shards
}

// assignRegions is the list of regions of a configuration, old, with
// those of assigned put in: a shard's new region in place of its old one,
// a shard without one added at the end.
func assignRegions(old any, assigned []any) []any {
	prev, _ := old.([]any)
	out := append([]any{}, prev...)
	at := map[string]int{}
	for i, item := range out {
		at[rsID(item)] = i
	}
	for _, item := range assigned {
		m, _ := item.(map[string]any)
		entry := map[string]any{"rsId": m["rsId"], "deploymentId": m["deploymentId"]}
		rs := rsID(item)
		if i, ok := at[rs]; ok {
			out[i] = entry
			continue
		}
		at[rs] = len(out)
		out = append(out, entry)
	}
	return out
}

// rsID is the shard an entry of deploymentConfigs names, "" for none.
func rsID(entry any) string {
	m, _ := entry.(map[string]any)
	rs, _ := m["rsId"].(string)
	return rs
}

// loadBackupConfigs indexes the backup configurations of the fixtures;
// each names a cluster.
func (s *State) loadBackupConfigs(f *fixture.Fixtures) {
	for _, d := range f.BackupConfigs {
		b := newBackupConfig(d)
		s.backupConfigs[b.key()] = b
		s.configOrder = append(s.configOrder, b.key())
	}
}
