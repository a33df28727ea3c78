package engine

import (
	"time"

	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/model"
)

// Apply applies one condition at now and returns the alerts it changed.
func (tx *Tx) Apply(c Condition, now time.Time) []*alert.Rec {
	defer tx.As(model.ByEngine)()
	return tx.eng.Apply(tx.State, c, now)
}

// PromoteAll opens every TRACKING alert whose delay has passed by now.
func (tx *Tx) PromoteAll(now time.Time) {
	defer tx.As(model.ByEngine)()
	tx.eng.PromoteAll(tx.State, now)
}

// RunUntil opens due TRACKING alerts and sends due notifications, in time
// order, up to and including now (Engine.RunUntil).
func (tx *Tx) RunUntil(now time.Time) {
	defer tx.As(model.ByEngine)()
	tx.eng.RunUntil(tx.State, now)
}

// RunSlice is RunUntil that stops once past deadline (Engine.RunSlice).
func (tx *Tx) RunSlice(until, deadline time.Time) (reached time.Time, done bool) {
	defer tx.As(model.ByEngine)()
	return tx.eng.RunSlice(tx.State, until, deadline)
}

// Pending reports whether the engine has anything left to do in time.
func (tx *Tx) Pending() bool { return tx.eng.Pending() }

// Scheduled reports whether raised alerts have anything left to do in
// time (Engine.Scheduled).
func (tx *Tx) Scheduled() bool { return tx.eng.Scheduled() }

// ResetTo replaces all the data with the fixtures f (which it does not
// change), the engine started anew on them, and marks it all to be
// committed.
func (tx *Tx) ResetTo(f *fixture.Fixtures, now time.Time) {
	defer tx.As(model.ByEngine)()
	st, e := tx.State, tx.eng
	f = f.Clone()
	st.ResetTo(f, now)
	fresh := New(st, f.Schedules, now)
	fresh.tx = e.tx // the write running goes on (tx may be &e.tx)
	*e = *fresh
	e.Prepare(st, now)
}

// Prepare opens what is due and indexes the active alerts (Engine.Prepare).
func (tx *Tx) Prepare(now time.Time) {
	defer tx.As(model.ByEngine)()
	tx.eng.Prepare(tx.State, now)
}

// Run runs fn as one write on st, then the engine's reaction to what its
// operations changed (Process, at now()), and returns the notifications
// and webhook deliveries the write recorded. A panic in fn leaves them to
// the caller to drop (Take), with the write's changes (DropWrite).
func (e *Engine) Run(st *model.State, fn func(*Tx), now func() time.Time) ([]*Notification, []*Delivery) {
	st.Begin()
	e.tx = Tx{State: st, eng: e} // one a write, not one allocated each
	fn(&e.tx)
	if changes := st.Written(); len(changes) > 0 {
		restore := st.As(model.ByEngine)
		e.Process(st, changes, now())
		restore()
	}
	return e.Take()
}
