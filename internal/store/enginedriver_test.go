package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/omctl/omctl/internal/store/statelog"
)

// engineUnderTest is all TestEngineAgainstModel needs of an alert engine:
// the operations of docs/server.md's "Alert engine" that change alerts,
// with what they answer, and the alerts and the notification log to
// compare. Nothing here names the store's types, so that the engine can
// move into a package of its own and be driven by a driver of its own.
type engineUnderTest interface {
	// Report applies conditions as POST /_omctl/events does, and returns
	// the alerts it answers.
	Report(mCondition) ([]map[string]any, error)
	// SetEnabled is PATCH (or, for a global configuration, PUT) of enabled.
	SetEnabled(configID string, enabled bool) error
	// Put replaces a project's configuration with what it holds, enabled
	// as given (nil: left out).
	Put(configID string, enabled *bool) error
	Ack(alertID string, until time.Time) error
	Unack(alertID string) error
	// Advance moves the virtual clock, as POST /_omctl/clock does.
	Advance(time.Duration) error
	// Reset is POST /_omctl/reset.
	Reset() error
	// Restart stops the engine and starts it again from its state file.
	Restart() error
	// Alerts are every alert, of projects and global, as GET shows them.
	Alerts() ([]map[string]any, error)
	// Notifications is the notification log since the last reset.
	Notifications() []mNote
	Now() time.Time
}

// storeEngine drives the store as the server's handlers do: every
// operation is one Store.Update that first opens the TRACKING alerts due
// (datalock.go), and the state file is a log in memory.
type storeEngine struct {
	seed  *Fixtures
	log   *memLog
	clock *Clock
	st    *Store
	notes []*Notification
}

// newStoreEngine starts the store on fixture data as a state file an
// older version wrote would hold it: the engine's rules are not checked,
// so data breaking them (several active alerts of one configuration and
// target) reaches the engine, which must still follow the text.
func newStoreEngine(fixture []byte, start time.Time) (*storeEngine, error) {
	f, err := parseStateData(fixture)
	if err != nil {
		return nil, err
	}
	e := &storeEngine{seed: f, log: newMemLog(), clock: VirtualClock(start)}
	return e, e.open()
}

func (e *storeEngine) open() error {
	st, err := Open(e.seed, e.log, e.clock, false)
	if err != nil {
		return err
	}
	st.Publish(func(out Outcome) {
		if out.Reset {
			e.notes = nil
		}
		e.notes = append(e.notes, out.Notes...)
	})
	e.st = st
	return nil
}

// update runs op as a request's handler would.
func (e *storeEngine) update(op func(*Tx) error) error {
	var opErr error
	_, err := e.st.Update(func(st *Tx) {
		st.PromoteAll(e.clock.Now())
		opErr = op(st)
	})
	if err != nil {
		return err
	}
	return opErr
}

func (e *storeEngine) Report(c mCondition) (changed []map[string]any, err error) {
	cond := Condition{Project: c.Project, Event: c.Event, Resolved: c.Resolved,
		Target: Target{HostID: c.Target.HostID, HostnameAndPort: c.Target.Host, ReplicaSetName: c.Target.ReplicaSet, ClusterID: c.Target.ClusterID}}
	if c.Sample {
		cond.Event, cond.Metric, cond.Value = "OUTSIDE_METRIC_THRESHOLD", "CONNECTIONS", json.Number(strconv.FormatFloat(c.Value, 'f', -1, 64))
	}
	var recs []*AlertRec
	err = e.update(func(st *Tx) error {
		now := e.clock.Now()
		recs = st.Apply(cond, now)
		st.RunUntil(now)
		seen := map[*AlertRec]bool{} // as the server's answer lists them
		for _, r := range recs {
			if seen[r] {
				continue
			}
			seen[r] = true
			d, err := alertMap(r.Cur)
			if err != nil {
				return err
			}
			changed = append(changed, d)
		}
		return nil
	})
	return changed, err
}

func (e *storeEngine) SetEnabled(id string, enabled bool) error {
	return e.update(func(st *Tx) error {
		cfg := st.globalConfigs.Get(id)
		if cfg == nil {
			if cfg = e.projectConfig(st.State, id); cfg == nil {
				return fmt.Errorf("no configuration %s", id)
			}
		}
		st.SetConfigEnabled(cfg, enabled, e.clock.Now())
		return nil
	})
}

func (e *storeEngine) projectConfig(st *State, id string) *AlertConfig {
	for _, cfgs := range st.alertConfigs {
		if cfg := cfgs.Get(id); cfg != nil {
			return cfg
		}
	}
	return nil
}

func (e *storeEngine) Put(id string, enabled *bool) error {
	return e.update(func(st *Tx) error {
		old := e.projectConfig(st.State, id)
		if old == nil {
			return fmt.Errorf("no project configuration %s", id)
		}
		body := old.Members()
		delete(body, "enabled")
		if enabled != nil {
			body["enabled"] = *enabled
		}
		st.ReplaceAlertConfig(old, body, e.clock.Now())
		return nil
	})
}

func (e *storeEngine) Ack(id string, until time.Time) error {
	return e.update(func(st *Tx) error {
		r := st.Alert(id)
		if r == nil {
			return fmt.Errorf("no alert %s", id)
		}
		st.AcknowledgeAlert(r, formatTime(until), "looking", "modeluser", e.clock.Now())
		return nil
	})
}

func (e *storeEngine) Unack(id string) error {
	return e.update(func(st *Tx) error {
		r := st.Alert(id)
		if r == nil {
			return fmt.Errorf("no alert %s", id)
		}
		st.UnacknowledgeAlert(r, e.clock.Now())
		return nil
	})
}

// Advance moves the clock as the server's clock control does, in one
// slice: the slicing is the server's, and its tests'.
func (e *storeEngine) Advance(d time.Duration) error {
	target := e.clock.Now().Add(d)
	return e.update(func(st *Tx) error {
		st.RunUntil(target)
		e.clock.Set(target)
		return nil
	})
}

func (e *storeEngine) Reset() error {
	return e.update(func(st *Tx) error { st.ResetTo(e.seed, e.clock.Now()); return nil })
}

// Restart opens the store anew from its log, at the clock the log saved.
func (e *storeEngine) Restart() error {
	clock, err := SavedClock(e.log)
	if err != nil {
		return err
	}
	if !clock.Now().Equal(e.clock.Now()) {
		return fmt.Errorf("the state file saved the clock at %s, not %s", formatTime(clock.Now()), formatTime(e.clock.Now()))
	}
	e.clock = clock
	return e.open()
}

func (e *storeEngine) Alerts() (out []map[string]any, err error) {
	verr := e.st.View(func(st *State) {
		f := st.Fixtures()
		for _, a := range append(f.Alerts, f.GlobalAlerts...) {
			d, derr := alertMap(a)
			if derr != nil {
				err = derr
				return
			}
			out = append(out, d)
		}
	})
	if verr != nil {
		return nil, verr
	}
	return out, err
}

func (e *storeEngine) Notifications() []mNote {
	out := make([]mNote, len(e.notes))
	for i, n := range e.notes {
		at, _ := time.Parse(time.RFC3339, n.SentAt)
		out[i] = mNote{AlertID: n.AlertID, ConfigID: n.AlertConfigID, GroupID: n.GroupID, Event: n.Event, Type: n.TypeName, Global: n.Global, SentAt: at}
	}
	return out
}

func (e *storeEngine) Now() time.Time { return e.clock.Now() }

func alertMap(a *AlertDoc) (map[string]any, error) {
	var d map[string]any
	dec := json.NewDecoder(bytes.NewReader(a.Raw))
	dec.UseNumber()
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("alert %s: %v", a.ID, err)
	}
	return d, nil
}

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// memLog is a state file in memory: the records of each kind in the
// order they were first written, and the meta entries (Log).
type memLog struct {
	kinds []string
	recs  map[string]*memKind
	meta  map[string]string
	whole bool
}

type memKind struct {
	order []string
	vals  map[string][]byte
}

func newMemLog() *memLog { return &memLog{recs: map[string]*memKind{}, meta: map[string]string{}} }

func (l *memLog) Path() string           { return "memory" }
func (l *memLog) Empty() bool            { return !l.whole }
func (l *memLog) Meta(key string) string { return l.meta[key] }

func (l *memLog) Read(fn func(statelog.Record) error) error {
	for _, kind := range l.kinds {
		k := l.recs[kind]
		for _, key := range k.order {
			if err := fn(statelog.Record{Kind: kind, Key: key, Value: k.vals[key]}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (l *memLog) Commit(b *statelog.Batch) error {
	if b.ReplaceAll {
		l.kinds, l.recs = nil, map[string]*memKind{}
	}
	for _, r := range b.Records {
		k := l.recs[r.Kind]
		if k == nil {
			k = &memKind{vals: map[string][]byte{}}
			l.recs[r.Kind] = k
			l.kinds = append(l.kinds, r.Kind)
		}
		_, had := k.vals[r.Key]
		switch {
		case r.Value == nil && had:
			delete(k.vals, r.Key)
			for i, key := range k.order {
				if key == r.Key {
					k.order = append(k.order[:i:i], k.order[i+1:]...)
					break
				}
			}
		case r.Value != nil:
			if !had {
				k.order = append(k.order, r.Key)
			}
			k.vals[r.Key] = bytes.Clone(r.Value)
		}
	}
	for key, v := range b.Meta {
		if v != "" {
			l.meta[key] = v
		}
	}
	l.whole = true
	return nil
}

// parseStateData reads fixture data as a state file's records are read:
// without the checks that only a fixture file gets.
func parseStateData(data []byte) (*Fixtures, error) { return parseFixtureData("model fixture", data) }
