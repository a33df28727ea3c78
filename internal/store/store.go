// Package store is the data behind omctl server: typed records (alerts as
// compact JSON documents, API keys with their access lists, principals),
// the named operations that change them (one file a resource, see
// records.go), the alert engine that raises and notifies (engine.go),
// fixtures, and the log every change is
// committed to (a statelog.File: it keeps opaque records, and the model
// is decoded from them here, in Open). It owns its lock and the order of
// its commits and knows nothing of HTTP: the server's handlers parse a
// request, call an operation here, and render (docs/server.md).
package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/omctl/omctl/internal/store/statelog"
)

// Log is where the store commits its changes, as opaque records: a
// statelog.File, or in tests a log that fails on demand. A store without
// one keeps its data in memory only.
type Log interface {
	// Path names the log in messages.
	Path() string
	// Empty reports whether the log holds no data written whole yet.
	Empty() bool
	// Meta is the value a batch's Meta last set under key ("" for none).
	Meta(key string) string
	// Read calls fn with each record, kind by kind, each kind in the
	// order its records were first written; the bytes are fn's only
	// during the call.
	Read(fn func(statelog.Record) error) error
	// Commit writes a batch whole or not at all, durably, before it
	// returns.
	Commit(*statelog.Batch) error
}

// The store's meta entries in its log: the clock, to resume it.
const (
	metaClockKey = "clock"
	// metaOffsetKey is how far a real clock was advanced.
	metaOffsetKey = "clockOffset"
)

// Store is the data of a running server with what keeps it whole: one
// lock that readers share and a writer holds alone, and the log each
// writer's changes are committed to, in the order they were made,
// before the writer hears back (docs/server.md, State).
type Store struct {
	mu    sync.RWMutex // guards st and the data it holds
	st    *State
	seed  *Fixtures // what a reset goes back to (Seed); never changed
	log   Log       // nil: memory only
	clock *Clock

	// commits orders commits to the state file as the changes were made:
	// a writer takes its turn before it lets go of mu, and waits for it
	// after, so a long commit (a reset) holds up only later writers, not
	// readers.
	commits     commitTurns
	wholeOwed   bool          // a commit failed: commit the data whole next (in a commit's turn)
	savedClock  time.Time     // the virtual clock's time last committed
	savedOffset time.Duration // the real clock's offset last committed
}

// Outcome is what a change set off in the alert engine: notifications
// recorded, webhooks to send once the lock is released, and whether
// anything is still scheduled.
type Outcome struct {
	Notes      []*Notification
	Deliveries []*Delivery
	Pending    bool
}

// PanicError is a change or read that panicked: a bug, reported with its
// stack rather than taking the server down.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v\n%s", e.Value, e.Stack) }

// CommitError is a change that could not be saved to the state file.
type CommitError struct {
	Path string
	Err  error
}

func (e *CommitError) Error() string {
	return fmt.Sprintf("state file %s: the change could not be saved: %v", e.Path, e.Err)
}

func (e *CommitError) Unwrap() error { return e.Err }

// Open starts the store from the log when it holds data, else from seed,
// which is then committed to the log (if any). A reset (see Seed and
// State.ResetTo) goes back to seed, or, with logIsSeed and a log holding
// data, to what it held.
func Open(seed *Fixtures, log Log, clock *Clock, logIsSeed bool) (*Store, error) {
	s := &Store{seed: seed, log: log, clock: clock}
	s.st = newState(seed.Clone(), clock.Now())
	if log == nil {
		s.st.prepare(clock.Now())
		return s, nil
	}
	if log.Empty() {
		s.st.touchAll()
	} else {
		data, err := readLog(log)
		if err != nil {
			return nil, err
		}
		if logIsSeed {
			s.seed = data
			data = data.Clone()
		}
		s.st = newState(data, clock.Now())
	}
	if _, err := s.Update(func(st *State) { st.prepare(clock.Now()) }); err != nil {
		return nil, err
	}
	return s, nil
}

// SavedClock is the clock the store last saved in log, to resume: a
// virtual clock at its time, or the real clock as far ahead as it was
// advanced (not at all for a log that saved neither).
func SavedClock(log Log) (*Clock, error) {
	if v := log.Meta(metaClockKey); v != "" {
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil || CheckTime(t) != nil {
			return nil, &statelog.Error{Path: log.Path(), Problem: fmt.Sprintf("the saved clock %q cannot be read", v)}
		}
		return VirtualClock(t), nil
	}
	if v := log.Meta(metaOffsetKey); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return nil, &statelog.Error{Path: log.Path(), Problem: fmt.Sprintf("the saved clock offset %q cannot be read", v)}
		}
		return RealClockAhead(d), nil
	}
	return RealClock(), nil
}

// readLog decodes the records of log into fixtures, in the order they
// were written.
func readLog(log Log) (*Fixtures, error) {
	f := &Fixtures{}
	lists := f.lists()
	alerts := map[string]*alertParser{"alerts": nil, "globalAlerts": nil}
	fail := func(problem string) error { return &statelog.Error{Path: log.Path(), Problem: problem} }
	err := log.Read(func(r statelog.Record) error {
		if p, ok := alerts[r.Kind]; ok {
			if p == nil {
				p = newAlertParser()
				alerts[r.Kind] = p
			}
			p.add(bytes.Clone(r.Value)) // parsed after the log's bytes are gone
			return nil
		}
		var dst any
		if r.Kind == schedulesKind {
			if f.schedules == nil {
				f.schedules = map[string]*scheduleRecord{}
			}
			rec := &scheduleRecord{}
			f.schedules[r.Key] = rec
			dst = rec
		} else if _, ok := lists[r.Kind]; !ok {
			return nil // not the store's
		}
		dec := json.NewDecoder(bytes.NewReader(r.Value))
		dec.UseNumber()
		if dst != nil {
			if dec.Decode(dst) != nil {
				return fail(fmt.Sprintf("%s %s: record is damaged", r.Kind, r.Key))
			}
			return nil
		}
		var d doc
		if err := dec.Decode(&d); err != nil || d == nil {
			return fail(fmt.Sprintf("%s %s: record is not a JSON object", r.Kind, r.Key))
		}
		*lists[r.Kind] = append(*lists[r.Kind], d)
		return nil
	})
	for kind, p := range alerts {
		if p == nil {
			continue
		}
		got, perr := p.finish() // even after an error: it stops the parser's workers
		if err == nil && perr != nil {
			err = fail(fmt.Sprintf("holds a damaged alert: %s%v", kind, perr))
		}
		if kind == "alerts" {
			f.Alerts = got
		} else {
			f.GlobalAlerts = got
		}
	}
	if err != nil {
		return nil, err
	}
	if err := f.validate(); err != nil {
		return nil, fail("holds data that breaks a rule: " + err.Error())
	}
	return f, nil
}

// Seed is the fixtures a reset goes back to.
func (s *Store) Seed() *Fixtures { return s.seed }

// View runs fn with the data under the read lock: views run side by side.
func (s *Store) View(fn func(*State)) (err error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	fn(s.st)
	return nil
}

// Update runs fn with the data under the write lock, then commits what
// it changed to the log before returning, outside the lock. A
// panic in fn is returned as a PanicError; what fn changed before it
// stays, and is committed with the next change.
func (s *Store) Update(fn func(*State)) (Outcome, error) {
	out, b, turn, err := s.runLocked(fn)
	if err != nil {
		return Outcome{}, err
	}
	if b != nil {
		s.commits.wait(turn)
		cerr := func() error {
			defer s.commits.done()
			return s.commit(b)
		}()
		if cerr != nil {
			return Outcome{}, &CommitError{Path: s.log.Path(), Err: cerr}
		}
	}
	return out, nil
}

// commit writes a batch in its turn. After a commit failed, the log
// lacks a change that memory holds: until the data is written whole again,
// each commit writes it whole, as it is then (a change on top of the log
// would mix the two).
func (s *Store) commit(b *statelog.Batch) error {
	if s.wholeOwed && !b.ReplaceAll {
		s.mu.RLock()
		whole, err := encodeBatch(s.st.allRecords(), true, s.clock)
		s.mu.RUnlock()
		if err != nil {
			return err
		}
		b = whole
	}
	err := s.log.Commit(b)
	if err != nil {
		s.wholeOwed = true
	} else if b.ReplaceAll {
		s.wholeOwed = false
	}
	return err
}

// OpenDue opens the TRACKING alerts whose delay has passed by now, taking
// the write lock only when there are some.
func (s *Store) OpenDue(now time.Time) (Outcome, error) {
	due := false
	if err := s.View(func(st *State) { due = st.anyDue(now) }); err != nil || !due {
		return Outcome{}, err
	}
	return s.Update(func(st *State) { st.PromoteAll(now) })
}

// runLocked runs fn under mu. When it changed data and there is a log,
// the encoded change comes back with its turn to be committed.
func (s *Store) runLocked(fn func(*State)) (out Outcome, b *statelog.Batch, turn uint64, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() {
		if v := recover(); v != nil {
			out, b, err = Outcome{}, nil, &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	fn(s.st)
	out.Notes, out.Deliveries = s.st.takeNotifications()
	out.Pending = s.st.Scheduled()
	if s.log == nil {
		return out, nil, 0, nil
	}
	recs, all := s.st.takeChanges()
	if len(recs) == 0 && !all && !s.clockMoved() {
		return out, nil, 0, nil
	}
	b, err = encodeBatch(recs, all, s.clock)
	if err != nil {
		return Outcome{}, nil, 0, fmt.Errorf("state file %s: %w", s.log.Path(), err)
	}
	return out, b, s.commits.take(), nil
}

// clockMoved reports whether the clock moved since it was last saved: a
// virtual clock's time, or how far a real clock was advanced (under mu).
func (s *Store) clockMoved() bool {
	if !s.clock.Virtual() {
		offset := s.clock.Offset()
		if offset == s.savedOffset {
			return false
		}
		s.savedOffset = offset
		return true
	}
	now := s.clock.Now()
	if now.Equal(s.savedClock) {
		return false
	}
	s.savedClock = now
	return true
}

// commitTurns hands out turns to commit, in the order they were taken.
type commitTurns struct {
	mu      sync.Mutex
	cond    *sync.Cond
	next    uint64 // the turn the next writer takes
	serving uint64 // the turn whose commit may run
}

// take is a writer's turn; called under the data lock, so turns follow
// the order of the changes.
func (t *commitTurns) take() uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	turn := t.next
	t.next++
	return turn
}

// wait returns once the commits of every earlier turn are done.
func (t *commitTurns) wait(turn uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cond == nil {
		t.cond = sync.NewCond(&t.mu)
	}
	for t.serving != turn {
		t.cond.Wait()
	}
}

// done ends the turn being served.
func (t *commitTurns) done() {
	t.mu.Lock()
	t.serving++
	if t.cond != nil {
		t.cond.Broadcast()
	}
	t.mu.Unlock()
}
