// Package store is the data behind omctl server: typed records (alerts as
// compact JSON documents, API keys with their access lists, principals),
// the named operations that change them (ops.go), the alert engine that
// raises and notifies (engine.go), fixtures, and the bbolt state file
// every change is committed to. It owns its lock and its persistence and
// knows nothing of HTTP: the server's handlers parse a request, call an
// operation here, and render (docs/server.md).
package store

import (
	"fmt"
	"runtime/debug"
	"sync"
	"time"
)

// Store is the data of a running server with what keeps it whole: one
// lock that readers share and a writer holds alone, and the state file
// each writer's changes are committed to, in the order they were made,
// before the writer hears back (docs/server.md, State).
type Store struct {
	mu    sync.RWMutex // guards st and the data it holds
	st    *State
	seed  *Fixtures // what a reset goes back to (Seed); never changed
	file  *StateFile
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

// Open starts the store from the state file when it holds data, else from
// seed, which is then committed to the file (if any). A reset (see Seed
// and State.ResetTo) goes back to seed, or, with fileIsSeed and a file
// holding data, to what it held.
func Open(seed *Fixtures, file *StateFile, clock *Clock, fileIsSeed bool) (*Store, error) {
	s := &Store{seed: seed, file: file, clock: clock}
	s.st = newState(seed.Clone(), clock.Now())
	if file == nil {
		s.st.prepare(clock.Now())
		return s, nil
	}
	if file.Empty() {
		s.st.touchAll()
	} else {
		data, err := file.Load()
		if err != nil {
			return nil, err
		}
		if fileIsSeed {
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
// it changed to the state file before returning, outside the lock. A
// panic in fn is returned as a PanicError; what fn changed before it
// stays, and is committed with the next change.
func (s *Store) Update(fn func(*State)) (Outcome, error) {
	out, b, err := s.runLocked(fn)
	if err != nil {
		return Outcome{}, err
	}
	if b != nil {
		s.commits.wait(b.turn)
		cerr := func() error {
			defer s.commits.done()
			return s.commit(b)
		}()
		if cerr != nil {
			return Outcome{}, &CommitError{Path: s.file.Path(), Err: cerr}
		}
	}
	return out, nil
}

// commit writes a batch in its turn. After a commit failed, the file
// lacks a change that memory holds: until the data is written whole again,
// each commit writes it whole, as it is then (a change on top of the file
// would mix the two).
func (s *Store) commit(b *batch) error {
	if s.wholeOwed && !b.replaceAll {
		s.mu.RLock()
		whole, err := encodeBatch(s.st.allRecords(), true, s.clock)
		s.mu.RUnlock()
		if err != nil {
			return err
		}
		b = whole
	}
	err := s.file.Commit(b)
	if err != nil {
		s.wholeOwed = true
	} else if b.replaceAll {
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

// runLocked runs fn under mu. When it changed data and there is a state
// file, the encoded change comes back with its turn to be committed.
func (s *Store) runLocked(fn func(*State)) (out Outcome, b *batch, err error) {
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
	if s.file == nil {
		return out, nil, nil
	}
	recs, all := s.st.takeChanges()
	if len(recs) == 0 && !all && !s.clockMoved() {
		return out, nil, nil
	}
	b, err = encodeBatch(recs, all, s.clock)
	if err != nil {
		return Outcome{}, nil, fmt.Errorf("state file %s: %w", s.file.Path(), err)
	}
	b.turn = s.commits.take()
	return out, b, nil
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
