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
