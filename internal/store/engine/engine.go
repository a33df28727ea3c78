// Package engine is the alert engine of omctl server (docs/server.md,
// "Alert engine"): conditions reported and time moving raise, update and
// close alerts by the configurations that apply to them, and raised
// alerts notify each target of their configuration on its schedule. It
// works on the data of package model and keeps its own state beside it
// (Engine); it is never called by the data's operations: once a write
// has run, it reacts to what the write's operations changed (Process).
// The Store (package store) runs each write through Run, under its lock.
package engine

import (
	"container/heap"
	"slices"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/model"
)

// The alert engine (docs/server.md, "Alert engine"): conditions raise,
// update and close alerts by the configurations that apply to them, and
// raised alerts notify each target of their configuration on its
// schedule. Everything here runs under the data lock; what must go over
// the network (webhook deliveries) is returned to the caller, which sends
// it once the lock is released.

// activeAlerts are the active alerts by target, each target's few in a
// list: a condition that clears finds its target's alerts without going
// through every active alert, for little more memory than one map entry
// an alert. A list holds every active alert of its target, several of one
// configuration included: the engine keeps to one, but a state file an
// older version wrote may hold more, and disabling, clearing and samples
// act on all of them (docs/server.md, Alert engine). How many each
// configuration has lets one without any be disabled without a look
// through them.
type activeAlerts struct {
	byTarget map[alert.TargetKey][]*alert.Rec
	byConfig map[string]int
}

func newActiveAlerts() *activeAlerts {
	return &activeAlerts{byTarget: map[alert.TargetKey][]*alert.Rec{}, byConfig: map[string]int{}}
}

// has reports whether a configuration has an active alert for a target.
func (a *activeAlerts) has(k alert.Pair) bool {
	for _, r := range a.byTarget[k.Target] {
		if r.Cur.AlertConfigID == k.Config {
			return true
		}
	}
	return false
}

// of lists the active alerts of a configuration for a target: one, but
// for data that breaks the rule.
func (a *activeAlerts) of(k alert.Pair) []*alert.Rec {
	var out []*alert.Rec
	for _, r := range a.byTarget[k.Target] {
		if r.Cur.AlertConfigID == k.Config {
			out = append(out, r)
		}
	}
	return out
}

// add puts an alert that is not in the index in it.
func (a *activeAlerts) add(k alert.Pair, r *alert.Rec) {
	a.byTarget[k.Target] = append(a.byTarget[k.Target], r)
	a.byConfig[k.Config]++
}

// remove takes r, found under k, out of the index.
func (a *activeAlerts) remove(k alert.Pair, r *alert.Rec) {
	list := a.byTarget[k.Target]
	i := slices.Index(list, r)
	if i < 0 {
		return
	}
	list = slices.Delete(list, i, i+1)
	if a.byConfig[k.Config]--; a.byConfig[k.Config] == 0 {
		delete(a.byConfig, k.Config)
	}
	if len(list) == 0 {
		delete(a.byTarget, k.Target)
	} else {
		a.byTarget[k.Target] = list
	}
}

// ofConfig lists every active alert of a configuration.
func (a *activeAlerts) ofConfig(cfgID string) []*alert.Rec {
	if a.byConfig[cfgID] == 0 {
		return nil
	}
	var out []*alert.Rec
	for _, list := range a.byTarget {
		for _, r := range list {
			if r.Cur.AlertConfigID == cfgID {
				out = append(out, r)
			}
		}
	}
	return out
}

// activeKeyOf is the key of an active alert. One the engine raised is
// known by the identity of the condition that raised it: the alert may
// not show the fields that told it (a BACKUP_AGENT_DOWN alert does not
// show its host). One from fixtures is known by its own fields.
func (e *Engine) activeKeyOf(r *alert.Rec) alert.Pair {
	identity := r.Cur.Identity()
	if sched := e.schedules[r]; sched != nil {
		identity = sched.identity
	}
	return alert.Pair{Config: r.Cur.AlertConfigID, Target: alert.TargetKey{Project: r.Cur.GroupID, Identity: identity}}
}

// Engine is the alert engine's own state beside the data: the writers'
// alone (the readers' replica has none), changed under the data lock by
// its commands (Tx) and by its reactions to what a write's operations
// changed (process).
type Engine struct {
	active     *activeAlerts // built on first use
	schedules  map[*alert.Rec]*schedule
	queue      dueQueue
	queued     int // a sequence, so equal times keep their order
	deliveries []*Delivery
	notes      []*Notification // recorded since the caller last took them
	// lastNotified is the time of the latest notification of each alert
	// notified since the last flushNotified.
	lastNotified map[*alert.Rec]string
	// openings are the TRACKING alerts by when they open; openAt is when
	// each opens (an entry of openings that no longer says so is stale).
	openings openingQueue
	openAt   map[*alert.Rec]time.Time
	opened   int // a sequence, so equal times keep their order
	// configAlerts are the TRACKING alerts of each configuration, for
	// rescheduling them when it changes.
	configAlerts map[string][]*alert.Rec
	tx           Tx // the write Run runs
}

// New starts the engine on the data: when each TRACKING alert
// opens, and the schedules of raised alerts resumed from recs (by alert
// id), each target next due at its first time after now.
func New(s *model.State, recs map[string]*fixture.ScheduleRecord, now time.Time) *Engine {
	e := &Engine{openAt: map[*alert.Rec]time.Time{}, configAlerts: map[string][]*alert.Rec{}}
	s.EachAlert(func(r *alert.Rec) {
		if r.Status == api.StatusTracking {
			cfgID := r.Cur.AlertConfigID
			e.configAlerts[cfgID] = append(e.configAlerts[cfgID], r)
			e.track(s, r, r.Project)
		}
	})
	e.resumeSchedules(s, recs, now)
	return e
}

// Prepare does before the data is served what the first requests would
// otherwise wait for, in proportion to the data: opening the TRACKING
// alerts already due, and indexing the active alerts.
func (e *Engine) Prepare(s *model.State, now time.Time) {
	e.PromoteAll(s, now)
	e.Index(s)
}

// schedule is when each target of a raised alert's configuration is due.
type schedule struct {
	rec      *alert.Rec
	identity string // of the condition that raised the alert
	global   bool
	targets  []*notifyTarget
	ended    bool
}

type notifyTarget struct {
	*model.NotificationSpec
	notified bool
	shown    rules.Doc // the notification as the log shows it, made once: entries share it
}

type dueEntry struct {
	at     time.Time
	seq    int
	sched  *schedule
	target int
}

type dueQueue []dueEntry

// opening is a TRACKING alert due to open at a time.
type opening struct {
	at  time.Time
	seq int
	rec *alert.Rec
}

type openingQueue []opening

func (q openingQueue) Len() int { return len(q) }
func (q openingQueue) Less(i, j int) bool {
	if q[i].at.Equal(q[j].at) {
		return q[i].seq < q[j].seq
	}
	return q[i].at.Before(q[j].at)
}
func (q openingQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *openingQueue) Push(x any)   { *q = append(*q, x.(opening)) }
func (q *openingQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

func (q dueQueue) Len() int { return len(q) }
func (q dueQueue) Less(i, j int) bool {
	if q[i].at.Equal(q[j].at) {
		return q[i].seq < q[j].seq
	}
	return q[i].at.Before(q[j].at)
}
func (q dueQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *dueQueue) Push(x any)   { *q = append(*q, x.(dueEntry)) }
func (q *dueQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// Index finds the active alerts by configuration and target; alerts
// loaded from fixtures join it by the same identity rule.
func (e *Engine) Index(s *model.State) *activeAlerts {
	if e.active != nil {
		return e.active
	}
	e.active = newActiveAlerts()
	add := func(r *alert.Rec) {
		if (r.Status == api.StatusTracking || r.Status == api.StatusOpen) && r.Cur.AlertConfigID != "" {
			e.active.add(e.activeKeyOf(r), r)
		}
	}
	s.EachAlert(add)
	return e.active
}

// Apply applies one condition at now and returns the alerts it changed.
func (e *Engine) Apply(s *model.State, c Condition, now time.Time) []*alert.Rec {
	var changed []*alert.Rec
	note := func(r *alert.Rec) {
		if r != nil {
			changed = append(changed, r)
		}
	}
	target := alert.TargetKey{Project: c.Project, Identity: c.Target.Identity()}
	if c.Resolved {
		// A copy: ending an alert takes it out of the list.
		for _, r := range slices.Clone(e.Index(s).byTarget[target]) {
			if r.Cur.EventTypeName == c.Event {
				note(e.clear(s, r, now))
			}
		}
		return changed
	}
	projectCfgs, globalCfgs := s.ConfigsFor(c.Project, c.Event)
	for _, list := range []struct {
		cfgs   []*model.AlertConfig
		global bool
	}{{projectCfgs, false}, {globalCfgs, true}} {
		for _, cfg := range list.cfgs {
			if !cfg.MatchersHold(c.Target) {
				continue
			}
			key := alert.Pair{Config: cfg.ID, Target: target}
			if c.sample() {
				if e.applySample(s, cfg, key, c, now, note) {
					continue
				}
			} else if e.Index(s).has(key) {
				continue // reported again: nothing changes
			}
			note(e.raise(s, cfg, list.global, key, c, now))
		}
	}
	return changed
}

// applySample applies a metric sample to the active alerts of a
// configuration and target (each of them, should there be several):
// their current value follows it, and they end when the threshold no
// longer holds. It reports whether that is all (no alert to raise).
func (e *Engine) applySample(s *model.State, cfg *model.AlertConfig, key alert.Pair, c Condition, now time.Time, note func(*alert.Rec)) (done bool) {
	holds, ok := thresholdHolds(cfg, c)
	if !ok {
		return true
	}
	active := e.Index(s).of(key)
	for _, r := range active {
		note(e.setCurrentValue(s, r, c, now))
		if !holds {
			note(e.clear(s, r, now))
		}
	}
	return !holds || len(active) > 0
}

// thresholdHolds compares a sample with a configuration's metric
// threshold; ok is false when the configuration watches another metric.
func thresholdHolds(cfg *model.AlertConfig, c Condition) (holds, ok bool) {
	mt := cfg.MetricThreshold
	if mt == nil || mt.MetricName != c.Metric {
		return false, false
	}
	value, err := c.Value.Float64()
	if err != nil {
		return false, false
	}
	switch mt.Operator {
	case "GREATER_THAN":
		return value > mt.Threshold, true
	case "LESS_THAN":
		return value < mt.Threshold, true
	}
	return false, false
}

// raise makes a new alert for cfg and the condition's target.
func (e *Engine) raise(s *model.State, cfg *model.AlertConfig, global bool, key alert.Pair, c Condition, now time.Time) *alert.Rec {
	at := rules.FormatTime(now)
	active := e.Index(s) // built now, should it not be, so that r goes in it once
	d := rules.Doc{"id": api.NewObjectID(), "groupId": c.Project, "alertConfigId": key.Config, "eventTypeName": c.Event,
		"created": at, "updated": at}
	for _, f := range alert.TargetFields {
		if v := *c.Target.Field(f); v != "" && f != "typeName" && f != "shardName" {
			d[f] = v
		}
	}
	if c.sample() {
		d["metricName"] = c.Metric
		d["currentValue"] = sampleValue(cfg, c)
	}
	d["status"] = api.StatusOpen
	if cfg.SmallestDelay() > 0 {
		d["status"] = api.StatusTracking
	}
	r := s.RaiseAlert(alert.NewDoc(d), global, now)
	if r.Status == api.StatusTracking {
		e.configAlerts[key.Config] = append(e.configAlerts[key.Config], r)
		e.track(s, r, r.Project)
	}
	active.add(key, r)
	targets := make([]*notifyTarget, len(cfg.Notifications))
	for i, n := range cfg.Notifications {
		targets[i] = &notifyTarget{NotificationSpec: n}
	}
	sched := &schedule{rec: r, identity: key.Target.Identity, global: global, targets: targets}
	e.addSchedule(sched)
	s.PutSchedule(sched.rec.Cur.ID, sched)
	for i, t := range targets {
		e.enqueue(sched, i, r.Created().Add(t.Delay))
	}
	return r
}

func (e *Engine) addSchedule(sched *schedule) {
	if e.schedules == nil {
		e.schedules = map[*alert.Rec]*schedule{}
	}
	e.schedules[sched.rec] = sched
}

func (e *Engine) enqueue(sched *schedule, target int, at time.Time) {
	e.queued++
	heap.Push(&e.queue, dueEntry{at: at, seq: e.queued, sched: sched, target: target})
}

// sampleValue is a sample's currentValue: its units, else the threshold's.
func sampleValue(cfg *model.AlertConfig, c Condition) rules.Doc {
	units := c.Units
	if units == "" && cfg != nil && cfg.MetricThreshold != nil {
		units = cfg.MetricThreshold.Units
	}
	if units == "" {
		units = "RAW"
	}
	return rules.Doc{"number": rules.NormalizeNumbers(c.Value), "units": units}
}

// setCurrentValue records a later sample on an active alert; the same
// number and units change nothing.
func (e *Engine) setCurrentValue(s *model.State, r *alert.Rec, c Condition, now time.Time) *alert.Rec {
	value := sampleValue(s.ConfigOf(r.Cur.AlertConfigID, r.Project), c)
	cur := r.Cur.Doc()
	if old, ok := cur["currentValue"].(map[string]any); ok && rules.SameValue(old["number"], value["number"]) && old["units"] == value["units"] {
		return nil
	}
	s.SetAlert(r, r.Cur.With(func(d rules.Doc) {
		d["currentValue"] = value
		d["updated"] = rules.FormatTime(now)
	}))
	return r
}

// clear ends an active alert whose condition has cleared: an OPEN one
// closes, a TRACKING one is cancelled (it never opened).
func (e *Engine) clear(s *model.State, r *alert.Rec, now time.Time) *alert.Rec {
	switch r.Status {
	case api.StatusOpen:
		e.end(s, r, api.StatusClosed, "alert.close", now)
	case api.StatusTracking:
		e.end(s, r, api.StatusCancelled, "alert.cancel", now)
	default:
		return nil
	}
	return r
}

// end moves an active alert to CLOSED or CANCELLED and tells every target
// already notified.
func (e *Engine) end(s *model.State, r *alert.Rec, status, event string, now time.Time) {
	at := rules.FormatTime(now)
	e.Index(s).remove(e.activeKeyOf(r), r)
	if status == api.StatusClosed {
		s.SetAlert(r, r.Cur.WithTimes("status", status, "updated", at, "resolved", at))
	} else {
		s.SetAlert(r, r.Cur.WithTimes("status", status, "updated", at))
	}
	if sched := e.schedules[r]; sched != nil {
		sched.ended = true
		e.notifyNotified(s, sched, event, now)
		delete(e.schedules, r)
		s.RemoveSchedule(r.Cur.ID)
	}
}

// acknowledged tells the targets already notified of an OPEN alert.
func (e *Engine) acknowledged(s *model.State, r *alert.Rec, now time.Time) {
	if sched := e.schedules[r]; sched != nil && r.Status == api.StatusOpen {
		e.notifyNotified(s, sched, "alert.acknowledge", now)
	}
}

// cancelConfig cancels every active alert of a configuration that was
// disabled.
func (e *Engine) cancelConfig(s *model.State, cfgID string, now time.Time) {
	for _, r := range e.Index(s).ofConfig(cfgID) {
		e.end(s, r, api.StatusCancelled, "alert.cancel", now)
	}
}

func (e *Engine) notifyNotified(s *model.State, sched *schedule, event string, now time.Time) {
	for _, t := range sched.targets {
		if t.notified {
			e.record(s, sched, t, event, now)
		}
	}
	e.flushNotified(s)
}

// nextDue is the time of the earliest pending notification.
func (e *Engine) nextDue() (time.Time, bool) {
	for e.queue.Len() > 0 {
		top := e.queue[0]
		if top.sched.ended {
			heap.Pop(&e.queue)
			continue
		}
		return top.at, true
	}
	return time.Time{}, false
}

// RunUntil opens due TRACKING alerts and sends due notifications, in time
// order, up to and including now; an alert opens before a notification
// due at the same instant.
func (e *Engine) RunUntil(s *model.State, now time.Time) { e.RunSlice(s, now, time.Time{}) }

// RunSlice is RunUntil that stops once past deadline (zero: none), between
// two instants: everything due up to and including reached is done,
// nothing later. A long clock move runs in slices so that other requests
// are served between them (docs/server.md, Notification log); done says
// the slice reached until.
func (e *Engine) RunSlice(s *model.State, until, deadline time.Time) (reached time.Time, done bool) {
	taken := 0
	var last time.Time
	over := false
	for {
		openAt, opening := e.NextOpening()
		dueAt, notifying := e.nextDue()
		next, isOpening := dueAt, false
		switch {
		case opening && !openAt.After(until) && (!notifying || !dueAt.Before(openAt)):
			next, isOpening = openAt, true
		case notifying && !dueAt.After(until):
		default:
			e.flushNotified(s)
			return until, true
		}
		if taken%64 == 63 && !deadline.IsZero() {
			over = time.Now().After(deadline) // the clock is read now and then: it costs
		}
		if over && next.After(last) {
			e.flushNotified(s)
			return last, false
		}
		if isOpening {
			e.PromoteAll(s, openAt)
		} else {
			e.notifyDue(s, heap.Pop(&e.queue).(dueEntry))
		}
		taken++
		last = next
	}
}

// NextOpening is when the next TRACKING alert opens.
func (e *Engine) NextOpening() (time.Time, bool) {
	for e.openings.Len() > 0 {
		if top := e.openings[0]; !e.stale(top) {
			return top.at, true
		}
		heap.Pop(&e.openings)
	}
	return time.Time{}, false
}

// notifyDue sends one due notification, unless the alert is no longer
// OPEN or is acknowledged then, and schedules the next.
func (e *Engine) notifyDue(s *model.State, d dueEntry) {
	sched := d.sched
	if sched.ended || sched.rec.Status != api.StatusOpen {
		return
	}
	t := sched.targets[d.target]
	if until := sched.rec.Cur.AcknowledgedUntil; !until.After(d.at) {
		event := "alert.update"
		if !t.notified {
			event = "alert.open"
		}
		e.record(s, sched, t, event, d.at)
	}
	if t.Interval > 0 {
		e.enqueue(sched, d.target, d.at.Add(t.Interval))
	}
}

// record logs one notification at sentAt, sets the alert's lastNotified
// and, for a webhook, prepares its delivery.
func (e *Engine) record(s *model.State, sched *schedule, t *notifyTarget, event string, sentAt time.Time) {
	if !t.notified {
		t.notified = true
		s.PutSchedule(sched.rec.Cur.ID, sched)
	}
	r := sched.rec
	at := rules.FormatTime(sentAt)
	// lastNotified is set once for all the notifications of a run
	// (flushNotified): a long run notifies an alert many times, and only
	// the last shows.
	if e.lastNotified == nil {
		e.lastNotified = map[*alert.Rec]string{}
	}
	e.lastNotified[r] = at
	n := &Notification{
		ID: api.NewObjectID(), AlertID: r.Cur.ID, AlertConfigID: r.Cur.AlertConfigID, GroupID: r.Cur.GroupID,
		Global: sched.global, Event: event, TypeName: t.TypeName, SentAt: at, Target: t.redacted(),
		Delivery: DeliveryState{Status: "RECORDED"},
	}
	if t.TypeName == "WEBHOOK" {
		n.Delivery.Status = "PENDING"
		e.deliveries = append(e.deliveries, &Delivery{Note: n, URL: t.WebhookURL, Secret: t.WebhookSecret, Event: event, Alert: r, cur: r.Cur, sentAt: at})
	}
	e.notes = append(e.notes, n)
}

// flushNotified sets lastNotified on the alerts notified since the last
// flush, each to the time of its latest notification.
func (e *Engine) flushNotified(s *model.State) {
	for r, at := range e.lastNotified {
		s.SetAlert(r, r.Cur.WithTimes("lastNotified", at))
	}
	clear(e.lastNotified)
}

// redacted is the target's notification with its secrets redacted: its
// configuration's, made when the configuration was stored, or for a
// schedule read back from a state file, made once here.
func (t *notifyTarget) redacted() rules.Doc {
	if t.Shown != nil {
		return t.Shown
	}
	if t.shown == nil {
		t.shown = rules.RedactNotification(t.Raw())
	}
	return t.shown
}

// Take returns what was recorded since the last call.
func (e *Engine) Take() ([]*Notification, []*Delivery) {
	notes, deliveries := e.notes, e.deliveries
	e.notes, e.deliveries = nil, nil
	return notes, deliveries
}

// Pending reports whether the engine has anything left to do in time.
func (e *Engine) Pending() bool {
	_, due := e.nextDue()
	_, opening := e.NextOpening()
	return due || opening
}

// Scheduled reports whether raised alerts have anything left to do in
// time: what keeps the real-clock loop running after a change, or starts
// it when schedules were resumed from a state file.
func (e *Engine) Scheduled() bool { return len(e.schedules) > 0 && e.Pending() }

// stale reports whether an opening no longer says when its alert opens:
// the alert opened or ended, or was rescheduled (entries are not removed
// then).
func (e *Engine) stale(o opening) bool {
	at, ok := e.openAt[o.rec]
	return !ok || o.rec.Status != api.StatusTracking || !at.Equal(o.at)
}

// track (re)computes when a TRACKING alert opens: its creation plus the
// smallest delayMin of its configuration's notifications (docs/api.md,
// Alert); never, when the configuration is gone.
func (e *Engine) track(s *model.State, r *alert.Rec, project string) {
	cfg := s.ConfigOf(r.Cur.AlertConfigID, project)
	if cfg == nil || r.Status != api.StatusTracking {
		delete(e.openAt, r)
		return
	}
	at := r.Created().Add(cfg.SmallestDelay())
	e.openAt[r] = at
	e.opened++
	heap.Push(&e.openings, opening{at: at, seq: e.opened, rec: r})
}

// AnyDue reports whether a TRACKING alert may be due to open by now.
func (e *Engine) AnyDue(now time.Time) bool {
	return e.openings.Len() > 0 && !e.openings[0].at.After(now)
}

// PromoteAll opens every TRACKING alert whose delay has passed.
func (e *Engine) PromoteAll(s *model.State, now time.Time) {
	for e.openings.Len() > 0 {
		top := e.openings[0]
		if top.at.After(now) {
			return
		}
		heap.Pop(&e.openings)
		if e.stale(top) {
			continue
		}
		delete(e.openAt, top.rec)
		s.SetAlert(top.rec, top.rec.Cur.WithTimes("status", api.StatusOpen, "updated", rules.FormatTime(top.at)))
	}
}

// rescheduleConfig recomputes open times after a configuration changed.
func (e *Engine) rescheduleConfig(s *model.State, cfgID, project string) {
	for _, r := range e.configAlerts[cfgID] {
		if r.Status == api.StatusTracking && r.Project == project {
			e.track(s, r, project)
		}
	}
}

// Process is the engine's reaction to what a write's operations changed
// (changes, in the order they were made; the engine's own changes are
// not fed back): an alert acknowledged while OPEN tells the targets
// already notified; a configuration changed moves when its TRACKING
// alerts open, and one disabled or removed cancels its active alerts.
// Each operation only changes its records; what that means for alerts in
// time is decided here, once the write has run (Store.runLocked).
func (e *Engine) Process(s *model.State, changes []model.Change, now time.Time) {
	for _, c := range changes {
		if c.By != model.ByOperation {
			continue
		}
		switch c.Kind {
		case "alertConfigs", "globalAlertConfigs":
			e.configChanged(s, c, now)
		case "alerts", "globalAlerts":
			// Only an acknowledgement (State.Acknowledge) sets one: every other
			// change of an alert is the engine's own.
			if d, _ := c.Rec.(*alert.Doc); d != nil && !d.AcknowledgedUntil.IsZero() {
				e.acknowledged(s, s.AlertOf(c.Kind, c.Key), now)
			}
		}
	}
}

// configChanged is process for a configuration put or removed.
func (e *Engine) configChanged(s *model.State, c model.Change, now time.Time) {
	cfg, _ := c.Rec.(*model.AlertConfig)
	if cfg == nil {
		e.cancelConfig(s, c.Key, now)
		delete(e.configAlerts, c.Key)
		return
	}
	project := cfg.GroupID
	if c.Kind == "globalAlertConfigs" {
		project = ""
	}
	e.rescheduleConfig(s, cfg.ID, project)
	if !cfg.Enabled {
		e.cancelConfig(s, cfg.ID, now)
	}
}

// Records are the engine's Records for the state file: the schedules.
func (e *Engine) Records() []model.Change {
	recs := make([]model.Change, 0, len(e.schedules))
	for r, sched := range e.schedules {
		recs = append(recs, model.Change{Kind: fixture.SchedulesKind, Key: r.Cur.ID, Rec: sched})
	}
	return recs
}

// Tx is one write as the Store's callers see it (Store.Update): the data,
// with its lookups and named operations, and the alert engine's commands
// (conditions reported, time moving, a reset), which change the data by
// the engine's rules. What the operations change, the engine reacts to
// once the write has run (Run).
type Tx struct {
	*model.State
	eng *Engine
}
