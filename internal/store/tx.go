package store

import "time"

// Tx is a write as the Store's callers see it (Store.Update): the data,
// with its lookups and named operations, and the alert engine's commands
// (conditions reported, time moving, a reset), which change the data as
// the engine. What the operations change, the engine reacts to once the
// write has run (Engine.process).
type Tx struct {
	*State
	eng *Engine
}

// Apply applies one condition at now and returns the alerts it changed.
func (tx *Tx) Apply(c Condition, now time.Time) []*AlertRec {
	defer tx.ch.as(ByEngine)()
	return tx.eng.Apply(tx.State, c, now)
}

// PromoteAll opens every TRACKING alert whose delay has passed by now.
func (tx *Tx) PromoteAll(now time.Time) {
	defer tx.ch.as(ByEngine)()
	tx.eng.PromoteAll(tx.State, now)
}

// RunUntil opens due TRACKING alerts and sends due notifications, in time
// order, up to and including now (Engine.RunUntil).
func (tx *Tx) RunUntil(now time.Time) {
	defer tx.ch.as(ByEngine)()
	tx.eng.RunUntil(tx.State, now)
}

// RunSlice is RunUntil that stops once past deadline (Engine.RunSlice).
func (tx *Tx) RunSlice(until, deadline time.Time) (reached time.Time, done bool) {
	defer tx.ch.as(ByEngine)()
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
func (tx *Tx) ResetTo(f *Fixtures, now time.Time) {
	defer tx.ch.as(ByEngine)()
	f = f.Clone()
	tx.resetTo(f, now)
	*tx.eng = *newEngine(tx.State, f.schedules, now)
	tx.eng.prepare(tx.State, now)
}

// prepare opens what is due and indexes the active alerts (Engine.prepare).
func (tx *Tx) prepare(now time.Time) {
	defer tx.ch.as(ByEngine)()
	tx.eng.prepare(tx.State, now)
}
