package store

import (
	"time"

	"github.com/omctl/omctl/internal/rules"
)

// State is all the data of a running server.
type State struct {
	orgs, projects map[string]doc
	orgOrder       []string

	principals map[string]*Principal // by digest user name
	apiKeys    map[string]*APIKey    // by id
	keyOrder   []string              // ids of apiKeys, as added

	alerts         map[string]*AlertSet // by project
	alertByID      map[string]*AlertRec
	alertConfigs   map[string]*Ordered // by project
	configAlerts   map[string][]*AlertRec
	globalAlerts   *AlertSet
	globalAlertIDs map[string]*AlertRec
	globalConfigs  *Ordered

	backupConfigs  map[string]doc // by project/cluster
	clusters       map[string]bool
	snapshots      map[string]*Ordered // by project/cluster
	csSnapshots    map[string]*Ordered // by project/host
	hosts          map[string]bool
	oplogStores    *Ordered
	snapshotStores *Ordered
	backupJobs     map[string]doc

	engine engineState

	// What changed since the last commit to the state file.
	dirty      map[recordRef]func() any
	dirtyOrder []recordRef
	dirtyAll   bool
}

func joinKey(a, b string) string { return a + "/" + b }

// newState builds the state from fixtures (which it takes over).
func newState(f *Fixtures, now time.Time) *State {
	s := &State{
		orgs: map[string]doc{}, projects: map[string]doc{},
		principals: map[string]*Principal{}, apiKeys: map[string]*APIKey{},
		alerts: map[string]*AlertSet{}, alertByID: map[string]*AlertRec{},
		alertConfigs: map[string]*Ordered{}, configAlerts: map[string][]*AlertRec{},
		globalAlertIDs: map[string]*AlertRec{}, globalConfigs: NewOrdered(),
		backupConfigs: map[string]doc{}, clusters: map[string]bool{},
		snapshots:   map[string]*Ordered{},
		csSnapshots: map[string]*Ordered{}, hosts: map[string]bool{},
		oplogStores: NewOrdered(), snapshotStores: NewOrdered(), backupJobs: map[string]doc{},
	}
	for _, d := range f.Orgs {
		id := d["id"].(string)
		s.orgs[id] = d
		s.orgOrder = append(s.orgOrder, id)
	}
	for _, d := range f.Projects {
		s.projects[d["id"].(string)] = d
	}
	for _, d := range f.APIKeys {
		s.addAPIKey(d, now)
	}
	for _, d := range f.Users {
		p := &Principal{Name: d["username"].(string), Secret: d["apiKey"].(string), Roles: parseRoles(d["roles"]), Fixture: d}
		s.principals[p.Name] = p
	}
	for _, d := range f.AlertConfigs {
		g := d["groupId"].(string)
		if s.alertConfigs[g] == nil {
			s.alertConfigs[g] = NewOrdered()
		}
		s.alertConfigs[g].add(d["id"].(string), d)
	}
	for _, d := range f.GlobalAlertConfigs {
		s.globalConfigs.add(d["id"].(string), d)
	}
	byProject := map[string][]*AlertRec{}
	for _, a := range f.Alerts {
		r := s.alertRecord(a, now)
		byProject[r.Project] = append(byProject[r.Project], r)
		s.alertByID[a.ID] = r
	}
	for p, recs := range byProject {
		s.alerts[p] = newAlertSet(recs)
	}
	var globals []*AlertRec
	for _, a := range f.GlobalAlerts {
		r := s.alertRecord(a, now)
		r.Project = ""
		globals = append(globals, r)
		s.globalAlertIDs[a.ID] = r
	}
	s.globalAlerts = newAlertSet(globals)
	for p := range s.alerts {
		s.scheduleTracking(s.alerts[p], p)
	}
	s.scheduleTracking(s.globalAlerts, "")
	for _, d := range f.BackupConfigs {
		k := joinKey(d["groupId"].(string), d["clusterId"].(string))
		s.backupConfigs[k] = d
		s.clusters[k] = true
	}
	for _, d := range f.Snapshots {
		k := joinKey(d["groupId"].(string), d["clusterId"].(string))
		s.clusters[k] = true
		if s.snapshots[k] == nil {
			s.snapshots[k] = NewOrdered()
		}
		s.snapshots[k].add(d["id"].(string), d)
	}
	for _, d := range f.ConfigServerSnapshots {
		k := joinKey(d["groupId"].(string), snapshotHost(d))
		s.hosts[k] = true
		if s.csSnapshots[k] == nil {
			s.csSnapshots[k] = NewOrdered()
		}
		s.csSnapshots[k].add(d["id"].(string), d)
	}
	for _, d := range f.OplogStores {
		s.oplogStores.add(d["id"].(string), d)
	}
	for _, d := range f.SnapshotStores {
		s.snapshotStores.add(d["id"].(string), d)
	}
	for _, d := range f.BackupJobConfigs {
		s.backupJobs[d["id"].(string)] = d
	}
	return s
}

// ResetTo replaces all the data with the fixtures f (which it does not
// change) and marks it all to be committed.
func (s *State) ResetTo(f *Fixtures, now time.Time) {
	*s = *newState(f.Clone(), now)
	s.touchAll()
}

// alertRecord indexes an alert; one without a creation time was created now.
func (s *State) alertRecord(a *AlertDoc, now time.Time) *AlertRec {
	if a.Created.IsZero() {
		a = a.with(func(d doc) { d["created"] = rules.FormatTime(now) })
	}
	return &AlertRec{Cur: a, Status: a.Status, created: a.Created, Project: a.GroupID}
}

// scheduleTracking computes, for every TRACKING alert of set, when it opens.
func (s *State) scheduleTracking(set *AlertSet, project string) {
	for _, r := range set.items {
		if r.Status != statusTracking {
			continue
		}
		cfgID := r.Cur.AlertConfigID
		s.configAlerts[cfgID] = append(s.configAlerts[cfgID], r)
		set.schedule(r, s.openTime(r, project))
	}
}

// openTime is when a TRACKING alert opens: its creation plus the smallest
// delayMin of its configuration's notifications (docs/api.md, Alert).
func (s *State) openTime(r *AlertRec, project string) time.Time {
	cfgID := r.Cur.AlertConfigID
	var cfg doc
	if project == "" {
		cfg = s.globalConfigs.Get(cfgID)
	} else if o := s.alertConfigs[project]; o != nil {
		cfg = o.Get(cfgID)
	}
	if cfg == nil {
		return time.Time{}
	}
	notes, _ := cfg["notifications"].([]any)
	smallest := int64(-1)
	for _, n := range notes {
		m, _ := n.(map[string]any)
		d, _ := rules.NormalizeNumbers(m["delayMin"]).(int64)
		if smallest < 0 || d < smallest {
			smallest = d
		}
	}
	if smallest < 0 {
		smallest = 0
	}
	return r.created.Add(time.Duration(smallest) * time.Minute)
}

// anyDue reports whether a TRACKING alert may be due to open by now.
func (s *State) anyDue(now time.Time) bool {
	if s.globalAlerts.due(now) {
		return true
	}
	for _, set := range s.alerts {
		if set.due(now) {
			return true
		}
	}
	return false
}

// PromoteAll opens every TRACKING alert whose delay has passed.
func (s *State) PromoteAll(now time.Time) {
	s.promote(s.globalAlerts, now)
	for _, set := range s.alerts {
		s.promote(set, now)
	}
}

// promote opens the TRACKING alerts of set whose delay has passed.
func (s *State) promote(set *AlertSet, now time.Time) {
	if set == nil {
		return
	}
	set.promote(now, func(r *AlertRec) {
		at := rules.FormatTime(r.openAt)
		_, raised := s.engine.schedules[r]
		r.Cur = r.Cur.with(func(d doc) {
			d["status"] = statusOpen
			d["updated"] = at
			if !raised {
				// A fixture alert has no schedule: it counts as notified on opening.
				d["lastNotified"] = at
			}
		})
		s.touchAlert(r)
	})
}

// rescheduleConfig recomputes open times after a configuration changed.
func (s *State) rescheduleConfig(cfgID, project string) {
	set := s.globalAlerts
	if project != "" {
		set = s.alerts[project]
	}
	if set == nil {
		return
	}
	for _, r := range s.configAlerts[cfgID] {
		if r.Status == statusTracking && r.Project == project {
			set.schedule(r, s.openTime(r, project))
		}
	}
}

// keysOfOrg counts the API keys of an organization.
func (s *State) keysOfOrg(org string) int {
	n := 0
	for _, k := range s.apiKeys {
		if k.Orgs[org] {
			n++
		}
	}
	return n
}

// Fixtures writes the data back out as fixtures (for --state and export).
func (s *State) Fixtures() *Fixtures {
	f := s.signIns((*APIKey).fixture)
	for _, p := range rules.SortedKeys(s.alerts) {
		for _, r := range s.alerts[p].items {
			f.Alerts = append(f.Alerts, r.Cur)
		}
	}
	for _, p := range rules.SortedKeys(s.alertConfigs) {
		f.AlertConfigs = append(f.AlertConfigs, s.alertConfigs[p].items...)
	}
	for _, r := range s.globalAlerts.items {
		f.GlobalAlerts = append(f.GlobalAlerts, r.Cur)
	}
	f.GlobalAlertConfigs = append(f.GlobalAlertConfigs, s.globalConfigs.items...)
	for _, k := range rules.SortedKeys(s.backupConfigs) {
		f.BackupConfigs = append(f.BackupConfigs, s.backupConfigs[k])
	}
	for _, k := range rules.SortedKeys(s.snapshots) {
		f.Snapshots = append(f.Snapshots, s.snapshots[k].items...)
	}
	for _, k := range rules.SortedKeys(s.csSnapshots) {
		f.ConfigServerSnapshots = append(f.ConfigServerSnapshots, s.csSnapshots[k].items...)
	}
	f.OplogStores = append(f.OplogStores, s.oplogStores.items...)
	f.SnapshotStores = append(f.SnapshotStores, s.snapshotStores.items...)
	for _, k := range rules.SortedKeys(s.backupJobs) {
		f.BackupJobConfigs = append(f.BackupJobConfigs, s.backupJobs[k])
	}
	return f
}

// CredentialFixtures is the organizations, projects, keys and users of the
// data in fixture form: who may sign in, for the start-up banner.
func (s *State) CredentialFixtures() *Fixtures {
	return s.signIns(func(k *APIKey) doc { return k.Doc })
}

// signIns is the organizations, projects, keys (each as keyDoc writes it)
// and users of the data in fixture form.
func (s *State) signIns(keyDoc func(*APIKey) doc) *Fixtures {
	f := &Fixtures{}
	for _, id := range s.orgOrder {
		f.Orgs = append(f.Orgs, s.orgs[id])
	}
	for _, id := range rules.SortedKeys(s.projects) {
		f.Projects = append(f.Projects, s.projects[id])
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
