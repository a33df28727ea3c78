// Package model is the data of omctl server: typed records (alerts as
// compact JSON documents, API keys with their access lists, principals),
// their lookups, and the named operations that change them (one file a
// resource, see records.go), which record each change as they make it
// (txn.go); the fixture format, the demo data and the alert codec and
// index they stand on. It knows nothing of the alert engine (package
// engine, which reacts to the changes), of locks or of the state file's
// commits (package store).
package model

import (
	"time"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/fixture"
)

// State is all the data of a running server.
type State struct {
	orgs     map[string]*Org
	projects map[string]*Project
	orgOrder []string
	// projectOrder holds the ids of projects, in the order they came into being.
	projectOrder []string

	principals map[string]*Principal // by digest user name
	apiKeys    map[string]*APIKey    // by id
	keyOrder   []string              // ids of apiKeys, as added

	alerts         map[string]*alert.Set // by project
	alertByID      map[string]*alert.Rec
	alertConfigs   map[string]*Ordered[*AlertConfig] // by project
	globalAlerts   *alert.Set
	globalAlertIDs map[string]*alert.Rec
	globalConfigs  *Ordered[*AlertConfig]

	backupConfigs  map[string]*BackupConfig       // by project/cluster
	configOrder    []string                       // keys of backupConfigs, in fixture order
	clusters       map[string]*Ordered[*Cluster]  // by project
	snapshots      map[string]*Ordered[*Snapshot] // by project/cluster
	csSnapshots    map[string]*Ordered[*Snapshot] // by project/host
	hosts          map[string]bool
	oplogStores    *Ordered[*S3Store]
	snapshotStores *Ordered[*S3Store]
	backupJobs     map[string]*BackupJobConfig // by project

	// staleAlerts are the alert sets whose index a change left to be
	// built anew (alert.Set.Add), once, before the change is over.
	staleAlerts []*alert.Set

	// ch records what the writes change, until the commit takes it
	// (txn.go); nil while the data is loaded, and in the readers'
	// replica, which nobody writes.
	ch *Changes
}

func joinKey(a, b string) string { return a + "/" + b }

// NewState builds the state from fixtures (which it takes over).
func NewState(f *fixture.Fixtures, now time.Time) *State {
	s := &State{
		orgs: map[string]*Org{}, projects: map[string]*Project{},
		principals: map[string]*Principal{}, apiKeys: map[string]*APIKey{},
		alerts: map[string]*alert.Set{}, alertByID: map[string]*alert.Rec{},
		alertConfigs:   map[string]*Ordered[*AlertConfig]{},
		globalAlertIDs: map[string]*alert.Rec{}, globalConfigs: newOrdered[*AlertConfig](),
		backupConfigs: map[string]*BackupConfig{}, clusters: map[string]*Ordered[*Cluster]{},
		snapshots:   map[string]*Ordered[*Snapshot]{},
		csSnapshots: map[string]*Ordered[*Snapshot]{}, hosts: map[string]bool{},
		oplogStores: newOrdered[*S3Store](), snapshotStores: newOrdered[*S3Store](),
		backupJobs: map[string]*BackupJobConfig{},
	}
	s.loadOrgs(f)
	s.loadSignIns(f, now)
	s.loadAlertConfigs(f)
	s.loadAlerts(f, now)
	s.loadBackupConfigs(f)
	s.loadSnapshots(f)
	s.loadClusters(f)
	s.loadS3Stores(f)
	s.loadBackupJobConfigs(f)
	s.ch = &Changes{}
	return s
}

// putIn puts r in the list of lists under k, making the list if need be.
func putIn[R storedRecord](lists map[string]*Ordered[R], k string, r R) {
	if lists[k] == nil {
		lists[k] = newOrdered[R]()
	}
	lists[k].put(r)
}

// ResetTo replaces all the data with the fixtures f (which it takes
// over) and marks it all to be committed (Tx.ResetTo).
func (s *State) ResetTo(f *fixture.Fixtures, now time.Time) {
	ch := s.ch
	*s = *NewState(f, now)
	s.ch = ch
	ch.dropWrite() // what the write changed before is gone with the rest
	ch.setAll()
	ch.reset = true
}

// ReindexAlerts builds the index of the alert sets that changes left
// stale, before readers see the data (Store.runBatch).
func (s *State) ReindexAlerts() {
	for _, set := range s.staleAlerts {
		set.Ensure()
	}
	s.staleAlerts = nil
}

// alertRecord is the record that indexes an alert; one without a creation
// time was created now.
func (s *State) alertRecord(a *alert.Doc, now time.Time) alert.Rec {
	if a.Created.IsZero() {
		a = a.With(func(d doc) { d["created"] = rules.FormatTime(now) })
	}
	return alert.MakeRec(a, a.GroupID, a.Status, a.Created)
}

// Fixtures writes the data back out as fixtures (for --state and export).
// They share the records' members, which nobody may change.
func (s *State) Fixtures() *fixture.Fixtures {
	f := s.signIns((*APIKey).fixture)
	for _, p := range rules.SortedKeys(s.alerts) {
		for _, r := range s.alerts[p].Items() {
			f.Alerts = append(f.Alerts, r.Cur)
		}
	}
	for _, p := range rules.SortedKeys(s.alertConfigs) {
		f.AlertConfigs = append(f.AlertConfigs, raws(s.alertConfigs[p].All())...)
	}
	for _, r := range s.globalAlerts.Items() {
		f.GlobalAlerts = append(f.GlobalAlerts, r.Cur)
	}
	f.GlobalAlertConfigs = raws(s.globalConfigs.All())
	for _, k := range s.configOrder {
		f.BackupConfigs = append(f.BackupConfigs, s.backupConfigs[k].raw())
	}
	for _, p := range s.projectOrder {
		f.Clusters = append(f.Clusters, raws(s.clusters[p].All())...)
	}
	for _, k := range rules.SortedKeys(s.snapshots) {
		f.Snapshots = append(f.Snapshots, raws(s.snapshots[k].All())...)
	}
	for _, k := range rules.SortedKeys(s.csSnapshots) {
		f.ConfigServerSnapshots = append(f.ConfigServerSnapshots, raws(s.csSnapshots[k].All())...)
	}
	f.OplogStores = raws(s.oplogStores.All())
	f.SnapshotStores = raws(s.snapshotStores.All())
	for _, k := range rules.SortedKeys(s.backupJobs) {
		f.BackupJobConfigs = append(f.BackupJobConfigs, s.backupJobs[k].raw())
	}
	return f
}

// CredentialFixtures is the organizations, projects, keys and users of the
// data in fixture form: who may sign in, for the start-up banner.
func (s *State) CredentialFixtures() *fixture.Fixtures {
	return s.signIns((*APIKey).raw)
}

// signIns is the organizations, projects, keys (each as keyDoc writes it)
// and users of the data in fixture form.
func (s *State) signIns(keyDoc func(*APIKey) doc) *fixture.Fixtures {
	f := &fixture.Fixtures{}
	for _, id := range s.orgOrder {
		f.Orgs = append(f.Orgs, s.orgs[id].raw())
	}
	for _, id := range s.projectOrder {
		f.Projects = append(f.Projects, s.projects[id].raw())
	}
	for _, id := range s.keyOrder {
		f.APIKeys = append(f.APIKeys, keyDoc(s.apiKeys[id]))
	}
	for _, name := range rules.SortedKeys(s.principals) {
		if p := s.principals[name]; p.Key == nil {
			f.Users = append(f.Users, p.Fixture)
		}
	}
	return f
}

// Principals are the API keys' and users' principals by digest user
// name; the caller must not change the map.
func (s *State) Principals() map[string]*Principal { return s.principals }
