package store

import (
	"fmt"
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

// CreateOplogStore adds an oplog store, refusing one whose id is taken.
func (s *State) CreateOplogStore(store doc) *rules.Error {
	return s.createStore(s.oplogStores, "oplogStores", "An oplog store", store)
}

// createStore adds store to list (records of kind), refusing one whose
// id is taken: "<what> with ID ... already exists".
func (s *State) createStore(list *Ordered, kind, what string, store doc) *rules.Error {
	id := store["id"].(string)
	if list.Get(id) != nil {
		return rules.Conflictf("DUPLICATE_STORE_ID", fmt.Sprintf("%s with ID %s already exists.", what, id), id)
	}
	list.add(id, store)
	s.touch(kind, store)
	return nil
}

// ReplaceOplogStore puts an oplog store in place of the one with its id.
func (s *State) ReplaceOplogStore(store doc) {
	s.oplogStores.add(store["id"].(string), store)
	s.touch("oplogStores", store)
}

// CreateSnapshotStore adds a snapshot store, refusing one whose id is
// taken.
func (s *State) CreateSnapshotStore(store doc) *rules.Error {
	return s.createStore(s.snapshotStores, "snapshotStores", "A snapshot store", store)
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

// CreateAPIKey makes an API key of a project with a description and
// roles in it: a new id, an unused public key and a private key (from
// crypto/rand). An organization holds at most rules.MaxAPIKeysPerOrg keys.
func (s *State) CreateAPIKey(project, desc string, roles []string, now time.Time) (*APIKey, *rules.Error) {
	if org, _ := s.projects[project]["orgId"].(string); org != "" && s.keysOfOrg(org) >= rules.MaxAPIKeysPerOrg {
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
