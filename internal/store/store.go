// Package store keeps the data behind omctl server (package model) and
// its alert engine (package engine) whole: the lock readers share and a
// batch's leader holds, the group commit of each write's changes to the
// log (a statelog.File: it keeps opaque records, which the model decodes
// in Open), undo after a failed commit, the readers' replica, the publish
// hook and the sign-ins. It knows nothing of HTTP: the server's handlers
// parse a request, call an operation in a write (Update) or a read
// (View), and render (docs/server.md).
package store

import (
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/engine"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/model"
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

// Store is the data of a running server with what keeps it whole: the
// log each writer's changes are committed to before the writer is
// answered (docs/server.md, model.State), and locks. A change is seen by
// readers only once it is durable, and a change whose commit failed is
// undone before anyone sees it: failed means not applied.
//
// Without a log, readers share one lock that a writer holds alone. With
// one, readers are served a replica of the data as last committed
// (published, replica.go), so that they never wait for a commit's sync:
// the writers' data (st) is changed and committed by one batch at a time
// under mu, and copied into the replica, under pubMu, once on disk.
type Store struct {
	mu sync.RWMutex // guards st and the data it holds

	pubMu     sync.RWMutex // guards published and the data it holds
	published *model.State // the readers' replica; nil without a log
	// nextOpening is when, in Unix microseconds, the writers' data has a
	// TRACKING alert to open (OpenDue); math.MaxInt64 for none.
	nextOpening atomic.Int64

	waitingMu sync.Mutex
	waiting   []*write // writers waiting for the batch that runs them (Update)
	leading   bool     // a writer is running a batch, or is about to

	st  *model.State
	eng *engine.Engine // the alert engine beside st
	// unreadable is set when a failed commit could not be undone (undo):
	// st may then hold what the log does not (the replica does not).
	unreadable *UnreadableError
	// readBack paces the tries to read the log back while it is
	// unreadable, so that requests on a broken disk are not each a read
	// of the whole file under the lock.
	readBack readBackPace
	seed     *fixture.Fixtures // what a reset goes back to (Seed); changed only before the store is shared
	log      Log               // nil: memory only
	clock    *Clock

	publish func(Outcome) // see Publish
	signIns atomic.Pointer[map[string]SignIn]

	savedClock  time.Time     // the virtual clock's time last committed
	savedOffset time.Duration // the real clock's offset last committed
}

// Outcome is what a write changed, and what it set off in the alert
// engine: notifications recorded, webhooks to send once the lock is
// released, and whether anything is still scheduled.
type Outcome struct {
	// Changes are the records the write changed, as it left them, in the
	// order they first changed (each once); an *APIKey or a *schedule is
	// read as it is now.
	Changes    []model.Change
	Notes      []*engine.Notification
	Deliveries []*engine.Delivery
	Pending    bool
	// Reset: the data went back to its seed (Tx.ResetTo), so what the
	// server keeps beside it goes too; Notes came after.
	Reset bool
	// PublishPanic: the publisher (Store.Publish) panicked on this
	// outcome, a bug; the write is applied all the same.
	PublishPanic *PanicError
}

// Alerts are the alerts the write changed, as it left them, in the order
// they first changed (each once): Cur and Project alone, what GET shows
// of them.
func (o *Outcome) Alerts() []alert.Rec {
	var out []alert.Rec
	for _, c := range o.Changes {
		if c.Kind != "alerts" && c.Kind != "globalAlerts" {
			continue
		}
		if d, _ := c.Rec.(*alert.Doc); d != nil {
			r := alert.Rec{Cur: d}
			if c.Kind == "alerts" {
				r.Project = d.GroupID
			}
			out = append(out, r)
		}
	}
	return out
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

// UnreadableError is the error of every write after a commit failed and
// the state file could not be read back to undo the change: the writers'
// data may hold it, so no write is made on it until the file reads back
// (readers are served their replica, which never held the change).
// Writes try to read it back, at most once in a while: 100 ms after the
// first failure, twice as long after each later one, up to 5 s.
type UnreadableError struct {
	Path string
	Err  error
}

func (e *UnreadableError) Error() string {
	return fmt.Sprintf("state file %s: a change could not be saved, and the file cannot be read back to undo it: %v", e.Path, e.Err)
}

func (e *UnreadableError) Unwrap() error { return e.Err }

// Open starts the store from the log when it holds data, else from seed,
// which is then committed to the log (if any). A reset (see Seed and
// Tx.ResetTo) goes back to seed, or, with logIsSeed and a log holding
// data, to what it held.
func Open(seed *fixture.Fixtures, log Log, clock *Clock, logIsSeed bool) (*Store, error) {
	s := &Store{seed: seed, log: log, clock: clock, readBack: readBackPace{now: time.Now}}
	s.start(seed.Clone())
	if log == nil {
		s.eng.Prepare(s.st, clock.Now())
		s.st.TakeChanges() // opened before anyone could listen
		s.refreshSignIns()
		return s, nil
	}
	if log.Empty() {
		s.st.ChangeAll()
	} else {
		data, err := fixture.ReadLog(log)
		if err != nil {
			return nil, err
		}
		if logIsSeed {
			s.seed = data
			data = data.Clone()
		}
		// The readers' copy is made from the data beside the writers',
		// on another processor, rather than copied from it after
		// (replicate): at a million alerts, a fifth of a restart.
		readers := make(chan *model.State)
		go func(f *fixture.Fixtures) { readers <- model.NewState(f, clock.Now()) }(data.Clone())
		s.start(data)
		s.published = <-readers
	}
	if _, err := s.Update(func(tx *engine.Tx) { tx.Prepare(clock.Now()) }); err != nil {
		return nil, err
	}
	s.refreshSignIns()
	return s, nil
}

// start makes the writers' data from f (which it takes over), and the
// engine beside it, resuming the schedules f holds (under mu, or before
// the store is shared).
func (s *Store) start(f *fixture.Fixtures) {
	now := s.clock.Now()
	s.st = model.NewState(f, now)
	s.eng = engine.New(s.st, f.Schedules, now)
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

// Seed is the fixtures a reset goes back to.
func (s *Store) Seed() *fixture.Fixtures { return s.seed }

// View runs fn with the data under a read lock: views run side by side,
// and with a log beside writes too, on the data as last committed.
// A state file that could not be read back to undo a failed write
// (UnreadableError) stops writes, not reads: the replica never held the
// failed change.
func (s *Store) View(fn func(*model.State)) error {
	if s.log != nil {
		s.pubMu.RLock()
		defer s.pubMu.RUnlock()
		return viewing(fn, s.published)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return viewing(fn, s.st)
}

// viewing runs fn with st, returning a panic as a PanicError.
func viewing(fn func(*model.State), st *model.State) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	fn(st)
	return nil
}

// Update runs fn with the data under the write lock and commits what it
// changed to the log before it lets go of the lock, and before readers
// are given the change (with a log, they read a replica that is brought
// up to date once the change is on disk), so that no reader sees a
// change that is not on disk. When the commit fails, the data and
// the clock go back to what they were before fn (the log holds exactly
// that), and a *CommitError says why: the change is not applied, and no
// later commit writes it. A panic in fn is returned as a PanicError.
//
// Writers that come together are committed together (group commit): a
// writer that finds no batch running leads one, running every waiting
// writer's fn in the order they came, under the lock, and committing them
// at once; writers that come meanwhile wait, and the first of them leads
// the next batch once this one is done. A commit costs a sync of the disk
// whatever it holds; one sync a writer let 16 writers hold the lock all
// the time on a slow disk, while a batch holds it about as long as one.
// Only the leader takes the lock: when each writer of a batch took it in
// turn, if only to find its write done, each turn also waited for the
// readers in between (docs/performance.md). A
// batch is applied whole or not at all: if its commit fails, or one of
// its fns panics, each of its writers gets an error and none of their
// changes is applied (with a log to go back to; without one, the writes
// beside a panicking fn stay applied). fn may thus run on another
// writer's goroutine: it must not block, and must not call runtime.Goexit
// (should it, its batch fails the same way).
func (s *Store) Update(fn func(*engine.Tx)) (Outcome, error) {
	w := &write{fn: fn, done: make(chan struct{})}
	s.waitingMu.Lock()
	s.waiting = append(s.waiting, w)
	lead := !s.leading
	s.leading = true
	s.waitingMu.Unlock()
	if !lead {
		<-w.done // run by a leader, or to lead
		lead = w.lead
	}
	if lead {
		s.lead(w)
	}
	return w.out, w.err
}

// lead runs the batch of every writer waiting now, leader among them,
// then tells each the outcome, and hands the lead to the first writer
// that came since (even when a fn ends the leader's goroutine).
func (s *Store) lead(leader *write) {
	s.waitingMu.Lock()
	batch := s.waiting
	s.waiting = nil
	s.waitingMu.Unlock()
	defer func() {
		s.waitingMu.Lock()
		if len(s.waiting) > 0 {
			next := s.waiting[0]
			next.lead = true
			close(next.done)
		} else {
			s.leading = false
		}
		s.waitingMu.Unlock()
		for _, w := range batch {
			if w != leader {
				close(w.done)
			}
		}
	}()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runBatch(batch)
	s.noteNextOpening()
}

// noteNextOpening keeps when the writers' data next opens a TRACKING
// alert, for OpenDue to read without a lock (under mu).
func (s *Store) noteNextOpening() {
	next := int64(math.MaxInt64)
	if s.unreadable == nil {
		if at, ok := s.eng.NextOpening(); ok {
			next = at.UnixMicro()
		}
	}
	s.nextOpening.Store(next)
}

// Scheduled reports whether raised alerts have anything left to do in
// time (Engine.Scheduled), in the writers' data: the readers' replica has
// no engine.
func (s *Store) Scheduled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.unreadable == nil && s.eng.Scheduled()
}

// Publish has the store call fn with the outcome of each write once it is
// committed, in the order the writes were applied, before any of their
// writers returns: what the server keeps beside the data (the
// notification log) then follows the data's order, even within a batch.
// fn runs under the write lock: it must not block or call the store.
// Call Publish before the store is shared.
func (s *Store) Publish(fn func(Outcome)) { s.publish = fn }

// write is a writer waiting for its fn to be run and committed; out and
// err are set, under mu, by whoever runs it.
type write struct {
	fn   func(*engine.Tx)
	out  Outcome
	err  error
	done chan struct{} // closed once out and err are set, or to lead
	lead bool          // set before done is closed, to lead
}

// errNotApplied is the error of a write whose batch failed for another
// of its writes: it was not applied either.
var errNotApplied = errors.New("the change was not applied: a change committed with it failed")

// runBatch runs the writers' fns one after another and commits their
// changes at once (under mu); see Update.
func (s *Store) runBatch(batch []*write) {
	if len(batch) == 0 {
		return
	}
	if s.unreadable != nil {
		if s.readBack.due() {
			s.undo()
		}
		if s.unreadable != nil {
			for _, w := range batch {
				w.err = s.unreadable
			}
			return
		}
		s.refreshSignIns()
	}
	before := s.clock.mark()
	savedClock, savedOffset := s.savedClock, s.savedOffset
	fail := func(err error) {
		for _, w := range batch { // first: should undo panic, none is told it was applied
			if w.err == nil || w.err == errNotApplied {
				w.err = err
			}
			w.out = Outcome{}
		}
		s.clock.restore(before)
		s.savedClock, s.savedOffset = savedClock, savedOffset
		if s.undo(); s.unreadable == nil {
			s.refreshSignIns() // the data's principals, as the log holds them
		}
	}
	settled := false
	defer func() {
		if settled {
			return
		}
		// Stopped by a panic outside the fns (encoding, the log) or a
		// Goexit in one: nothing of the batch is known to be on disk.
		var err error = errNotApplied
		if v := recover(); v != nil {
			err = &PanicError{Value: v, Stack: debug.Stack()}
		}
		fail(err)
	}()
	for _, w := range batch {
		w.err = errNotApplied // until it has run
	}
	panicked := false
	for _, w := range batch {
		w.out, w.err = s.runLocked(w.fn)
		panicked = panicked || w.err != nil
	}
	// Once for the batch: rebuilding an index costs in proportion to its
	// alerts, and a batch of raises behind the clock would rebuild it for
	// each (docs/performance.md).
	s.st.ReindexAlerts()
	switch {
	case s.log == nil:
		// Nothing to commit, and without a log nothing to go back to
		// either: beside a panicking fn, the other writes stay, and say so.
		s.st.TakeChanges()
	case panicked:
		fail(errNotApplied)
	default:
		b, recs, all, err := s.takeBatch()
		if err == nil && b != nil {
			if cerr := s.log.Commit(b); cerr != nil {
				err = &CommitError{Path: s.log.Path(), Err: cerr}
			}
		}
		if err != nil {
			fail(err)
		} else {
			s.publishData(recs, all)
		}
	}
	settled = true
	s.publishBatch(batch)
}

// publishData brings the readers' replica up to the batch just committed
// (under mu): record by record, readers waiting only for the copying, or
// whole after a change of all (a seed, a reset) or of a kind copySlot
// does not copy, the new replica made before readers wait.
func (s *Store) publishData(recs []model.Change, all bool) {
	if s.log == nil {
		return
	}
	for _, rec := range recs {
		all = all || !model.Copyable(rec.Kind)
	}
	if all || s.published == nil {
		whole := s.st.Replicate()
		s.pubMu.Lock()
		s.published = whole
		s.pubMu.Unlock()
		return
	}
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	for _, rec := range recs {
		if !s.published.CopySlot(s.st, rec) {
			s.published = s.st.Replicate() // a bug: copied whole, readers waiting
			return
		}
	}
	s.published.ReindexAlerts()
}

// publishBatch brings the sign-ins up to date and publishes the outcomes
// of the batch's applied writes, in order (under mu). A panic in the
// publisher is a bug: it is not to stop the writer that led the batch
// (the engine's loop, say), nor the publishing of the others, and the
// write stays what it is, applied: Outcome.PublishPanic says what went
// wrong, for the caller to log.
func (s *Store) publishBatch(batch []*write) {
	if s.st.TakeSignIns() {
		s.refreshSignIns()
	}
	if s.publish == nil {
		return
	}
	for _, w := range batch {
		if w.err == nil {
			func() {
				defer func() {
					if v := recover(); v != nil {
						w.out.PublishPanic = &PanicError{Value: v, Stack: debug.Stack()}
					}
				}()
				s.publish(w.out)
			}()
		}
	}
}

// undo puts back the data the log holds, after a commit failed (under
// mu). The log holds the data as it was before the change, whole: a
// restart would serve the same. Rebuilding costs in proportion to the
// data, but only when a commit fails (a full disk, an I/O error), and
// keeps the everyday path free of bookkeeping. Should the log not be
// readable either, memory may keep the change: s.unreadable then keeps
// readers and writers from it until the log reads back.
func (s *Store) undo() {
	if s.log == nil {
		return
	}
	data, err := fixture.ReadLog(s.log)
	if err != nil {
		// The sign-ins keep the principals of the last commit, and no
		// reader or writer gets st until the file reads back.
		s.unreadable = &UnreadableError{Path: s.log.Path(), Err: err}
		s.readBack.failed()
		return
	}
	s.unreadable = nil
	s.readBack.wait = 0
	s.start(data)
	s.eng.Index(s.st)
}

// The pace of the tries to read the log back (UnreadableError).
const (
	firstReadBackWait = 100 * time.Millisecond
	maxReadBackWait   = 5 * time.Second
)

// readBackPace says when the log is next to be read back, after a try
// that failed (under mu; due under the read lock too).
type readBackPace struct {
	now  func() time.Time // time.Now; a test's clock
	next time.Time
	wait time.Duration // after the last try; 0 before any
}

func (p *readBackPace) due() bool { return !p.now().Before(p.next) }

func (p *readBackPace) failed() {
	p.wait = min(max(2*p.wait, firstReadBackWait), maxReadBackWait)
	p.next = p.now().Add(p.wait)
}

// OpenDue opens the TRACKING alerts whose delay has passed by now, taking
// the write lock only when there are some.
func (s *Store) OpenDue(now time.Time) (Outcome, error) {
	if s.log != nil {
		// The readers' replica has no engine: the writers' data says when.
		if now.UnixMicro() < s.nextOpening.Load() {
			return Outcome{}, nil
		}
		return s.Update(func(tx *engine.Tx) { tx.PromoteAll(now) })
	}
	s.mu.RLock()
	due := s.eng.AnyDue(now)
	s.mu.RUnlock()
	if !due {
		return Outcome{}, nil
	}
	return s.Update(func(tx *engine.Tx) { tx.PromoteAll(now) })
}

// runLocked runs fn (under mu), then the engine's reaction to what its
// operations changed (Engine.process, at the clock's time), and takes
// what the write set off in the engine.
func (s *Store) runLocked(fn func(*engine.Tx)) (out Outcome, err error) {
	defer func() {
		if v := recover(); v != nil {
			// What the fn set off goes with it, not to the next write.
			s.eng.Take()
			s.st.DropWrite()
			out, err = Outcome{}, &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	out.Notes, out.Deliveries = s.eng.Run(s.st, fn, s.clock.Now)
	out.Changes = s.st.Written()
	out.Reset = s.st.WasReset()
	out.Pending = s.eng.Scheduled()
	return out, nil
}

// takeBatch encodes what changed since the last commit, to be committed
// (under mu), and returns the records it holds and whether they are all
// the data: the batch is nil when nothing changed.
func (s *Store) takeBatch() (b *statelog.Batch, recs []model.Change, all bool, err error) {
	recs, all = s.st.TakeChanges()
	if all {
		recs = append(s.st.AllRecords(), s.eng.Records()...)
	}
	if len(recs) == 0 && !all && !s.clockMoved() {
		return nil, nil, false, nil
	}
	if b, err = encodeBatch(recs, all, s.clock); err != nil {
		return nil, nil, false, fmt.Errorf("state file %s: %w", s.log.Path(), err)
	}
	return b, recs, all, nil
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
