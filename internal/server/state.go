package server

import (
	"time"

	"github.com/omctl/omctl/internal/rules"
)

// state is all the data of a running server.
type state struct {
	orgs, projects map[string]doc
	orgOrder       []string

	principals map[string]*principal // by digest user name
	apiKeys    map[string]*apiKey    // by id
	keyOrder   []string              // ids of apiKeys, as added

	alerts         map[string]*alertSet // by project
	alertByID      map[string]*alertRec
	alertConfigs   map[string]*ordered // by project
	configAlerts   map[string][]*alertRec
	globalAlerts   *alertSet
	globalAlertIDs map[string]*alertRec
	globalConfigs  *ordered

	backupConfigs  map[string]doc // by project/cluster
	clusters       map[string]bool
	snapshots      map[string]*ordered // by project/cluster
	csSnapshots    map[string]*ordered // by project/host
	hosts          map[string]bool
	oplogStores    *ordered
	snapshotStores *ordered
	backupJobs     map[string]doc

	engine engineState

	// What changed since the last commit to the state file.
	dirty      map[recordRef]func() any
	dirtyOrder []recordRef
	dirtyAll   bool
}

func key2(a, b string) string { return a + "/" + b }

// newState builds the state from fixtures (which it takes over).
func newState(f *Fixtures, now time.Time) *state {
	s := &state{
		orgs: map[string]doc{}, projects: map[string]doc{},
		principals: map[string]*principal{}, apiKeys: map[string]*apiKey{},
		alerts: map[string]*alertSet{}, alertByID: map[string]*alertRec{},
		alertConfigs: map[string]*ordered{}, configAlerts: map[string][]*alertRec{},
		globalAlertIDs: map[string]*alertRec{}, globalConfigs: newOrdered(),
		backupConfigs: map[string]doc{}, clusters: map[string]bool{},
		snapshots:   map[string]*ordered{},
		csSnapshots: map[string]*ordered{}, hosts: map[string]bool{},
		oplogStores: newOrdered(), snapshotStores: newOrdered(), backupJobs: map[string]doc{},
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
		p := &principal{name: d["username"].(string), secret: d["apiKey"].(string), roles: parseRoles(d["roles"]), fixture: d}
		s.principals[p.name] = p
	}
	for _, d := range f.AlertConfigs {
		g := d["groupId"].(string)
		if s.alertConfigs[g] == nil {
			s.alertConfigs[g] = newOrdered()
		}
		s.alertConfigs[g].add(d["id"].(string), d)
	}
	for _, d := range f.GlobalAlertConfigs {
		s.globalConfigs.add(d["id"].(string), d)
	}
	byProject := map[string][]*alertRec{}
	for _, a := range f.Alerts {
		r := s.alertRecord(a, now)
		byProject[r.project] = append(byProject[r.project], r)
		s.alertByID[a.ID] = r
	}
	for p, recs := range byProject {
		s.alerts[p] = newAlertSet(recs)
	}
	var globals []*alertRec
	for _, a := range f.GlobalAlerts {
		r := s.alertRecord(a, now)
		r.project = ""
		globals = append(globals, r)
		s.globalAlertIDs[a.ID] = r
	}
	s.globalAlerts = newAlertSet(globals)
	for p := range s.alerts {
		s.scheduleTracking(s.alerts[p], p)
	}
	s.scheduleTracking(s.globalAlerts, "")
	for _, d := range f.BackupConfigs {
		k := key2(d["groupId"].(string), d["clusterId"].(string))
		s.backupConfigs[k] = d
		s.clusters[k] = true
	}
	for _, d := range f.Snapshots {
		k := key2(d["groupId"].(string), d["clusterId"].(string))
		s.clusters[k] = true
		if s.snapshots[k] == nil {
			s.snapshots[k] = newOrdered()
		}
		s.snapshots[k].add(d["id"].(string), d)
	}
	for _, d := range f.ConfigServerSnapshots {
		k := key2(d["groupId"].(string), snapshotHost(d))
		s.hosts[k] = true
		if s.csSnapshots[k] == nil {
			s.csSnapshots[k] = newOrdered()
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

// alertRecord indexes an alert; one without a creation time was created now.
func (s *state) alertRecord(a *AlertDoc, now time.Time) *alertRec {
	if a.Created.IsZero() {
		a = a.with(func(d doc) { d["created"] = rules.FormatTime(now) })
	}
	return &alertRec{cur: a, status: a.Status, created: a.Created, project: a.GroupID}
}

// scheduleTracking computes, for every TRACKING alert of set, when it opens.
func (s *state) scheduleTracking(set *alertSet, project string) {
	for _, r := range set.items {
		if r.status != statusTracking {
			continue
		}
		cfgID := r.cur.AlertConfigID
		s.configAlerts[cfgID] = append(s.configAlerts[cfgID], r)
		set.schedule(r, s.openTime(r, project))
	}
}

// openTime is when a TRACKING alert opens: its creation plus the smallest
// delayMin of its configuration's notifications (docs/api.md, Alert).
func (s *state) openTime(r *alertRec, project string) time.Time {
	cfgID := r.cur.AlertConfigID
	var cfg doc
	if project == "" {
		cfg = s.globalConfigs.get(cfgID)
	} else if o := s.alertConfigs[project]; o != nil {
		cfg = o.get(cfgID)
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
func (s *state) anyDue(now time.Time) bool {
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

// promoteAll opens every TRACKING alert whose delay has passed.
func (s *state) promoteAll(now time.Time) {
	s.promote(s.globalAlerts, now)
	for _, set := range s.alerts {
		s.promote(set, now)
	}
}

// promote opens the TRACKING alerts of set whose delay has passed.
func (s *state) promote(set *alertSet, now time.Time) {
	if set == nil {
		return
	}
	set.promote(now, func(r *alertRec) {
		at := rules.FormatTime(r.openAt)
		_, raised := s.engine.schedules[r]
		r.cur = r.cur.with(func(d doc) {
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
func (s *state) rescheduleConfig(cfgID, project string) {
	set := s.globalAlerts
	if project != "" {
		set = s.alerts[project]
	}
	if set == nil {
		return
	}
	for _, r := range s.configAlerts[cfgID] {
		if r.status == statusTracking && r.project == project {
			set.schedule(r, s.openTime(r, project))
		}
	}
}

// keysOfOrg counts the API keys of an organization.
func (s *state) keysOfOrg(org string) int {
	n := 0
	for _, k := range s.apiKeys {
		if k.orgs[org] {
			n++
		}
	}
	return n
}

// snapshot writes the state back out as fixtures (for --state).
func (s *state) fixtures() *Fixtures {
	f := &Fixtures{}
	for _, id := range s.orgOrder {
		f.Orgs = append(f.Orgs, s.orgs[id])
	}
	for _, id := range rules.SortedKeys(s.projects) {
		f.Projects = append(f.Projects, s.projects[id])
	}
	for _, id := range s.keyOrder {
		f.APIKeys = append(f.APIKeys, s.apiKeys[id].fixture())
	}
	for _, name := range rules.SortedKeys(s.principals) {
		if p := s.principals[name]; p.key == nil {
			f.Users = append(f.Users, p.fixture)
		}
	}
	for _, p := range rules.SortedKeys(s.alerts) {
		for _, r := range s.alerts[p].items {
			f.Alerts = append(f.Alerts, r.cur)
		}
	}
	for _, p := range rules.SortedKeys(s.alertConfigs) {
		f.AlertConfigs = append(f.AlertConfigs, s.alertConfigs[p].items...)
	}
	for _, r := range s.globalAlerts.items {
		f.GlobalAlerts = append(f.GlobalAlerts, r.cur)
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
