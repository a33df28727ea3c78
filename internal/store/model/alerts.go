package model

import (
	"time"

	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/fixture"
)

// Alert is an alert of a project by its id, nil for none.
func (s *State) Alert(id string) *alert.Rec { return s.alertByID[id] }

// ProjectAlerts are a project's alerts, nil when it has none.
func (s *State) ProjectAlerts(project string) *alert.Set { return s.alerts[project] }

// GlobalAlertSet are the global alerts.
func (s *State) GlobalAlertSet() *alert.Set { return s.globalAlerts }

// loadAlerts indexes the alerts of the fixtures.
func (s *State) loadAlerts(f *fixture.Fixtures, now time.Time) {
	// The records of the alerts loaded are one array: among a million
	// alerts, a million small objects were much of what the collector
	// marks at each run (docs/performance.md). Alerts are never deleted,
	// so the array lives as long as the data.
	recs := make([]alert.Rec, len(f.Alerts)+len(f.GlobalAlerts))
	byProject := map[string][]*alert.Rec{}
	// Sized once: grown alert by alert, a million ids were hashed again at
	// each doubling.
	s.alertByID = make(map[string]*alert.Rec, len(f.Alerts))
	s.globalAlertIDs = make(map[string]*alert.Rec, len(f.GlobalAlerts))
	for i, a := range f.Alerts {
		recs[i] = s.alertRecord(a, now)
		r := &recs[i]
		byProject[r.Project] = append(byProject[r.Project], r)
		s.alertByID[a.ID] = r
	}
	for p, set := range byProject {
		s.alerts[p] = alert.NewSet(set)
	}
	var globals []*alert.Rec
	for i, a := range f.GlobalAlerts {
		r := &recs[len(f.Alerts)+i]
		*r = s.alertRecord(a, now)
		r.Project = ""
		globals = append(globals, r)
		s.globalAlertIDs[a.ID] = r
	}
	s.globalAlerts = alert.NewSet(globals)
}

// AnyAlert is an alert of a project or a global one by its id, nil for
// none.
func (s *State) AnyAlert(id string) *alert.Rec {
	if r := s.alertByID[id]; r != nil {
		return r
	}
	return s.globalAlertIDs[id]
}

// EachAlert calls fn with every alert, of each project then global, each
// set's in the order they were made.
func (s *State) EachAlert(fn func(*alert.Rec)) {
	for _, set := range s.alerts {
		for _, r := range set.Items() {
			fn(r)
		}
	}
	for _, r := range s.globalAlerts.Items() {
		fn(r)
	}
}
