package store

import (
	"container/heap"
	"encoding/json"
	"slices"
	"time"

	"github.com/omctl/omctl/internal/rules"
)

// The alert engine (docs/server.md, "Alert engine"): conditions raise,
// update and close alerts by the configurations that apply to them, and
// raised alerts notify each target of their configuration on its
// schedule. Everything here runs under the data lock; what must go over
// the network (webhook deliveries) is returned to the caller, which sends
// it once the lock is released.

// activeKey names the one active alert a configuration may have per target.
type activeKey struct {
	config string
	target targetKey
}

// targetKey names a target within its project (Target.identity).
type targetKey struct{ project, identity string }

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
	byTarget map[targetKey][]*AlertRec
	byConfig map[string]int
}

func newActiveAlerts() *activeAlerts {
	return &activeAlerts{byTarget: map[targetKey][]*AlertRec{}, byConfig: map[string]int{}}
}

// has reports whether a configuration has an active alert for a target.
func (a *activeAlerts) has(k activeKey) bool {
	for _, r := range a.byTarget[k.target] {
		if r.Cur.AlertConfigID == k.config {
			return true
		}
	}
	return false
}

// of lists the active alerts of a configuration for a target: one, but
// for data that breaks the rule.
func (a *activeAlerts) of(k activeKey) []*AlertRec {
	var out []*AlertRec
	for _, r := range a.byTarget[k.target] {
		if r.Cur.AlertConfigID == k.config {
			out = append(out, r)
		}
	}
	return out
}

// add puts an alert that is not in the index in it.
func (a *activeAlerts) add(k activeKey, r *AlertRec) {
	a.byTarget[k.target] = append(a.byTarget[k.target], r)
	a.byConfig[k.config]++
}

// remove takes r, found under k, out of the index.
func (a *activeAlerts) remove(k activeKey, r *AlertRec) {
	list := a.byTarget[k.target]
	i := slices.Index(list, r)
	if i < 0 {
		return
	}
	list = slices.Delete(list, i, i+1)
	if a.byConfig[k.config]--; a.byConfig[k.config] == 0 {
		delete(a.byConfig, k.config)
	}
	if len(list) == 0 {
		delete(a.byTarget, k.target)
	} else {
		a.byTarget[k.target] = list
	}
}

// ofConfig lists every active alert of a configuration.
func (a *activeAlerts) ofConfig(cfgID string) []*AlertRec {
	if a.byConfig[cfgID] == 0 {
		return nil
	}
	var out []*AlertRec
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
func (e *Engine) activeKeyOf(r *AlertRec) activeKey {
	identity := r.Cur.identity
	if sched := e.schedules[r]; sched != nil {
		identity = sched.identity
	}
	return activeKey{r.Cur.AlertConfigID, targetKey{r.Cur.GroupID, identity}}
}

// Engine is the alert engine's own state beside the data: the writers'
// alone (the readers' replica has none), changed under the data lock by
// its commands (Tx) and by its reactions to what a write's operations
// changed (process).
type Engine struct {
	active     *activeAlerts // built on first use
	schedules  map[*AlertRec]*schedule
	queue      dueQueue
	queued     int // a sequence, so equal times keep their order
	deliveries []*Delivery
	notes      []*Notification // recorded since the caller last took them
	// lastNotified is the time of the latest notification of each alert
	// notified since the last flushNotified.
	lastNotified map[*AlertRec]string
	// openings are the TRACKING alerts by when they open; openAt is when
	// each opens (an entry of openings that no longer says so is stale).
	openings openingQueue
	openAt   map[*AlertRec]time.Time
	opened   int // a sequence, so equal times keep their order
	// configAlerts are the TRACKING alerts of each configuration, for
	// rescheduling them when it changes.
	configAlerts map[string][]*AlertRec
}

// newEngine starts the engine on the data: when each TRACKING alert
// opens, and the schedules of raised alerts resumed from recs (by alert
// id), each target next due at its first time after now.
func newEngine(s *State, recs map[string]*scheduleRecord, now time.Time) *Engine {
	e := &Engine{openAt: map[*AlertRec]time.Time{}, configAlerts: map[string][]*AlertRec{}}
	for p, set := range s.alerts {
		e.scheduleTracking(s, set, p)
	}
	e.scheduleTracking(s, s.globalAlerts, "")
	e.resumeSchedules(s, recs, now)
	return e
}

// prepare does before the data is served what the first requests would
// otherwise wait for, in proportion to the data: opening the TRACKING
// alerts already due, and indexing the active alerts.
func (e *Engine) prepare(s *State, now time.Time) {
	e.PromoteAll(s, now)
	e.activeIndex(s)
}

// schedule is when each target of a raised alert's configuration is due.
type schedule struct {
	rec      *AlertRec
	identity string // of the condition that raised the alert
	global   bool
	targets  []*notifyTarget
	ended    bool
}

type notifyTarget struct {
	*NotificationSpec
	notified bool
	shown    doc // the notification as the log shows it, made once: entries share it
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
	rec *AlertRec
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

// activeIndex finds the active alerts by configuration and target; alerts
// loaded from fixtures join it by the same identity rule.
func (e *Engine) activeIndex(s *State) *activeAlerts {
	if e.active != nil {
		return e.active
	}
	e.active = newActiveAlerts()
	add := func(r *AlertRec) {
		if (r.Status == statusTracking || r.Status == statusOpen) && r.Cur.AlertConfigID != "" {
			e.active.add(e.activeKeyOf(r), r)
		}
	}
	for _, set := range s.alerts {
		for _, r := range set.items {
			add(r)
		}
	}
	for _, r := range s.globalAlerts.items {
		add(r)
	}
	return e.active
}

// configsFor lists the enabled configurations of project for event,
// project ones first, then the global ones that cover it.
func (s *State) configsFor(project, event string) (project_, global []*AlertConfig) {
	for _, cfg := range s.alertConfigs[project].all() {
		if cfg.Enabled && cfg.EventTypeName == event {
			project_ = append(project_, cfg)
		}
	}
	for _, cfg := range s.globalConfigs.all() {
		if cfg.Enabled && cfg.EventTypeName == event && cfg.covers(project) {
			global = append(global, cfg)
		}
	}
	return project_, global
}

// Apply applies one condition at now and returns the alerts it changed.
func (e *Engine) Apply(s *State, c Condition, now time.Time) []*AlertRec {
	var changed []*AlertRec
	note := func(r *AlertRec) {
		if r != nil {
			changed = append(changed, r)
		}
	}
	target := targetKey{c.Project, c.Target.identity()}
	if c.Resolved {
		// A copy: ending an alert takes it out of the list.
		for _, r := range slices.Clone(e.activeIndex(s).byTarget[target]) {
			if r.Cur.EventTypeName == c.Event {
				note(e.clear(s, r, now))
			}
		}
		return changed
	}
	projectCfgs, globalCfgs := s.configsFor(c.Project, c.Event)
	for _, list := range []struct {
		cfgs   []*AlertConfig
		global bool
	}{{projectCfgs, false}, {globalCfgs, true}} {
		for _, cfg := range list.cfgs {
			if !matchersHold(cfg, c.Target) {
				continue
			}
			key := activeKey{cfg.ID, target}
			if c.sample() {
				if e.applySample(s, cfg, key, c, now, note) {
					continue
				}
			} else if e.activeIndex(s).has(key) {
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
func (e *Engine) applySample(s *State, cfg *AlertConfig, key activeKey, c Condition, now time.Time, note func(*AlertRec)) (done bool) {
	holds, ok := thresholdHolds(cfg, c)
	if !ok {
		return true
	}
	active := e.activeIndex(s).of(key)
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
func thresholdHolds(cfg *AlertConfig, c Condition) (holds, ok bool) {
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

func toFloat(v any) float64 {
	switch n := v.(type) {
	case int64:
		return float64(n)
	case float64:
		return n
	case json.Number:
		f, _ := n.Float64()
		return f
	}
	return 0
}

// raise makes a new alert for cfg and the condition's target.
func (e *Engine) raise(s *State, cfg *AlertConfig, global bool, key activeKey, c Condition, now time.Time) *AlertRec {
	at := rules.FormatTime(now)
	active := e.activeIndex(s) // built now, should it not be, so that r goes in it once
	d := doc{"id": NewObjectID(), "groupId": c.Project, "alertConfigId": key.config, "eventTypeName": c.Event,
		"created": at, "updated": at}
	for _, f := range TargetFields {
		if v := *c.Target.Field(f); v != "" && f != "typeName" && f != "shardName" {
			d[f] = v
		}
	}
	if c.sample() {
		d["metricName"] = c.Metric
		d["currentValue"] = sampleValue(cfg, c)
	}
	d["status"] = statusOpen
	if cfg.smallestDelay() > 0 {
		d["status"] = statusTracking
	}
	r := s.raiseAlert(NewAlertDoc(d), global, now)
	if r.Status == statusTracking {
		e.configAlerts[key.config] = append(e.configAlerts[key.config], r)
		e.track(s, r, r.Project)
	}
	active.add(key, r)
	targets := make([]*notifyTarget, len(cfg.Notifications))
	for i, n := range cfg.Notifications {
		targets[i] = &notifyTarget{NotificationSpec: n}
	}
	sched := &schedule{rec: r, identity: key.target.identity, global: global, targets: targets}
	e.addSchedule(sched)
	s.putSchedule(sched)
	for i, t := range targets {
		e.enqueue(sched, i, r.created.Add(t.Delay))
	}
	return r
}

func (e *Engine) addSchedule(sched *schedule) {
	if e.schedules == nil {
		e.schedules = map[*AlertRec]*schedule{}
	}
	e.schedules[sched.rec] = sched
}

func (e *Engine) enqueue(sched *schedule, target int, at time.Time) {
	e.queued++
	heap.Push(&e.queue, dueEntry{at: at, seq: e.queued, sched: sched, target: target})
}

// sampleValue is a sample's currentValue: its units, else the threshold's.
func sampleValue(cfg *AlertConfig, c Condition) doc {
	units := c.Units
	if units == "" && cfg != nil && cfg.MetricThreshold != nil {
		units = cfg.MetricThreshold.Units
	}
	if units == "" {
		units = "RAW"
	}
	return doc{"number": rules.NormalizeNumbers(c.Value), "units": units}
}

// setCurrentValue records a later sample on an active alert; the same
// number and units change nothing.
func (e *Engine) setCurrentValue(s *State, r *AlertRec, c Condition, now time.Time) *AlertRec {
	value := sampleValue(s.configOf(r.Cur.AlertConfigID, r.Project), c)
	cur := r.Cur.Doc()
	if old, ok := cur["currentValue"].(map[string]any); ok && rules.SameValue(old["number"], value["number"]) && old["units"] == value["units"] {
		return nil
	}
	s.setAlert(r, r.Cur.with(func(d doc) {
		d["currentValue"] = value
		d["updated"] = rules.FormatTime(now)
	}))
	return r
}

// configOf finds a configuration of a project, or a global one (project "").
func (s *State) configOf(id, project string) *AlertConfig {
	if project == "" {
		return s.globalConfigs.Get(id)
	}
	return s.alertConfigs[project].Get(id)
}

// clear ends an active alert whose condition has cleared: an OPEN one
// closes, a TRACKING one is cancelled (it never opened).
func (e *Engine) clear(s *State, r *AlertRec, now time.Time) *AlertRec {
	switch r.Status {
	case statusOpen:
		e.end(s, r, statusClosed, "alert.close", now)
	case statusTracking:
		e.end(s, r, statusCancelled, "alert.cancel", now)
	default:
		return nil
	}
	return r
}

// end moves an active alert to CLOSED or CANCELLED and tells every target
// already notified.
func (e *Engine) end(s *State, r *AlertRec, status, event string, now time.Time) {
	at := rules.FormatTime(now)
	e.activeIndex(s).remove(e.activeKeyOf(r), r)
	if status == statusClosed {
		s.setAlert(r, r.Cur.withTimes("status", status, "updated", at, "resolved", at))
	} else {
		s.setAlert(r, r.Cur.withTimes("status", status, "updated", at))
	}
	if sched := e.schedules[r]; sched != nil {
		sched.ended = true
		e.notifyNotified(s, sched, event, now)
		delete(e.schedules, r)
		s.removeSchedule(r.Cur.ID)
	}
}

// acknowledged tells the targets already notified of an OPEN alert.
func (e *Engine) acknowledged(s *State, r *AlertRec, now time.Time) {
	if sched := e.schedules[r]; sched != nil && r.Status == statusOpen {
		e.notifyNotified(s, sched, "alert.acknowledge", now)
	}
}

// cancelConfig cancels every active alert of a configuration that was
// disabled.
func (e *Engine) cancelConfig(s *State, cfgID string, now time.Time) {
	for _, r := range e.activeIndex(s).ofConfig(cfgID) {
		e.end(s, r, statusCancelled, "alert.cancel", now)
	}
}

func (e *Engine) notifyNotified(s *State, sched *schedule, event string, now time.Time) {
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
func (e *Engine) RunUntil(s *State, now time.Time) { e.RunSlice(s, now, time.Time{}) }

// RunSlice is RunUntil that stops once past deadline (zero: none), between
// two instants: everything due up to and including reached is done,
// nothing later. A long clock move runs in slices so that other requests
// are served between them (docs/server.md, Notification log); done says
// the slice reached until.
func (e *Engine) RunSlice(s *State, until, deadline time.Time) (reached time.Time, done bool) {
	taken := 0
	var last time.Time
	over := false
	for {
		openAt, opening := e.nextOpening()
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

// nextOpening is when the next TRACKING alert opens.
func (e *Engine) nextOpening() (time.Time, bool) {
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
func (e *Engine) notifyDue(s *State, d dueEntry) {
	sched := d.sched
	if sched.ended || sched.rec.Status != statusOpen {
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
func (e *Engine) record(s *State, sched *schedule, t *notifyTarget, event string, sentAt time.Time) {
	if !t.notified {
		t.notified = true
		s.putSchedule(sched)
	}
	r := sched.rec
	at := rules.FormatTime(sentAt)
	// lastNotified is set once for all the notifications of a run
	// (flushNotified): a long run notifies an alert many times, and only
	// the last shows.
	if e.lastNotified == nil {
		e.lastNotified = map[*AlertRec]string{}
	}
	e.lastNotified[r] = at
	n := &Notification{
		ID: NewObjectID(), AlertID: r.Cur.ID, AlertConfigID: r.Cur.AlertConfigID, GroupID: r.Cur.GroupID,
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
func (e *Engine) flushNotified(s *State) {
	for r, at := range e.lastNotified {
		s.setAlert(r, r.Cur.withTimes("lastNotified", at))
	}
	clear(e.lastNotified)
}

// redacted is the target's notification with its secrets redacted.
func (t *notifyTarget) redacted() doc {
	if t.shown == nil {
		t.shown = rules.RedactNotification(t.raw())
	}
	return t.shown
}

// takeNotifications returns what was recorded since the last call.
func (e *Engine) takeNotifications() ([]*Notification, []*Delivery) {
	notes, deliveries := e.notes, e.deliveries
	e.notes, e.deliveries = nil, nil
	return notes, deliveries
}

// Pending reports whether the engine has anything left to do in time.
func (e *Engine) Pending() bool {
	_, due := e.nextDue()
	_, opening := e.nextOpening()
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
	return !ok || o.rec.Status != statusTracking || !at.Equal(o.at)
}

// track (re)computes when a TRACKING alert opens: its creation plus the
// smallest delayMin of its configuration's notifications (docs/api.md,
// Alert); never, when the configuration is gone.
func (e *Engine) track(s *State, r *AlertRec, project string) {
	cfg := s.configOf(r.Cur.AlertConfigID, project)
	if cfg == nil || r.Status != statusTracking {
		delete(e.openAt, r)
		return
	}
	at := r.created.Add(cfg.smallestDelay())
	e.openAt[r] = at
	e.opened++
	heap.Push(&e.openings, opening{at: at, seq: e.opened, rec: r})
}

// scheduleTracking computes, for every TRACKING alert of set, when it opens.
func (e *Engine) scheduleTracking(s *State, set *AlertSet, project string) {
	if set == nil {
		return
	}
	for _, r := range set.items {
		if r.Status != statusTracking {
			continue
		}
		cfgID := r.Cur.AlertConfigID
		e.configAlerts[cfgID] = append(e.configAlerts[cfgID], r)
		e.track(s, r, project)
	}
}

// anyDue reports whether a TRACKING alert may be due to open by now.
func (e *Engine) anyDue(now time.Time) bool {
	return e.openings.Len() > 0 && !e.openings[0].at.After(now)
}

// PromoteAll opens every TRACKING alert whose delay has passed.
func (e *Engine) PromoteAll(s *State, now time.Time) {
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
		s.setAlert(top.rec, top.rec.Cur.withTimes("status", statusOpen, "updated", rules.FormatTime(top.at)))
	}
}

// rescheduleConfig recomputes open times after a configuration changed.
func (e *Engine) rescheduleConfig(s *State, cfgID, project string) {
	for _, r := range e.configAlerts[cfgID] {
		if r.Status == statusTracking && r.Project == project {
			e.track(s, r, project)
		}
	}
}

// process is the engine's reaction to what a write's operations changed
// (changes, in the order they were made; the engine's own changes are
// not fed back): an alert acknowledged while OPEN tells the targets
// already notified; a configuration changed moves when its TRACKING
// alerts open, and one disabled or removed cancels its active alerts.
// Each operation only changes its records; what that means for alerts in
// time is decided here, once the write has run (Store.runLocked).
func (e *Engine) process(s *State, changes []Change, now time.Time) {
	for _, c := range changes {
		if c.By != ByOperation {
			continue
		}
		switch c.Kind {
		case "alertConfigs", "globalAlertConfigs":
			e.configChanged(s, c, now)
		case "alerts", "globalAlerts":
			// Only AcknowledgeAlert sets an acknowledgement: every other
			// change of an alert is the engine's own.
			if d, _ := c.Rec.(*AlertDoc); d != nil && !d.AcknowledgedUntil.IsZero() {
				e.acknowledged(s, s.alertOf(c.Kind, c.Key), now)
			}
		}
	}
}

// configChanged is process for a configuration put or removed.
func (e *Engine) configChanged(s *State, c Change, now time.Time) {
	cfg, _ := c.Rec.(*AlertConfig)
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

// records are the engine's records for the state file: the schedules.
func (e *Engine) records() []Change {
	recs := make([]Change, 0, len(e.schedules))
	for r, sched := range e.schedules {
		recs = append(recs, Change{Kind: schedulesKind, Key: r.Cur.ID, Rec: sched})
	}
	return recs
}
