package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
)

// A reference spec of the alert engine as docs/server.md ("Alert
// engine") tells it, written from that text and not from engine.go: a
// list of configurations, a list of alerts and a notification log, each
// rule a few plain lines over them, with no index. It is what the engine
// is compared with, step by step, in TestEngineAgainstModel. It knows
// only what it needs: events of three types (HOST_DOWN, REPLICA_SET and
// OUTSIDE_METRIC_THRESHOLD), HOSTNAME matchers, a GREATER_THAN or
// LESS_THAN threshold on CONNECTIONS, and EMAIL and SMS notifications.

// mTarget is what a condition is about, or what an alert shows of it.
type mTarget struct{ HostID, Host, ReplicaSet, ClusterID string }

// identity is the target identity rule: host id, else host and port,
// else cluster id, else replica set, else the project itself.
func (t mTarget) identity() string {
	for _, v := range []string{t.HostID, t.Host, t.ClusterID, t.ReplicaSet} {
		if v != "" {
			return v
		}
	}
	return ""
}

// shown is what an alert of the spec's event types shows of a target
// (2.1: hostId, hostnameAndPort and replicaSetName; no cluster).
func (t mTarget) shown() mTarget {
	return mTarget{HostID: t.HostID, Host: t.Host, ReplicaSet: t.ReplicaSet}
}

func (t mTarget) String() string {
	var parts []string
	for _, p := range [][2]string{{"hostId", t.HostID}, {"host", t.Host}, {"rs", t.ReplicaSet}, {"clusterId", t.ClusterID}} {
		if p[1] != "" {
			parts = append(parts, p[0]+"="+p[1])
		}
	}
	return "{" + strings.Join(parts, " ") + "}"
}

type mNotif struct {
	Type            string
	Delay, Interval time.Duration
}

type mConfig struct {
	ID, Project string // Project "" for a global configuration (for all projects)
	Event       string
	Enabled     bool
	HostEquals  string // a HOSTNAME EQUALS matcher; "" for none
	Below       bool   // LESS_THAN rather than GREATER_THAN (OUTSIDE_METRIC_THRESHOLD)
	Threshold   float64
	Notifs      []mNotif
}

func (c *mConfig) global() bool { return c.Project == "" }

// smallestDelay is how long an alert of the configuration tracks.
func (c *mConfig) smallestDelay() time.Duration {
	if len(c.Notifs) == 0 {
		return 0
	}
	d := c.Notifs[0].Delay
	for _, n := range c.Notifs[1:] {
		d = min(d, n.Delay)
	}
	return d
}

func (c *mConfig) matches(t mTarget) bool {
	if c.HostEquals == "" {
		return true
	}
	host, _, found := strings.Cut(t.Host, ":")
	return t.Host != "" && found && host == c.HostEquals
}

// mDue is one notification target of a raised alert: when it is next due.
type mDue struct {
	mNotif
	notified bool
	next     time.Time
	over     bool
}

type mAlert struct {
	ID, Project, Config, Event, Status string // Project: the alert's groupId
	Global                             bool
	Created, Updated                   time.Time
	LastNotified, Resolved, AckUntil   time.Time // zero: absent
	AckComment, AckUser                string
	Shown                              mTarget
	Identity                           string
	Metric                             string
	Value                              *float64
	// raised: by the engine (not from fixtures), with a schedule.
	raised bool
	sched  []*mDue
}

func (a *mAlert) active() bool {
	return a.Config != "" && (a.Status == api.StatusOpen || a.Status == api.StatusTracking)
}

type mNote struct {
	AlertID, ConfigID, GroupID, Event, Type string
	Global                                  bool
	SentAt                                  time.Time
}

func (n mNote) String() string {
	return fmt.Sprintf("%s %s %s %s global=%v config=%s group=%s", rules.FormatTime(n.SentAt), n.AlertID, n.Event, n.Type, n.Global, n.ConfigID, n.GroupID)
}

// mCondition is one item of POST /_omctl/events.
type mCondition struct {
	Project, Event string
	Target         mTarget
	Resolved       bool
	Sample         bool // a CONNECTIONS sample of Value (RAW)
	Value          float64
}

func (c mCondition) String() string {
	if c.Sample {
		return fmt.Sprintf("sample CONNECTIONS=%v project=%s target=%v", c.Value, c.Project[len(c.Project)-1:], c.Target)
	}
	return fmt.Sprintf("%s resolved=%v project=%s target=%v", c.Event, c.Resolved, c.Project[len(c.Project)-1:], c.Target)
}

// spec is the data the engine works on.
type spec struct {
	now     time.Time
	configs []*mConfig // project ones first, each project's in order, then the global ones
	alerts  []*mAlert
	notes   []mNote
	newID   int // placeholder ids of raised alerts until the engine under test names them
}

// config is the configuration with id, nil for none.
func (m *spec) config(id string) *mConfig {
	for _, c := range m.configs {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// openAt is when a TRACKING alert opens: its creation plus the smallest
// delay of its configuration's notifications; never without one.
func (m *spec) openAt(a *mAlert) (time.Time, bool) {
	c := m.config(a.Config)
	if c == nil || a.Status != api.StatusTracking || c.global() != a.Global {
		return time.Time{}, false
	}
	return a.Created.Add(c.smallestDelay()), true
}

// activeOf lists the active alerts of a configuration and target identity
// in a project.
func (m *spec) activeOf(cfg, project, identity string) []*mAlert {
	var out []*mAlert
	for _, a := range m.alerts {
		if a.active() && a.Config == cfg && a.Project == project && a.Identity == identity {
			out = append(out, a)
		}
	}
	return out
}

// record logs a notification of a raised alert.
func (m *spec) record(a *mAlert, n mNotif, event string, at time.Time) {
	m.notes = append(m.notes, mNote{AlertID: a.ID, ConfigID: a.Config, GroupID: a.Project, Event: event, Type: n.Type, Global: a.Global, SentAt: at})
	a.LastNotified = at
}

// end closes (OPEN) or cancels (TRACKING, or a disabled configuration's)
// an active alert, telling each target already notified.
func (m *spec) end(a *mAlert, status string) {
	a.Status, a.Updated = status, m.now
	event := "alert.cancel"
	if status == api.StatusClosed {
		a.Resolved, event = m.now, "alert.close"
	}
	for _, d := range a.sched {
		if d.notified {
			m.record(a, d.mNotif, event, m.now)
		}
	}
	a.sched = nil
}

// clear ends an alert whose condition cleared.
func (m *spec) clear(a *mAlert) {
	if a.Status == api.StatusOpen {
		m.end(a, api.StatusClosed)
	} else {
		m.end(a, api.StatusCancelled)
	}
}

// Report applies one condition and lists the alerts it changed.
func (m *spec) Report(c mCondition) []*mAlert {
	var changed []*mAlert
	note := func(a *mAlert) {
		if !slices.Contains(changed, a) {
			changed = append(changed, a)
		}
	}
	identity := c.Target.identity()
	if c.Resolved {
		for _, a := range m.alerts {
			if a.active() && a.Project == c.Project && a.Identity == identity && a.Event == c.Event {
				m.clear(a)
				note(a)
			}
		}
		return changed
	}
	for _, cfg := range m.configs {
		if !cfg.Enabled || cfg.Event != c.Event || !(cfg.Project == c.Project || cfg.global()) || !cfg.matches(c.Target) {
			continue
		}
		active := m.activeOf(cfg.ID, c.Project, identity)
		if c.Sample {
			holds := c.Value > cfg.Threshold
			if cfg.Below {
				holds = c.Value < cfg.Threshold
			}
			for _, a := range active {
				if a.Value == nil || *a.Value != c.Value {
					v := c.Value
					a.Value, a.Updated = &v, m.now
					note(a)
				}
				if !holds {
					m.clear(a)
					note(a)
				}
			}
			if !holds {
				continue
			}
		}
		if len(active) == 0 {
			note(m.raise(cfg, c))
		}
	}
	m.RunUntil(m.now)
	return changed
}

// raise makes a new alert of cfg for the condition.
func (m *spec) raise(cfg *mConfig, c mCondition) *mAlert {
	m.newID++
	a := &mAlert{ID: fmt.Sprintf("new-%d", m.newID), Project: c.Project, Config: cfg.ID, Event: c.Event, Global: cfg.global(),
		Created: m.now, Updated: m.now, Shown: c.Target.shown(), Identity: c.Target.identity(), raised: true, Status: api.StatusOpen}
	if cfg.smallestDelay() > 0 {
		a.Status = api.StatusTracking
	}
	if c.Sample {
		v := c.Value
		a.Metric, a.Value = "CONNECTIONS", &v
	}
	for _, n := range cfg.Notifs {
		a.sched = append(a.sched, &mDue{mNotif: n, next: m.now.Add(n.Delay)})
	}
	m.alerts = append(m.alerts, a)
	return a
}

// SetEnabled turns a configuration on or off (PATCH, or PUT with
// enabled given or left out); off cancels every active alert of it.
func (m *spec) SetEnabled(id string, enabled bool) {
	cfg := m.config(id)
	cfg.Enabled = enabled
	if enabled {
		return
	}
	for _, a := range m.alerts {
		if a.active() && a.Config == id {
			m.end(a, api.StatusCancelled)
		}
	}
}

// Ack acknowledges an alert; an OPEN raised one tells the targets
// already notified.
func (m *spec) Ack(a *mAlert, until time.Time) {
	a.AckUntil, a.AckComment, a.AckUser, a.Updated = until, "looking", "modeluser", m.now
	if a.Status != api.StatusOpen {
		return
	}
	for _, d := range a.sched {
		if d.notified {
			m.record(a, d.mNotif, "alert.acknowledge", m.now)
		}
	}
}

func (m *spec) Unack(a *mAlert) {
	a.AckUntil, a.AckComment, a.AckUser, a.Updated = time.Time{}, "", "", m.now
}

// RunUntil moves the clock to t, opening TRACKING alerts and sending what
// falls due, in time order; an alert opens before a notification due at
// the same instant.
func (m *spec) RunUntil(t time.Time) {
	for {
		next, ok := m.nextEvent()
		if !ok || next.After(t) {
			break
		}
		m.now = next
		m.openDue(next)
		m.notifyDue(next)
	}
	m.now = t
}

// nextEvent is the earliest opening or notification still to come.
func (m *spec) nextEvent() (time.Time, bool) {
	var first time.Time
	found := false
	consider := func(t time.Time) {
		if !found || t.Before(first) {
			first, found = t, true
		}
	}
	for _, a := range m.alerts {
		if at, ok := m.openAt(a); ok {
			consider(at)
		}
		for _, d := range a.sched {
			if !d.over {
				consider(d.next)
			}
		}
	}
	return first, found
}

// openDue opens the TRACKING alerts due by t, each at its own time.
func (m *spec) openDue(t time.Time) {
	for _, a := range m.alerts {
		if at, ok := m.openAt(a); ok && !at.After(t) {
			a.Status, a.Updated = api.StatusOpen, at
		}
	}
}

// notifyDue sends what is due at t: to an OPEN alert not acknowledged
// past t; a schedule stops once its alert is no longer OPEN.
func (m *spec) notifyDue(t time.Time) {
	for _, a := range m.alerts {
		for _, d := range a.sched {
			if d.over || !d.next.Equal(t) {
				continue
			}
			if a.Status != api.StatusOpen {
				d.over = true
				continue
			}
			if !a.AckUntil.After(t) {
				event := "alert.update"
				if !d.notified {
					event = "alert.open"
				}
				d.notified = true
				m.record(a, d.mNotif, event, t)
			}
			if d.Interval > 0 {
				d.next = t.Add(d.Interval)
			} else {
				d.over = true
			}
		}
	}
}

// mFixture is the data a spec starts from, and goes back to on reset.
type mFixture struct {
	configs []mConfig
	alerts  []mAlert
}

// newSpec loads a fixture at now: TRACKING alerts already due open.
func newSpec(f *mFixture, now time.Time) *spec {
	m := &spec{now: now}
	for _, c := range f.configs {
		m.configs = append(m.configs, &c)
	}
	for _, a := range f.alerts {
		m.alerts = append(m.alerts, &a)
	}
	m.openDue(now)
	return m
}

// reset goes back to the fixture, keeping the clock and the placeholder
// count, and empties the notification log.
func (m *spec) reset(f *mFixture) {
	n := m.newID
	*m = *newSpec(f, m.now)
	m.newID = n
}

// duplicates are the pairs of active alerts of one configuration and
// target identity in a fixture, which a fixture file may not hold.
func (f *mFixture) duplicates() [][2]string {
	var out [][2]string
	for i, a := range f.alerts {
		for _, b := range f.alerts[i+1:] {
			if a.active() && b.active() && a.Config == b.Config && a.Project == b.Project && a.Identity == b.Identity {
				out = append(out, [2]string{a.ID, b.ID})
			}
		}
	}
	return out
}

// expected is each alert as GET should show it, by id: the members the
// engine decides.
func (m *spec) expected() map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, a := range m.alerts {
		out[a.ID] = a.fields()
	}
	return out
}

func (a *mAlert) fields() map[string]string {
	f := map[string]string{"id": a.ID, "alertConfigId": a.Config, "eventTypeName": a.Event, "status": a.Status,
		"groupId": a.Project, "hostId": a.Shown.HostID, "hostnameAndPort": a.Shown.Host, "replicaSetName": a.Shown.ReplicaSet,
		"created": rules.FormatTime(a.Created), "updated": rules.FormatTime(a.Updated),
		"acknowledgementComment": a.AckComment, "acknowledgingUsername": a.AckUser, "metricName": a.Metric}
	for k, t := range map[string]time.Time{"lastNotified": a.LastNotified, "resolved": a.Resolved, "acknowledgedUntil": a.AckUntil} {
		if !t.IsZero() {
			f[k] = rules.FormatTime(t)
		}
	}
	if a.Value != nil {
		f["currentValue"] = fmt.Sprintf("%v RAW", *a.Value)
	}
	for k, v := range f {
		if v == "" {
			delete(f, k)
		}
	}
	return f
}

// sortedNotes is the log in a canonical order: by time, then by what
// each says (the engine's order among notifications of one instant is
// its own).
func sortedNotes(notes []mNote) []string {
	out := make([]string, len(notes))
	idx := make([]int, len(notes))
	for i := range notes {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return notes[idx[i]].SentAt.Before(notes[idx[j]].SentAt) })
	for i, k := range idx {
		out[i] = notes[k].String()
	}
	// Within one instant, by text.
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && notes[idx[j]].SentAt.Equal(notes[idx[i]].SentAt) {
			j++
		}
		sort.Strings(out[i:j])
		i = j
	}
	return out
}
