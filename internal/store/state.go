package store

import (
	"time"

	"github.com/omctl/omctl/internal/rules"
)

// State is all the data of a running server.
type State struct {
	Orgs, Projects map[string]doc
	OrgOrder       []string

	Principals map[string]*Principal // by digest user name
	APIKeys    map[string]*APIKey    // by id
	KeyOrder   []string              // ids of apiKeys, as added

	Alerts         map[string]*AlertSet // by project
	AlertByID      map[string]*AlertRec
	AlertConfigs   map[string]*Ordered // by project
	configAlerts   map[string][]*AlertRec
	GlobalAlerts   *AlertSet
	globalAlertIDs map[string]*AlertRec
	GlobalConfigs  *Ordered

	BackupConfigs         map[string]doc // by project/cluster
	Clusters              map[string]bool
	Snapshots             map[string]*Ordered // by project/cluster
	ConfigServerSnapshots map[string]*Ordered // by project/host
	hosts                 map[string]bool
	OplogStores           *Ordered
	SnapshotStores        *Ordered
	BackupJobs            map[string]doc

	engine engineState

	// What changed since the last commit to the state file.
	dirty      map[recordRef]func() any
	dirtyOrder []recordRef
	dirtyAll   bool
}

func JoinKey(a, b string) string { return a + "/" + b }

// NewState builds the state from fixtures (which it takes over).
func NewState(f *Fixtures, now time.Time) *State {
	s := &State{
		Orgs: map[string]doc{}, Projects: map[string]doc{},
		Principals: map[string]*Principal{}, APIKeys: map[string]*APIKey{},
		Alerts: map[string]*AlertSet{}, AlertByID: map[string]*AlertRec{},
		AlertConfigs: map[string]*Ordered{}, configAlerts: map[string][]*AlertRec{},
		globalAlertIDs: map[string]*AlertRec{}, GlobalConfigs: NewOrdered(),
		BackupConfigs: map[string]doc{}, Clusters: map[string]bool{},
		Snapshots:             map[string]*Ordered{},
		ConfigServerSnapshots: map[string]*Ordered{}, hosts: map[string]bool{},
		OplogStores: NewOrdered(), SnapshotStores: NewOrdered(), BackupJobs: map[string]doc{},
	}
	for _, d := range f.Orgs {
		id := d["id"].(string)
		s.Orgs[id] = d
		s.OrgOrder = append(s.OrgOrder, id)
	}
	for _, d := range f.Projects {
		s.Projects[d["id"].(string)] = d
	}
	for _, d := range f.APIKeys {
		s.addAPIKey(d, now)
	}
	for _, d := range f.Users {
		p := &Principal{Name: d["username"].(string), Secret: d["apiKey"].(string), Roles: parseRoles(d["roles"]), Fixture: d}
		s.Principals[p.Name] = p
	}
	for _, d := range f.AlertConfigs {
		g := d["groupId"].(string)
		if s.AlertConfigs[g] == nil {
			s.AlertConfigs[g] = NewOrdered()
		}
		s.AlertConfigs[g].add(d["id"].(string), d)
	}
	for _, d := range f.GlobalAlertConfigs {
		s.GlobalConfigs.add(d["id"].(string), d)
	}
	byProject := map[string][]*AlertRec{}
	for _, a := range f.Alerts {
		r := s.alertRecord(a, now)
		byProject[r.Project] = append(byProject[r.Project], r)
		s.AlertByID[a.ID] = r
	}
	for p, recs := range byProject {
		s.Alerts[p] = newAlertSet(recs)
	}
	var globals []*AlertRec
	for _, a := range f.GlobalAlerts {
		r := s.alertRecord(a, now)
		r.Project = ""
		globals = append(globals, r)
		s.globalAlertIDs[a.ID] = r
	}
	s.GlobalAlerts = newAlertSet(globals)
	for p := range s.Alerts {
		s.scheduleTracking(s.Alerts[p], p)
	}
	s.scheduleTracking(s.GlobalAlerts, "")
	for _, d := range f.BackupConfigs {
		k := JoinKey(d["groupId"].(string), d["clusterId"].(string))
		s.BackupConfigs[k] = d
		s.Clusters[k] = true
	}
	for _, d := range f.Snapshots {
		k := JoinKey(d["groupId"].(string), d["clusterId"].(string))
		s.Clusters[k] = true
		if s.Snapshots[k] == nil {
			s.Snapshots[k] = NewOrdered()
		}
		s.Snapshots[k].add(d["id"].(string), d)
	}
	for _, d := range f.ConfigServerSnapshots {
		k := JoinKey(d["groupId"].(string), snapshotHost(d))
		s.hosts[k] = true
		if s.ConfigServerSnapshots[k] == nil {
			s.ConfigServerSnapshots[k] = NewOrdered()
		}
		s.ConfigServerSnapshots[k].add(d["id"].(string), d)
	}
	for _, d := range f.OplogStores {
		s.OplogStores.add(d["id"].(string), d)
	}
	for _, d := range f.SnapshotStores {
		s.SnapshotStores.add(d["id"].(string), d)
	}
	for _, d := range f.BackupJobConfigs {
		s.BackupJobs[d["id"].(string)] = d
	}
	return s
}

// ResetTo replaces all the data with the fixtures f (which it does not
// change) and marks it all to be committed.
func (s *State) ResetTo(f *Fixtures, now time.Time) {
	*s = *NewState(f.Clone(), now)
	s.TouchAll()
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
		cfg = s.GlobalConfigs.Get(cfgID)
	} else if o := s.AlertConfigs[project]; o != nil {
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

// AnyDue reports whether a TRACKING alert may be due to open by now.
func (s *State) AnyDue(now time.Time) bool {
	if s.GlobalAlerts.due(now) {
		return true
	}
	for _, set := range s.Alerts {
		if set.due(now) {
			return true
		}
	}
	return false
}

// PromoteAll opens every TRACKING alert whose delay has passed.
func (s *State) PromoteAll(now time.Time) {
	s.promote(s.GlobalAlerts, now)
	for _, set := range s.Alerts {
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
	set := s.GlobalAlerts
	if project != "" {
		set = s.Alerts[project]
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

// KeysOfOrg counts the API keys of an organization.
func (s *State) KeysOfOrg(org string) int {
	n := 0
	for _, k := range s.APIKeys {
		if k.Orgs[org] {
			n++
		}
	}
	return n
}

// snapshot writes the state back out as Fixtures (for --state).
func (s *State) Fixtures() *Fixtures {
	f := &Fixtures{}
	for _, id := range s.OrgOrder {
		f.Orgs = append(f.Orgs, s.Orgs[id])
	}
	for _, id := range rules.SortedKeys(s.Projects) {
		f.Projects = append(f.Projects, s.Projects[id])
	}
	for _, id := range s.KeyOrder {
		f.APIKeys = append(f.APIKeys, s.APIKeys[id].fixture())
	}
	for _, name := range rules.SortedKeys(s.Principals) {
		if p := s.Principals[name]; p.Key == nil {
			f.Users = append(f.Users, p.Fixture)
		}
	}
	for _, p := range rules.SortedKeys(s.Alerts) {
		for _, r := range s.Alerts[p].items {
			f.Alerts = append(f.Alerts, r.Cur)
		}
	}
	for _, p := range rules.SortedKeys(s.AlertConfigs) {
		f.AlertConfigs = append(f.AlertConfigs, s.AlertConfigs[p].Items...)
	}
	for _, r := range s.GlobalAlerts.items {
		f.GlobalAlerts = append(f.GlobalAlerts, r.Cur)
	}
	f.GlobalAlertConfigs = append(f.GlobalAlertConfigs, s.GlobalConfigs.Items...)
	for _, k := range rules.SortedKeys(s.BackupConfigs) {
		f.BackupConfigs = append(f.BackupConfigs, s.BackupConfigs[k])
	}
	for _, k := range rules.SortedKeys(s.Snapshots) {
		f.Snapshots = append(f.Snapshots, s.Snapshots[k].Items...)
	}
	for _, k := range rules.SortedKeys(s.ConfigServerSnapshots) {
		f.ConfigServerSnapshots = append(f.ConfigServerSnapshots, s.ConfigServerSnapshots[k].Items...)
	}
	f.OplogStores = append(f.OplogStores, s.OplogStores.Items...)
	f.SnapshotStores = append(f.SnapshotStores, s.SnapshotStores.Items...)
	for _, k := range rules.SortedKeys(s.BackupJobs) {
		f.BackupJobConfigs = append(f.BackupJobConfigs, s.BackupJobs[k])
	}
	return f
}

// CredentialFixtures is the organizations, projects, keys and users of the
// data in fixture form: who may sign in, for the start-up banner.
func (s *State) CredentialFixtures() *Fixtures {
	f := &Fixtures{}
	for _, id := range s.OrgOrder {
		f.Orgs = append(f.Orgs, s.Orgs[id])
	}
	for _, id := range rules.SortedKeys(s.Projects) {
		f.Projects = append(f.Projects, s.Projects[id])
	}
	for _, id := range s.KeyOrder {
		f.APIKeys = append(f.APIKeys, s.APIKeys[id].Doc)
	}
	for _, name := range rules.SortedKeys(s.Principals) {
		if p := s.Principals[name]; p.Key == nil {
			f.Users = append(f.Users, p.Fixture)
		}
	}
	return f
}
