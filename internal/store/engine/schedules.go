package engine

import (
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/model"
)

// Encoded is the schedule as the state file keeps it (model.Encoder).
func (sched *schedule) Encoded() any { return sched.record() }

func (sched *schedule) record() *fixture.ScheduleRecord {
	rec := &fixture.ScheduleRecord{Identity: &sched.identity, Global: sched.global}
	for _, t := range sched.targets {
		rec.Notifications = append(rec.Notifications, t.Raw())
		rec.Notified = append(rec.Notified, t.notified)
	}
	return rec
}

// resumeSchedules gives the active alerts of recs (by alert id) their
// schedules back, each target next due at its first time after now:
// what fell due while the server was stopped is not sent.
func (e *Engine) resumeSchedules(s *model.State, recs map[string]*fixture.ScheduleRecord, now time.Time) {
	for _, id := range rules.SortedKeys(recs) {
		rec := recs[id]
		r := s.AnyAlert(id)
		if r == nil || (r.Status != api.StatusOpen && r.Status != api.StatusTracking) {
			continue
		}
		sched := &schedule{rec: r, identity: r.Cur.Identity(), global: rec.Global}
		if rec.Identity != nil {
			sched.identity = *rec.Identity
		}
		for i, m := range rec.Notifications {
			sched.targets = append(sched.targets, &notifyTarget{NotificationSpec: model.NewNotificationSpec(m),
				notified: i < len(rec.Notified) && rec.Notified[i]})
		}
		e.addSchedule(sched)
		for i, t := range sched.targets {
			if at, ok := t.dueAfter(r.Created(), now); ok {
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
