package store

import (
	"fmt"
	"time"

	"github.com/omctl/omctl/internal/rules"
)

// The named operations on the data: what the write endpoints do, once
// their request has been checked. Each records what it changed for the
// state file, and tells the alert engine what concerns it. One that makes
// a record from a request's body keeps the body as the record's members:
// the caller must not change the body afterwards.

// AcknowledgeAlert acknowledges an alert until a time, by a user.
func (s *State) AcknowledgeAlert(r *AlertRec, until, comment, user string, now time.Time) {
	r.Cur = r.Cur.with(func(d doc) {
		d["acknowledgedUntil"] = until
		d["acknowledgingUsername"] = user
		delete(d, "acknowledgementComment")
		if comment != "" {
			d["acknowledgementComment"] = comment
		}
		d["updated"] = rules.FormatTime(now)
	})
	s.touchAlert(r)
	s.acknowledged(r, now)
}

// UnacknowledgeAlert ends an alert's acknowledgement.
func (s *State) UnacknowledgeAlert(r *AlertRec, now time.Time) {
	r.Cur = r.Cur.with(func(d doc) {
		delete(d, "acknowledgedUntil")
		delete(d, "acknowledgementComment")
		delete(d, "acknowledgingUsername")
		d["updated"] = rules.FormatTime(now)
	})
	s.touchAlert(r)
}

// ReplaceAlertConfig puts a configuration, whose body passed
// rules.CheckAlertConfig, in place of old: it keeps old's id, project and
// creation, and the secrets the body sent back as they were shown
// (redacted); leaving out enabled disables it, which cancels its active
// alerts.
func (s *State) ReplaceAlertConfig(old *AlertConfig, body doc, now time.Time) *AlertConfig {
	rules.KeepRedactedSecrets(body, old.m)
	setDefault(body, "enabled", false)
	body["id"], body["groupId"] = old.ID, old.GroupID
	if created, ok := old.m["created"]; ok {
		body["created"] = created
	}
	body["updated"] = rules.FormatTime(now)
	cfg := newAlertConfig(body)
	s.putAlertConfig(cfg)
	s.touch("alertConfigs", cfg)
	s.rescheduleConfig(cfg.ID, cfg.GroupID)
	if !cfg.Enabled {
		s.cancelConfig(cfg.ID, now)
	}
	return cfg
}

// CreateAlertConfig adds a configuration, whose body passed
// rules.CheckAlertConfig, to a project, with a new id; leaving out enabled
// disables it.
func (s *State) CreateAlertConfig(project string, body doc, now time.Time) *AlertConfig {
	setDefault(body, "enabled", false)
	at := rules.FormatTime(now)
	body["id"], body["groupId"], body["created"], body["updated"] = NewObjectID(), project, at, at
	cfg := newAlertConfig(body)
	s.putAlertConfig(cfg)
	s.touch("alertConfigs", cfg)
	return cfg
}

// setDefault gives a member a value when the body left it out or null.
func setDefault(body doc, name string, v any) {
	if body[name] == nil {
		body[name] = v
	}
}

// DeleteAlertConfig removes a project's configuration; its active alerts
// are cancelled first, as when it is disabled.
func (s *State) DeleteAlertConfig(cfg *AlertConfig, now time.Time) {
	s.cancelConfig(cfg.ID, now)
	s.alertConfigs[cfg.GroupID].remove(cfg.ID)
	delete(s.configAlerts, cfg.ID)
	s.forget("alertConfigs", cfg.ID)
}

// SetConfigEnabled turns a configuration, of a project or global, on or
// off; off cancels its active alerts.
func (s *State) SetConfigEnabled(old *AlertConfig, enabled bool, now time.Time) *AlertConfig {
	cfg := newAlertConfig(old.changed(func(d doc) {
		d["enabled"] = enabled
		d["updated"] = rules.FormatTime(now)
	}))
	if s.globalConfigs.Get(cfg.ID) != old {
		s.putAlertConfig(cfg)
		s.touch("alertConfigs", cfg)
	} else {
		s.globalConfigs.put(cfg)
		s.touch("globalAlertConfigs", cfg)
	}
	if !enabled {
		s.cancelConfig(cfg.ID, now)
	}
	return cfg
}

// SetSnapshotExpiry keeps a snapshot of a cluster for good (doNotDelete),
// or until expires (when not ""), or lets it go at its current expiry.
func (s *State) SetSnapshotExpiry(snap *Snapshot, doNotDelete bool, expires string) *Snapshot {
	snap = newSnapshot(snap.changed(func(d doc) {
		d["doNotDelete"] = doNotDelete
		if doNotDelete {
			delete(d, "expires")
		} else if expires != "" {
			d["expires"] = expires
		}
	}))
	s.snapshots[joinKey(snap.GroupID, snap.ClusterID)].put(snap)
	s.touch("snapshots", snap)
	return snap
}

// UpdateBackupConfig sets the settings of a backup configuration, which
// passed rules.CheckBackupConfigChange; choosing regions for the shards
// (deploymentConfigs) ends a misconfiguration. syncSource says where a
// resync starts from: it is not a setting. The regions assigned are kept
// by shard, a later assignment of a shard replacing its earlier one, so
// GET shows every shard's region; a shard that is not one of the
// cluster's is refused (docs/api.md, Backup configuration).
func (s *State) UpdateBackupConfig(cfg *BackupConfig, settings doc) (*BackupConfig, *rules.Error) {
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
	s.backupConfigs[cfg.key()] = cfg
	s.touch("backupConfigs", cfg)
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
	for _, snap := range s.Snapshots(cfg.GroupID, cfg.ClusterID).all() {
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

// CreateOplogStore adds an oplog store, which passed rules.CheckStore,
// refusing one whose id is taken.
func (s *State) CreateOplogStore(body doc) (*S3Store, *rules.Error) {
	return s.createStore(s.oplogStores, "oplogStores", "An oplog store", body)
}

// CreateSnapshotStore adds a snapshot store, which passed
// rules.CheckStore, refusing one whose id is taken; s3MaxConnections and
// loadFactor take their defaults when left out.
func (s *State) CreateSnapshotStore(body doc) (*S3Store, *rules.Error) {
	setDefault(body, "s3MaxConnections", int64(rules.DefaultS3MaxConnections))
	setDefault(body, "loadFactor", int64(rules.DefaultLoadFactor))
	return s.createStore(s.snapshotStores, "snapshotStores", "A snapshot store", body)
}

// createStore adds a store to list (records of kind), refusing one whose
// id is taken: "<what> with ID ... already exists".
func (s *State) createStore(list *Ordered[*S3Store], kind, what string, body doc) (*S3Store, *rules.Error) {
	store := newS3Store(body)
	if list.Get(store.ID) != nil {
		return nil, rules.Conflictf("DUPLICATE_STORE_ID", fmt.Sprintf("%s with ID %s already exists.", what, store.ID), store.ID)
	}
	list.put(store)
	s.touch(kind, store)
	return store, nil
}

// ReplaceOplogStore puts an oplog store, which passed rules.CheckStore,
// in place of the one with id.
func (s *State) ReplaceOplogStore(id string, body doc) *S3Store {
	return s.replaceStore(s.oplogStores, "oplogStores", id, body)
}

// ReplaceSnapshotStore puts a snapshot store, which passed
// rules.CheckStore, in place of the one with id.
func (s *State) ReplaceSnapshotStore(id string, body doc) *S3Store {
	return s.replaceStore(s.snapshotStores, "snapshotStores", id, body)
}

func (s *State) replaceStore(list *Ordered[*S3Store], kind, id string, body doc) *S3Store {
	body["id"] = id
	store := newS3Store(body)
	list.put(store)
	s.touch(kind, store)
	return store
}

// ReplaceBackupJobConfig creates or replaces a project's backup jobs
// configuration, which passed rules.BackupJobConfigBody. Every store its
// filters name must exist, as a store of the filter's kind (docs/api.md,
// Backup jobs configuration).
func (s *State) ReplaceBackupJobConfig(project string, body doc) (*BackupJobConfig, *rules.Error) {
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
	s.backupJobs[project] = cfg
	s.touch("backupJobConfigs", cfg)
	return cfg, nil
}

// CreateAPIKey makes an API key of a project with a description and
// roles in it: a new id, an unused public key and a private key (from
// crypto/rand). An organization holds at most rules.MaxAPIKeysPerOrg keys.
func (s *State) CreateAPIKey(project, desc string, roles []string, now time.Time) (*APIKey, *rules.Error) {
	if org := s.projects[project].orgID(); org != "" && s.keysOfOrg(org) >= rules.MaxAPIKeysPerOrg {
		return nil, rules.Conflictf("TOO_MANY_API_KEYS",
			fmt.Sprintf("Organization %s already has the maximum of %d API keys.", org, rules.MaxAPIKeysPerOrg), org, rules.MaxAPIKeysPerOrg)
	}
	grants := make([]any, len(roles))
	for i, r := range roles {
		grants[i] = map[string]any{"groupId": project, "roleName": r}
	}
	d := doc{"id": NewObjectID(), "desc": desc, "publicKey": newPublicKey(), "privateKey": newUUID(), "roles": grants}
	for s.principals[d["publicKey"].(string)] != nil {
		d["publicKey"] = newPublicKey()
	}
	k := s.addAPIKey(d, now)
	s.TouchKey(k)
	return k, nil
}

// AddAccessEntries adds entries (their canonical blocks in canon) to a
// key's access list; an entry it holds already is counted, not repeated.
// A list holds at most rules.MaxAccessListEntries.
func (s *State) AddAccessEntries(k *APIKey, canon []string, entries []any, now time.Time) *rules.Error {
	if added := k.newAccessEntries(canon); len(k.AccessList)+added > rules.MaxAccessListEntries {
		return rules.Invalidf("TOO_MANY_ACCESS_LIST_ENTRIES",
			fmt.Sprintf("An API key's access list holds at most %d entries; it has %d and the request adds %d.", rules.MaxAccessListEntries, len(k.AccessList), added),
			rules.MaxAccessListEntries)
	}
	for i, e := range entries {
		k.addAccessEntry(canon[i], e.(map[string]any), now)
	}
	s.TouchKey(k)
	return nil
}
