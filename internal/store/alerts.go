package store

import (
	"time"

	"github.com/omctl/omctl/internal/rules"
)

// Alert is an alert of a project by its id, nil for none.
func (s *State) Alert(id string) *AlertRec { return s.alertByID[id] }

// ProjectAlerts are a project's alerts, nil when it has none.
func (s *State) ProjectAlerts(project string) *AlertSet { return s.alerts[project] }

// GlobalAlertSet are the global alerts.
func (s *State) GlobalAlertSet() *AlertSet { return s.globalAlerts }

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

// validateAlerts checks the alerts of projects and the global ones (whose
// schema parseAlert checked as they were read): unique ids, and projects
// of the fixtures.
func validateAlerts(f *Fixtures, c *fixtureCheck) error {
	for _, set := range []struct {
		key     string
		items   []*AlertDoc
		project bool
	}{{"alerts", f.Alerts, true}, {"globalAlerts", f.GlobalAlerts, false}} {
		l := newAlertList(set.project, len(set.items))
		for i, a := range set.items {
			if rule := l.check(a.ID, a.GroupID, c.projects); rule != "" {
				return failFixture(set.key, i, "%s", rule)
			}
		}
	}
	return nil
}

// loadAlerts indexes the alerts of the fixtures, and schedules the
// opening of the TRACKING ones (after their configurations are loaded).
func (s *State) loadAlerts(f *Fixtures, now time.Time) {
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
}
