package model

import (
	"time"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/alert"
)

// The API's writes as a request brings them: each checks the body it is
// given against the rules of docs/api.md before it changes anything, so
// a refused request changes nothing and a caller cannot skip a rule.
// The operations below them (SetAlert, ReplaceAlertConfig...) are
// what the engine, fixtures and these use once a body is known to be good.

// Acknowledge acknowledges an alert until the body's acknowledgedUntil,
// or ends its acknowledgement when that is left out or null.
func (s *State) Acknowledge(r *alert.Rec, body doc, user string, now time.Time) error {
	if err := rules.CheckPathIDs(body, map[string]string{"id": r.Cur.ID, "groupId": r.Project}); err != nil {
		return err
	}
	if err := rules.CheckAcknowledgement(body, r.Cur.Doc(), now); err != nil {
		return err
	}
	var d *alert.Doc
	if until, acknowledge := body["acknowledgedUntil"].(string); acknowledge {
		comment, _ := body["acknowledgementComment"].(string)
		d = r.Cur.Acknowledged(until, comment, user, now)
	} else {
		d = r.Cur.Unacknowledged(now)
	}
	s.SetAlert(r, d)
	return nil
}

// PostAlertConfig adds the configuration a body describes to a project;
// a groupId equal to the project's is accepted, an id is not.
func (s *State) PostAlertConfig(project string, body doc, now time.Time) (*AlertConfig, error) {
	if err := rules.CheckAlertConfig(body, doc{"groupId": project}); err != nil {
		return nil, err
	}
	return s.CreateAlertConfig(project, body, now), nil
}

// PutAlertConfig replaces a configuration by the one a body describes.
func (s *State) PutAlertConfig(old *AlertConfig, body doc, now time.Time) (*AlertConfig, error) {
	if err := rules.CheckAlertConfig(body, doc{"id": old.ID, "groupId": old.GroupID}); err != nil {
		return nil, err
	}
	return s.ReplaceAlertConfig(old, body, now), nil
}

// PatchBackupConfig changes a backup configuration's settings.
func (s *State) PatchBackupConfig(cfg *BackupConfig, body doc) (*BackupConfig, error) {
	if err := rules.CheckPathIDs(body, map[string]string{"groupId": cfg.GroupID, "clusterId": cfg.ClusterID}); err != nil {
		return nil, err
	}
	if err := rules.CheckBackupConfigChange(body, cfg.Members()); err != nil {
		return nil, err
	}
	return s.UpdateBackupConfig(cfg, body)
}

// PatchSnapshot changes when a snapshot expires, or keeps it for good.
func (s *State) PatchSnapshot(snap *Snapshot, project, cluster string, body doc, now time.Time) (*Snapshot, error) {
	if err := rules.CheckPathIDs(body, map[string]string{"id": snap.ID, "groupId": project, "clusterId": cluster}); err != nil {
		return nil, err
	}
	if err := rules.CheckSnapshotExpiry(body, snap.Members(), now); err != nil {
		return nil, err
	}
	dnd, hasDND := body["doNotDelete"].(bool)
	expires, _ := body["expires"].(string)
	return s.SetSnapshotExpiry(snap, hasDND && dnd, expires), nil
}

// PutSnapshotStore replaces the snapshot store with id by a body's.
func (s *State) PutSnapshotStore(id string, body doc) (*S3Store, error) {
	if err := rules.CheckStore(body, rules.SnapshotStore, rules.Replace, id); err != nil {
		return nil, err
	}
	return s.ReplaceSnapshotStore(id, body), nil
}

// PutOplogStore replaces the oplog store with id by a body's.
func (s *State) PutOplogStore(id string, body doc) (*S3Store, error) {
	if err := rules.CheckStore(body, rules.OplogStore, rules.Replace, id); err != nil {
		return nil, err
	}
	return s.ReplaceOplogStore(id, body), nil
}

// PostAPIKey makes a project's API key from a body's description and
// roles.
func (s *State) PostAPIKey(project string, body doc, now time.Time) (*APIKey, error) {
	desc, roles, err := rules.CheckAPIKey(body)
	if err != nil {
		return nil, err
	}
	return s.CreateAPIKey(project, desc, roles, now)
}

// PutBackupJobConfig replaces a project's backup job configuration by a
// body's.
func (s *State) PutBackupJobConfig(project string, body doc) (*BackupJobConfig, error) {
	if err := rules.BackupJobConfigBody().Check(body, "", doc{"id": project}); err != nil {
		return nil, err
	}
	return s.ReplaceBackupJobConfig(project, body)
}
