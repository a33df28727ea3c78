package store

import (
	"time"

	"github.com/omctl/omctl/internal/rules"
)

// The named operations on the data: what the write endpoints do, once
// their request has been checked. Each records what it changed for the
// state file, and tells the alert engine what concerns it.

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

// ReplaceAlertConfig puts a project's alert configuration in place of the
// one with its id; disabling it cancels its active alerts.
func (s *State) ReplaceAlertConfig(project string, cfg doc, now time.Time) {
	id := cfg["id"].(string)
	s.alertConfigs[project].add(id, cfg)
	s.touch("alertConfigs", cfg)
	s.rescheduleConfig(id, project)
	if cfg["enabled"] != true {
		s.cancelConfig(id, now)
	}
}

// CreateAlertConfig adds a configuration to a project.
func (s *State) CreateAlertConfig(project string, cfg doc) {
	if s.alertConfigs[project] == nil {
		s.alertConfigs[project] = NewOrdered()
	}
	s.alertConfigs[project].add(cfg["id"].(string), cfg)
	s.touch("alertConfigs", cfg)
}

// DeleteAlertConfig removes a project's configuration; its active alerts
// are cancelled first, as when it is disabled.
func (s *State) DeleteAlertConfig(project, id string, now time.Time) {
	s.cancelConfig(id, now)
	if o := s.alertConfigs[project]; o != nil {
		o.remove(id)
	}
	delete(s.configAlerts, id)
	s.forget("alertConfigs", id)
}

// SetConfigEnabled turns a configuration (of kind alertConfigs or
// globalAlertConfigs) on or off; off cancels its active alerts.
func (s *State) SetConfigEnabled(kind string, cfg doc, enabled bool, now time.Time) {
	cfg["enabled"] = enabled
	cfg["updated"] = rules.FormatTime(now)
	s.touch(kind, cfg)
	if !enabled {
		s.cancelConfig(cfg["id"].(string), now)
	}
}

// SetSnapshotExpiry keeps a snapshot for good (doNotDelete), or until
// expires (when not ""), or lets it go at its current expiry.
func (s *State) SetSnapshotExpiry(snap doc, doNotDelete bool, expires string) {
	switch {
	case doNotDelete:
		snap["doNotDelete"] = true
		delete(snap, "expires")
	case expires != "":
		snap["doNotDelete"] = false
		snap["expires"] = expires
	default:
		snap["doNotDelete"] = false
	}
	s.touch("snapshots", snap)
}

// UpdateBackupConfig sets the settings of a backup configuration;
// choosing regions for the shards ends a misconfiguration.
func (s *State) UpdateBackupConfig(cfg, settings doc, regionsAssigned bool) {
	for k, v := range settings {
		cfg[k] = v
	}
	if regionsAssigned {
		cfg["multiRegionMisconfigured"] = false
	}
	s.touch("backupConfigs", cfg)
}

// CreateOplogStore adds an oplog store.
func (s *State) CreateOplogStore(store doc) {
	s.oplogStores.add(store["id"].(string), store)
	s.touch("oplogStores", store)
}

// ReplaceOplogStore puts an oplog store in place of the one with its id.
func (s *State) ReplaceOplogStore(store doc) {
	s.oplogStores.add(store["id"].(string), store)
	s.touch("oplogStores", store)
}

// CreateSnapshotStore adds a snapshot store.
func (s *State) CreateSnapshotStore(store doc) {
	s.snapshotStores.add(store["id"].(string), store)
	s.touch("snapshotStores", store)
}

// ReplaceBackupJobConfig creates or replaces a project's backup jobs
// configuration.
func (s *State) ReplaceBackupJobConfig(cfg doc) {
	s.backupJobs[cfg["id"].(string)] = cfg
	s.touch("backupJobConfigs", cfg)
}

// ReplaceSnapshotStore puts a snapshot store in place of the one with its id.
func (s *State) ReplaceSnapshotStore(store doc) {
	s.snapshotStores.add(store["id"].(string), store)
	s.touch("snapshotStores", store)
}

// CreateAPIKey adds an API key.
func (s *State) CreateAPIKey(key doc, now time.Time) *APIKey {
	k := s.addAPIKey(key, now)
	s.TouchKey(k)
	return k
}

// AddAccessEntries adds to a key's access list the entries it lacks.
func (s *State) AddAccessEntries(k *APIKey, canon []string, entries []any, now time.Time) {
	for i, e := range entries {
		k.addAccessEntry(canon[i], e.(map[string]any), now)
	}
	s.TouchKey(k)
}
