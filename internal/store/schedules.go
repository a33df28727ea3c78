package store

import (
	"time"

	"github.com/omctl/omctl/internal/rules"
)

// The notification schedules of the alerts the engine raised are kept in
// the state file too, so that after a restart those alerts go on being
// notified (docs/server.md, "State"): each as its configuration's
// notifications were when the alert was raised, and which of them were
// notified already.

// schedulesKind is the state file's bucket of schedules, by alert id.
const schedulesKind = "schedules"

// scheduleRecord is a schedule as the state file keeps it.
type scheduleRecord struct {
	Identity      *string `json:"identity"` // of the condition that raised the alert
	Global        bool    `json:"global"`
	Notifications []doc   `json:"notifications"`
	Notified      []bool  `json:"notified"`
}

func (sched *schedule) record() *scheduleRecord {
	rec := &scheduleRecord{Identity: &sched.identity, Global: sched.global}
	for _, t := range sched.targets {
		rec.Notifications = append(rec.Notifications, t.raw())
		rec.Notified = append(rec.Notified, t.notified)
	}
	return rec
}

// resumeSchedules gives the active alerts of recs (by alert id) their
// schedules back, each target next due at its first time after now:
// what fell due while the server was stopped is not sent.
func (e *Engine) resumeSchedules(s *State, recs map[string]*scheduleRecord, now time.Time) {
	for _, id := range rules.SortedKeys(recs) {
		rec := recs[id]
		r := s.alertByID[id]
		if r == nil {
			r = s.globalAlertIDs[id]
		}
		if r == nil || (r.Status != statusOpen && r.Status != statusTracking) {
			continue
		}
		sched := &schedule{rec: r, identity: r.Cur.identity, global: rec.Global}
		if rec.Identity != nil {
			sched.identity = *rec.Identity
		}
		for i, m := range rec.Notifications {
			sched.targets = append(sched.targets, &notifyTarget{NotificationSpec: newNotificationSpec(m),
				notified: i < len(rec.Notified) && rec.Notified[i]})
		}
		e.addSchedule(sched)
		for i, t := range sched.targets {
			if at, ok := t.dueAfter(r.created, now); ok {
				e.enqueue(sched, i, at)
			}
		}
	}
}

// dueAfter is the first time after now a target of an alert created at
// created is due: created + delay + k × interval.
func (t *notifyTarget) dueAfter(created, now time.Time) (time.Time, bool) {
	at := created.Add(t.Delay)
	if at.After(now) {
		return at, true
	}
	if t.Interval <= 0 {
		return time.Time{}, false
	}
	return at.Add((now.Sub(at)/t.Interval + 1) * t.Interval), true
}
