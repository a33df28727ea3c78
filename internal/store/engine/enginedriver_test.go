package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/model"
	"github.com/omctl/omctl/internal/store/statelog"
	"github.com/omctl/omctl/internal/store/statelog/statelogtest"
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

// engineDriver drives the engine as the Store does, without the Store:
// every operation is one write (Engine.Run) that first opens the
// TRACKING alerts due, as the server's data lock has every request do,
// and whose changes are then committed to a state file in memory; a
// restart reads the data and the schedules back from it.
type engineDriver struct {
	seed  *fixture.Fixtures
	log   *statelogtest.Memory
	now   time.Time // the virtual clock
	st    *model.State
	eng   *Engine
	notes []*Notification
}

// newEngineDriver starts the engine on fixture data as a state file an
// older version wrote would hold it: the engine's rules are not checked,
// so data breaking them (several active alerts of one configuration and
// target) reaches the engine, which must still follow the text.
func newEngineDriver(data []byte, start time.Time) (*engineDriver, error) {
	f, err := fixture.ParseStateData("model fixture", data)
	if err != nil {
		return nil, err
	}
	e := &engineDriver{seed: f, log: statelogtest.NewMemory(), now: start}
	e.start(f.Clone())
	e.st.ChangeAll()
	return e, e.write(func(tx *Tx) { tx.Prepare(e.now) })
}

// start makes the data from f and the engine beside it.
func (e *engineDriver) start(f *fixture.Fixtures) {
	e.st = model.NewState(f, e.now)
	e.eng = New(e.st, f.Schedules, e.now)
}

// write runs fn as one write and commits what it changed.
func (e *engineDriver) write(fn func(*Tx)) error {
	notes, _ := e.eng.Run(e.st, fn, func() time.Time { return e.now })
	reset := e.st.WasReset()
	e.st.ReindexAlerts()
	recs, all := e.st.TakeChanges()
	if all {
		recs = append(e.st.AllRecords(), e.eng.Records()...)
	}
	b := &statelog.Batch{ReplaceAll: all}
	for _, c := range recs {
		v, err := model.Encode(c)
		if err != nil {
			return err
		}
		b.Records = append(b.Records, statelog.Record{Kind: c.Kind, Key: c.Key, Value: v})
	}
	if err := e.log.Commit(b); err != nil {
		return err
	}
	if reset {
		e.notes = nil
	}
	e.notes = append(e.notes, notes...)
	return nil
}

// update runs op as a request's handler would.
func (e *engineDriver) update(op func(*Tx) error) error {
	var opErr error
	if err := e.write(func(tx *Tx) {
		tx.PromoteAll(e.now)
		opErr = op(tx)
	}); err != nil {
		return err
	}
	return opErr
}

func (e *engineDriver) Report(c mCondition) (changed []map[string]any, err error) {
	cond := Condition{Project: c.Project, Event: c.Event, Resolved: c.Resolved,
		Target: alert.Target{HostID: c.Target.HostID, HostnameAndPort: c.Target.Host, ReplicaSetName: c.Target.ReplicaSet, ClusterID: c.Target.ClusterID}}
	if c.Sample {
		cond.Event, cond.Metric, cond.Value = "OUTSIDE_METRIC_THRESHOLD", "CONNECTIONS", json.Number(strconv.FormatFloat(c.Value, 'f', -1, 64))
	}
	var recs []*alert.Rec
	err = e.update(func(st *Tx) error {
		now := e.now
		recs = st.Apply(cond, now)
		st.RunUntil(now)
		seen := map[*alert.Rec]bool{} // as the server's answer lists them
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

func (e *engineDriver) SetEnabled(id string, enabled bool) error {
	return e.update(func(st *Tx) error {
		cfg := st.GlobalAlertConfigs().Get(id)
		if cfg == nil {
			if cfg = e.projectConfig(st.State, id); cfg == nil {
				return fmt.Errorf("no configuration %s", id)
			}
		}
		st.SetConfigEnabled(cfg, enabled, e.now)
		return nil
	})
}

func (e *engineDriver) projectConfig(st *model.State, id string) *model.AlertConfig {
	for _, p := range st.Projects() {
		if cfg := st.AlertConfigs(p.ID).Get(id); cfg != nil {
			return cfg
		}
	}
	return nil
}

func (e *engineDriver) Put(id string, enabled *bool) error {
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
		st.ReplaceAlertConfig(old, body, e.now)
		return nil
	})
}

func (e *engineDriver) Ack(id string, until time.Time) error {
	return e.update(func(st *Tx) error {
		r := st.Alert(id)
		if r == nil {
			return fmt.Errorf("no alert %s", id)
		}
		st.SetAlert(r, r.Cur.Acknowledged(formatTime(until), "looking", "modeluser", e.now))
		return nil
	})
}

func (e *engineDriver) Unack(id string) error {
	return e.update(func(st *Tx) error {
		r := st.Alert(id)
		if r == nil {
			return fmt.Errorf("no alert %s", id)
		}
		st.SetAlert(r, r.Cur.Unacknowledged(e.now))
		return nil
	})
}

// Advance moves the clock as the server's clock control does, in one
// slice: the slicing is the server's, and its tests'.
func (e *engineDriver) Advance(d time.Duration) error {
	target := e.now.Add(d)
	return e.update(func(st *Tx) error {
		st.RunUntil(target)
		e.now = target
		return nil
	})
}

func (e *engineDriver) Reset() error {
	return e.update(func(st *Tx) error { st.ResetTo(e.seed, e.now); return nil })
}

// Restart starts the data and the engine anew from the state file, as
// the Store's Open does.
func (e *engineDriver) Restart() error {
	f, err := fixture.ReadLog(e.log)
	if err != nil {
		return err
	}
	e.start(f)
	return e.write(func(tx *Tx) { tx.Prepare(e.now) })
}

func (e *engineDriver) Alerts() (out []map[string]any, err error) {
	f := e.st.Fixtures()
	for _, a := range append(f.Alerts, f.GlobalAlerts...) {
		d, err := alertMap(a)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

func (e *engineDriver) Notifications() []mNote {
	out := make([]mNote, len(e.notes))
	for i, n := range e.notes {
		at, _ := time.Parse(time.RFC3339, n.SentAt)
		out[i] = mNote{AlertID: n.AlertID, ConfigID: n.AlertConfigID, GroupID: n.GroupID, Event: n.Event, Type: n.TypeName, Global: n.Global, SentAt: at}
	}
	return out
}

func (e *engineDriver) Now() time.Time { return e.now }

func alertMap(a *alert.Doc) (map[string]any, error) {
	var d map[string]any
	dec := json.NewDecoder(bytes.NewReader(a.Raw))
	dec.UseNumber()
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("alert %s: %v", a.ID, err)
	}
	return d, nil
}

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }
