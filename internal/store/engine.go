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
func (s *State) activeKeyOf(r *AlertRec) activeKey {
	identity := r.Cur.identity
	if sched := s.engine.schedules[r]; sched != nil {
		identity = sched.identity
	}
	return activeKey{r.Cur.AlertConfigID, targetKey{r.Cur.GroupID, identity}}
}

// engineState is the engine's part of the data.
type engineState struct {
	active     *activeAlerts // built on first use
	schedules  map[*AlertRec]*schedule
	queue      dueQueue
	queued     int // a sequence, so equal times keep their order
	deliveries []*Delivery
	notes      []*Notification // recorded since the caller last took them
	// lastNotified is the time of the latest notification of each alert
	// notified since the last flushNotified.
	lastNotified map[*AlertRec]string
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
func (s *State) activeIndex() *activeAlerts {
	if s.engine.active != nil {
		return s.engine.active
	}
	s.engine.active = newActiveAlerts()
	add := func(r *AlertRec) {
		if (r.Status == statusTracking || r.Status == statusOpen) && r.Cur.AlertConfigID != "" {
			s.engine.active.add(s.activeKeyOf(r), r)
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
	return s.engine.active
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
func (s *State) Apply(c Condition, now time.Time) []*AlertRec {
	var changed []*AlertRec
	note := func(r *AlertRec) {
		if r != nil {
			changed = append(changed, r)
		}
	}
	target := targetKey{c.Project, c.Target.identity()}
	if c.Resolved {
		// A copy: ending an alert takes it out of the list.
		for _, r := range slices.Clone(s.activeIndex().byTarget[target]) {
			if r.Cur.EventTypeName == c.Event {
				note(s.clear(r, now))
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
				if s.applySample(cfg, key, c, now, note) {
					continue
				}
			} else if s.activeIndex().has(key) {
				continue // reported again: nothing changes
			}
			note(s.raise(cfg, list.global, key, c, now))
		}
	}
	return changed
}

// applySample applies a metric sample to the active alerts of a
// configuration and target (each of them, should there be several):
// their current value follows it, and they end when the threshold no
// longer holds. It reports whether that is all (no alert to raise).
func (s *State) applySample(cfg *AlertConfig, key activeKey, c Condition, now time.Time, note func(*AlertRec)) (done bool) {
	holds, ok := thresholdHolds(cfg, c)
	if !ok {
		return true
	}
	active := s.activeIndex().of(key)
	for _, r := range active {
		note(s.setCurrentValue(r, c, now))
		if !holds {
			note(s.clear(r, now))
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
func (s *State) raise(cfg *AlertConfig, global bool, key activeKey, c Condition, now time.Time) *AlertRec {
	at := rules.FormatTime(now)
	active := s.activeIndex() // built now, should it not be, so that r goes in it once
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
	rec := s.alertRecord(NewAlertDoc(d), now)
	r := &rec
	set := s.globalAlerts
	if global {
		r.Project = ""
		s.globalAlertIDs[r.Cur.ID] = r
	} else {
		if s.alerts[c.Project] == nil {
			s.alerts[c.Project] = newAlertSet(nil)
		}
		set = s.alerts[c.Project]
		s.alertByID[r.Cur.ID] = r
	}
	if set.add(r) {
		s.staleAlerts = append(s.staleAlerts, set)
	}
	if r.Status == statusTracking {
		s.configAlerts[key.config] = append(s.configAlerts[key.config], r)
		set.schedule(r, s.openTime(r, r.Project))
	}
	active.add(key, r)
	targets := make([]*notifyTarget, len(cfg.Notifications))
	for i, n := range cfg.Notifications {
		targets[i] = &notifyTarget{NotificationSpec: n}
	}
	sched := &schedule{rec: r, identity: key.target.identity, global: global, targets: targets}
	s.addSchedule(sched)
	s.putSchedule(sched)
	for i, t := range targets {
		s.enqueue(sched, i, r.created.Add(t.Delay))
	}
	s.addAlert(r)
	return r
}

func (s *State) addSchedule(sched *schedule) {
	if s.engine.schedules == nil {
		s.engine.schedules = map[*AlertRec]*schedule{}
	}
	s.engine.schedules[sched.rec] = sched
}

func (s *State) enqueue(sched *schedule, target int, at time.Time) {
	s.engine.queued++
	heap.Push(&s.engine.queue, dueEntry{at: at, seq: s.engine.queued, sched: sched, target: target})
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
func (s *State) setCurrentValue(r *AlertRec, c Condition, now time.Time) *AlertRec {
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
func (s *State) clear(r *AlertRec, now time.Time) *AlertRec {
	switch r.Status {
	case statusOpen:
		s.end(r, statusClosed, "alert.close", now)
	case statusTracking:
		s.end(r, statusCancelled, "alert.cancel", now)
	default:
		return nil
	}
	return r
}

// end moves an active alert to CLOSED or CANCELLED and tells every target
// already notified.
func (s *State) end(r *AlertRec, status, event string, now time.Time) {
	at := rules.FormatTime(now)
	s.activeIndex().remove(s.activeKeyOf(r), r)
	if status == statusClosed {
		s.setAlert(r, r.Cur.withTimes("status", status, "updated", at, "resolved", at))
	} else {
		s.setAlert(r, r.Cur.withTimes("status", status, "updated", at))
	}
	s.setStatus(r, status)
	if sched := s.engine.schedules[r]; sched != nil {
		sched.ended = true
		s.notifyNotified(sched, event, now)
		delete(s.engine.schedules, r)
		s.removeSchedule(r.Cur.ID)
	}
}

// setStatus moves an alert to status in its set's index.
func (s *State) setStatus(r *AlertRec, status string) {
	set := s.globalAlerts
	if r.Project != "" {
		set = s.alerts[r.Project]
	}
	set.setStatus(r, status)
}

// acknowledged tells the targets already notified of an OPEN alert.
func (s *State) acknowledged(r *AlertRec, now time.Time) {
	if sched := s.engine.schedules[r]; sched != nil && r.Status == statusOpen {
		s.notifyNotified(sched, "alert.acknowledge", now)
	}
}

// cancelConfig cancels every active alert of a configuration that was
// disabled.
func (s *State) cancelConfig(cfgID string, now time.Time) {
	for _, r := range s.activeIndex().ofConfig(cfgID) {
		s.end(r, statusCancelled, "alert.cancel", now)
	}
}

func (s *State) notifyNotified(sched *schedule, event string, now time.Time) {
	for _, t := range sched.targets {
		if t.notified {
			s.record(sched, t, event, now)
		}
	}
	s.flushNotified()
}

// nextDue is the time of the earliest pending notification.
func (s *State) nextDue() (time.Time, bool) {
	for s.engine.queue.Len() > 0 {
		top := s.engine.queue[0]
		if top.sched.ended {
			heap.Pop(&s.engine.queue)
			continue
		}
		return top.at, true
	}
	return time.Time{}, false
}

// RunUntil opens due TRACKING alerts and sends due notifications, in time
// order, up to and including now; an alert opens before a notification
// due at the same instant.
func (s *State) RunUntil(now time.Time) { s.RunSlice(now, time.Time{}) }

// RunSlice is RunUntil that stops once past deadline (zero: none), between
// two instants: everything due up to and including reached is done,
// nothing later. A long clock move runs in slices so that other requests
// are served between them (docs/server.md, Notification log); done says
// the slice reached until.
func (s *State) RunSlice(until, deadline time.Time) (reached time.Time, done bool) {
	taken := 0
	var last time.Time
	over := false
	for {
		openAt, opening := s.nextOpening()
		dueAt, notifying := s.nextDue()
		next, isOpening := dueAt, false
		switch {
		case opening && !openAt.After(until) && (!notifying || !dueAt.Before(openAt)):
			next, isOpening = openAt, true
		case notifying && !dueAt.After(until):
		default:
			s.flushNotified()
			return until, true
		}
		if taken%64 == 63 && !deadline.IsZero() {
			over = time.Now().After(deadline) // the clock is read now and then: it costs
		}
		if over && next.After(last) {
			s.flushNotified()
			return last, false
		}
		if isOpening {
			s.PromoteAll(openAt)
		} else {
			s.notifyDue(heap.Pop(&s.engine.queue).(dueEntry))
		}
		taken++
		last = next
	}
}

// nextOpening is when the next TRACKING alert opens.
func (s *State) nextOpening() (time.Time, bool) {
	var first time.Time
	found := false
	check := func(set *AlertSet) {
		for set != nil && set.tracking.Len() > 0 {
			top := set.tracking[0]
			if top.rec.Status != statusTracking || !top.at.Equal(top.rec.openAt) {
				heap.Pop(&set.tracking) // stale
				continue
			}
			if !found || top.at.Before(first) {
				first, found = top.at, true
			}
			return
		}
	}
	check(s.globalAlerts)
	for _, set := range s.alerts {
		check(set)
	}
	return first, found
}

// notifyDue sends one due notification, unless the alert is no longer
// OPEN or is acknowledged then, and schedules the next.
func (s *State) notifyDue(e dueEntry) {
	sched := e.sched
	if sched.ended || sched.rec.Status != statusOpen {
		return
	}
	t := sched.targets[e.target]
	if until := sched.rec.Cur.AcknowledgedUntil; !until.After(e.at) {
		event := "alert.update"
		if !t.notified {
			event = "alert.open"
		}
		s.record(sched, t, event, e.at)
	}
	if t.Interval > 0 {
		s.enqueue(sched, e.target, e.at.Add(t.Interval))
	}
}

// record logs one notification at sentAt, sets the alert's lastNotified
// and, for a webhook, prepares its delivery.
func (s *State) record(sched *schedule, t *notifyTarget, event string, sentAt time.Time) {
	if !t.notified {
		t.notified = true
		s.putSchedule(sched)
	}
	r := sched.rec
	at := rules.FormatTime(sentAt)
	// lastNotified is set once for all the notifications of a run
	// (flushNotified): a long run notifies an alert many times, and only
	// the last shows.
	if s.engine.lastNotified == nil {
		s.engine.lastNotified = map[*AlertRec]string{}
	}
	s.engine.lastNotified[r] = at
	n := &Notification{
		ID: NewObjectID(), AlertID: r.Cur.ID, AlertConfigID: r.Cur.AlertConfigID, GroupID: r.Cur.GroupID,
		Global: sched.global, Event: event, TypeName: t.TypeName, SentAt: at, Target: t.redacted(),
		Delivery: DeliveryState{Status: "RECORDED"},
	}
	if t.TypeName == "WEBHOOK" {
		n.Delivery.Status = "PENDING"
		s.engine.deliveries = append(s.engine.deliveries, &Delivery{Note: n, URL: t.WebhookURL, Secret: t.WebhookSecret, Event: event, Alert: r, cur: r.Cur, sentAt: at})
	}
	s.engine.notes = append(s.engine.notes, n)
}

// flushNotified sets lastNotified on the alerts notified since the last
// flush, each to the time of its latest notification.
func (s *State) flushNotified() {
	for r, at := range s.engine.lastNotified {
		s.setAlert(r, r.Cur.withTimes("lastNotified", at))
	}
	clear(s.engine.lastNotified)
}

// redacted is the target's notification with its secrets redacted.
func (t *notifyTarget) redacted() doc {
	if t.shown == nil {
		t.shown = rules.RedactNotification(t.raw())
	}
	return t.shown
}

// takeNotifications returns what was recorded since the last call.
func (s *State) takeNotifications() ([]*Notification, []*Delivery) {
	notes, deliveries := s.engine.notes, s.engine.deliveries
	s.engine.notes, s.engine.deliveries = nil, nil
	return notes, deliveries
}

// Pending reports whether the engine has anything left to do in time.
func (s *State) Pending() bool {
	_, due := s.nextDue()
	_, opening := s.nextOpening()
	return due || opening
}

// Scheduled reports whether raised alerts have anything left to do in
// time: what keeps the real-clock loop running after a change, or starts
// it when schedules were resumed from a state file.
func (s *State) Scheduled() bool { return len(s.engine.schedules) > 0 && s.Pending() }
