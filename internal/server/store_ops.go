package server

import (
	"time"

	"github.com/omctl/omctl/internal/rules"
)

// The named operations on the data: what the write endpoints do, once
// their request has been checked. Each records what it changed for the
// state file, and tells the alert engine what concerns it.

// acknowledgeAlert acknowledges an alert until a time, by a user.
func (s *state) acknowledgeAlert(r *alertRec, until, comment, user string, now time.Time) {
	r.cur = r.cur.with(func(d doc) {
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

// unacknowledgeAlert ends an alert's acknowledgement.
func (s *state) unacknowledgeAlert(r *alertRec, now time.Time) {
	r.cur = r.cur.with(func(d doc) {
		delete(d, "acknowledgedUntil")
		delete(d, "acknowledgementComment")
		delete(d, "acknowledgingUsername")
		d["updated"] = rules.FormatTime(now)
	})
	s.touchAlert(r)
}

// replaceAlertConfig puts a project's alert configuration in place of the
// one with its id; disabling it cancels its active alerts.
func (s *state) replaceAlertConfig(project string, cfg doc, now time.Time) {
	id := cfg["id"].(string)
	s.alertConfigs[project].add(id, cfg)
	s.touch("alertConfigs", cfg)
	s.rescheduleConfig(id, project)
	if cfg["enabled"] != true {
		s.cancelConfig(id, now)
	}
}

// createAlertConfig adds a configuration to a project.
func (s *state) createAlertConfig(project string, cfg doc) {
	if s.alertConfigs[project] == nil {
		s.alertConfigs[project] = newOrdered()
	}
	s.alertConfigs[project].add(cfg["id"].(string), cfg)
	s.touch("alertConfigs", cfg)
}

// deleteAlertConfig removes a project's configuration; its active alerts
// are cancelled first, as when it is disabled.
func (s *state) deleteAlertConfig(project, id string, now time.Time) {
	s.cancelConfig(id, now)
	if o := s.alertConfigs[project]; o != nil {
		o.remove(id)
	}
	delete(s.configAlerts, id)
	s.forget("alertConfigs", id)
}

// setConfigEnabled turns a configuration (of kind alertConfigs or
// globalAlertConfigs) on or off; off cancels its active alerts.
func (s *state) setConfigEnabled(kind string, cfg doc, enabled bool, now time.Time) {
	cfg["enabled"] = enabled
	cfg["updated"] = rules.FormatTime(now)
	s.touch(kind, cfg)
	if !enabled {
		s.cancelConfig(cfg["id"].(string), now)
	}
}

// setSnapshotExpiry keeps a snapshot for good (doNotDelete), or until
// expires (when not ""), or lets it go at its current expiry.
func (s *state) setSnapshotExpiry(snap doc, doNotDelete bool, expires string) {
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

// updateBackupConfig sets the settings of a backup configuration;
// choosing regions for the shards ends a misconfiguration.
func (s *state) updateBackupConfig(cfg, settings doc, regionsAssigned bool) {
	for k, v := range settings {
		cfg[k] = v
	}
	if regionsAssigned {
		cfg["multiRegionMisconfigured"] = false
	}
	s.touch("backupConfigs", cfg)
}

// createOplogStore adds an oplog store.
func (s *state) createOplogStore(store doc) {
	s.oplogStores.add(store["id"].(string), store)
	s.touch("oplogStores", store)
}

// replaceOplogStore puts an oplog store in place of the one with its id.
func (s *state) replaceOplogStore(store doc) {
	s.oplogStores.add(store["id"].(string), store)
	s.touch("oplogStores", store)
}

// createSnapshotStore adds a snapshot store.
func (s *state) createSnapshotStore(store doc) {
	s.snapshotStores.add(store["id"].(string), store)
	s.touch("snapshotStores", store)
}

// replaceBackupJobConfig creates or replaces a project's backup jobs
// configuration.
func (s *state) replaceBackupJobConfig(cfg doc) {
	s.backupJobs[cfg["id"].(string)] = cfg
	s.touch("backupJobConfigs", cfg)
}

// replaceSnapshotStore puts a snapshot store in place of the one with its id.
func (s *state) replaceSnapshotStore(store doc) {
	s.snapshotStores.add(store["id"].(string), store)
	s.touch("snapshotStores", store)
}

// createAPIKey adds an API key.
func (s *state) createAPIKey(key doc, now time.Time) *apiKey {
	k := s.addAPIKey(key, now)
	s.touchKey(k)
	return k
}

// addAccessEntries adds to a key's access list the entries it lacks.
func (s *state) addAccessEntries(k *apiKey, canon []string, entries []any, now time.Time) {
	for i, e := range entries {
		k.addAccessEntry(canon[i], e.(map[string]any), now)
	}
	s.touchKey(k)
}
