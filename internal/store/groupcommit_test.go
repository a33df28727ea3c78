package store

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/store/engine"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/model"
	"github.com/omctl/omctl/internal/store/statelog"
)

// holdFirstCommit makes the first commit of s wait until n more writers
// wait for the lock, so that those n are certain to make one batch; then
// each commit is counted, and refused when refuse says so.
func holdFirstCommit(t *testing.T, s *Store, n int, refuse func(commit int64) bool) *atomic.Int64 {
	t.Helper()
	var commits atomic.Int64
	failCommits(s, func(*statelog.Batch) error {
		c := commits.Add(1)
		if c == 1 {
			deadline := time.Now().Add(10 * time.Second)
			for s.waitingCount() < n {
				if time.Now().After(deadline) {
					return errors.New("the other writers never came")
				}
				time.Sleep(time.Millisecond)
			}
		}
		if refuse(c) {
			return errUnwritable
		}
		return nil
	})
	return &commits
}

func (s *Store) waitingCount() int {
	s.waitingMu.Lock()
	defer s.waitingMu.Unlock()
	return len(s.waiting)
}

// updateAll runs the first write, then n more side by side while the
// first commits, and returns each write's error (the first's at 0).
func updateAll(s *Store, n int, write func(i int) func(*engine.Tx)) []error {
	errs := make([]error, n+1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); _, errs[0] = s.Update(write(0)) }()
	for s.mu.TryRLock() { // until the first write holds the lock
		s.mu.RUnlock()
		time.Sleep(time.Millisecond)
	}
	for i := 1; i <= n; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); _, errs[i] = s.Update(write(i)) }()
	}
	wg.Wait()
	return errs
}

func createStore(i int) func(*engine.Tx) {
	return func(st *engine.Tx) { st.CreateOplogStore(oplogStore(fmt.Sprintf("g%d", i), i+1)) }
}

func TestWritersWaitingTogetherAreCommittedInOneBatch(t *testing.T) {
	s, path := openStore(t)
	commits := holdFirstCommit(t, s, 15, func(int64) bool { return false })
	for i, err := range updateAll(s, 15, createStore) {
		if err != nil {
			t.Errorf("write %d: %v", i, err)
		}
	}
	if got := commits.Load(); got != 2 {
		t.Errorf("16 writes made %d commits, want 2: the first, then the 15 that waited for it", got)
	}
	disk := onDisk(t, s, path).OplogStores()
	for i := range 16 {
		if got := disk.Get(fmt.Sprintf("g%d", i)); got == nil || got.Members()["s3MaxConnections"] != int64(i+1) {
			t.Errorf("g%d on disk: %v", i, got)
		}
	}
}

func TestAFailedBatchFailsEachOfItsWritesAndAppliesNone(t *testing.T) {
	s, path := openStore(t)
	holdFirstCommit(t, s, 15, func(c int64) bool { return c == 2 })
	errs := updateAll(s, 15, createStore)
	if errs[0] != nil {
		t.Errorf("the first write, committed alone: %v", errs[0])
	}
	for i, err := range errs[1:] {
		var cerr *CommitError
		if !errors.As(err, &cerr) {
			t.Errorf("write %d of the failed batch: %v, want a CommitError", i+1, err)
		}
	}
	var inMemory int
	s.View(func(st *model.State) { inMemory = st.OplogStores().Len() })
	disk := onDisk(t, s, path).OplogStores()
	if disk.Get("g0") == nil {
		t.Error("the first write is not on disk")
	}
	for i := 1; i <= 15; i++ {
		if got := disk.Get(fmt.Sprintf("g%d", i)); got != nil {
			t.Errorf("g%d of the failed batch is on disk", i)
		}
	}
	if inMemory != disk.Len() {
		t.Errorf("memory holds %d stores, the state file %d: the failed batch stayed in memory", inMemory, disk.Len())
	}
}

// A panic is a bug, and the part of the change made before it cannot be
// told from the rest of its batch: the batch fails whole, so that no
// write is answered 500 yet applied.
func TestAPanicInOneChangeFailsItsBatchAndAppliesNone(t *testing.T) {
	s, path := openStore(t)
	holdFirstCommit(t, s, 3, func(int64) bool { return false })
	errs := updateAll(s, 3, func(i int) func(*engine.Tx) {
		if i == 2 {
			return func(st *engine.Tx) {
				st.CreateOplogStore(oplogStore("half", 1))
				panic("bug")
			}
		}
		return createStore(i)
	})
	var perr *PanicError
	if !errors.As(errs[2], &perr) || perr.Value != "bug" {
		t.Errorf("the panicking write: %v", errs[2])
	}
	for _, i := range []int{1, 3} {
		if !errors.Is(errs[i], errNotApplied) {
			t.Errorf("write %d of the panicking batch: %v, want errNotApplied", i, errs[i])
		}
	}
	assertStores(t, s, path, map[string]bool{"g0": true, "g1": false, "half": false, "g3": false})
}

// A panic outside the changes (encoding, the log) leaves nothing of the
// batch applied, and tells each of its writers.
func TestAPanicInTheCommitFailsEachWriteOfTheBatch(t *testing.T) {
	s, path := openStore(t)
	var first atomic.Bool
	failCommits(s, func(*statelog.Batch) error {
		if first.CompareAndSwap(false, true) {
			for s.waitingCount() < 2 {
				time.Sleep(time.Millisecond)
			}
			return nil
		}
		panic("bug in the log")
	})
	errs := make([]error, 3)
	var wg sync.WaitGroup
	run := func(i int) {
		defer wg.Done()
		_, errs[i] = s.Update(createStore(i))
	}
	wg.Add(1)
	go run(0)
	for s.mu.TryRLock() {
		s.mu.RUnlock()
		time.Sleep(time.Millisecond)
	}
	wg.Add(2)
	go run(1)
	go run(2)
	wg.Wait()
	failCommits(s, nil)
	if errs[0] != nil {
		t.Errorf("the first write: %v", errs[0])
	}
	for _, i := range []int{1, 2} {
		var perr *PanicError
		if !errors.As(errs[i], &perr) {
			t.Errorf("write %d of the batch whose commit panicked: %v", i, errs[i])
		}
	}
	assertStores(t, s, path, map[string]bool{"g0": true, "g1": false, "g2": false})
}

// assertStores checks which stores memory and the state file hold.
func assertStores(t *testing.T, s *Store, path string, want map[string]bool) {
	t.Helper()
	mem := map[string]bool{}
	s.View(func(st *model.State) {
		for id := range want {
			mem[id] = st.OplogStores().Get(id) != nil
		}
	})
	disk := onDisk(t, s, path).OplogStores()
	for id, w := range want {
		if mem[id] != w || (disk.Get(id) != nil) != w {
			t.Errorf("store %s: in memory %v, on disk %v, want %v", id, mem[id], disk.Get(id) != nil, w)
		}
	}
}

// Without a state file there is nothing to go back to: the writes beside
// a panicking change are applied, and must say so.
func TestWithoutALogAPanicFailsOnlyItsOwnWrite(t *testing.T) {
	s, err := Open(fixture.Default(), nil, VirtualClock(start), false)
	if err != nil {
		t.Fatal(err)
	}
	held, release := make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	go func() { s.Update(func(*engine.Tx) { close(held); <-release }); close(done) }()
	<-held
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn := createStore(i)
			if i == 1 {
				fn = func(*engine.Tx) { panic("bug") }
			}
			_, errs[i] = s.Update(fn)
		}()
		for s.waitingCount() < i+1 {
			time.Sleep(time.Millisecond)
		}
	}
	close(release)
	wg.Wait()
	<-done
	var perr *PanicError
	if errs[0] != nil || errs[2] != nil || !errors.As(errs[1], &perr) {
		t.Fatalf("errors: %v", errs)
	}
	s.View(func(st *model.State) {
		if st.OplogStores().Get("g0") == nil || st.OplogStores().Get("g2") == nil {
			t.Error("the writes beside a panic are not applied")
		}
	})
}

// A panic in the publisher comes after the commit: the write is applied,
// and says so, with the panic beside it for the caller to log.
func TestAPanicInThePublisherLeavesTheWriteApplied(t *testing.T) {
	s, path := openStore(t)
	s.Publish(func(Outcome) { panic("bug in the publisher") })
	out, err := s.Update(createStore(0))
	if err != nil || out.PublishPanic == nil || out.PublishPanic.Value != "bug in the publisher" {
		t.Fatalf("Update: %v, publish panic %v", err, out.PublishPanic)
	}
	assertStores(t, s, path, map[string]bool{"g0": true})
}

// What the server keeps beside the data follows the data's order, even
// within one batch: a write, a reset, a write are published in that order.
func TestABatchIsPublishedInTheOrderItWasApplied(t *testing.T) {
	s, _ := openStore(t)
	var published []string
	s.Publish(func(out Outcome) {
		if out.Reset {
			published = append(published, "reset")
		} else {
			published = append(published, "write")
		}
	})
	held, release := make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	go func() { s.Update(func(*engine.Tx) { close(held); <-release }); close(done) }()
	<-held
	fns := []func(*engine.Tx){createStore(1), func(st *engine.Tx) { st.ResetTo(s.Seed(), start) }, createStore(2)}
	var wg sync.WaitGroup
	for i, fn := range fns {
		wg.Add(1)
		go func() { defer wg.Done(); s.Update(fn) }()
		for s.waitingCount() < i+1 { // one after another: their order is the batch's
			time.Sleep(time.Millisecond)
		}
	}
	close(release)
	wg.Wait()
	<-done
	if got := fmt.Sprint(published); got != "[write write reset write]" {
		t.Errorf("published %s, want the holder's write, then write, reset, write", got)
	}
	s.View(func(st *model.State) {
		if st.OplogStores().Get("g1") != nil || st.OplogStores().Get("g2") == nil {
			t.Error("the reset did not come between the two writes")
		}
	})
}

// A writer whose write another led to disk returns once the batch is
// committed: it does not take the lock itself, and so does not wait, after
// its write is done, for readers that came in the meantime.
// (Without a state file, as readers share the writers' lock then; with
// one, readers read a replica, and the leader alone takes its lock, once
// a batch, to copy the batch into it.)
func TestAWriteRunByAnotherReturnsWithoutWaitingForReaders(t *testing.T) {
	s, err := Open(fixture.Default(), nil, VirtualClock(start), false)
	if err != nil {
		t.Fatal(err)
	}
	held, release := make(chan struct{}), make(chan struct{})
	go s.Update(func(*engine.Tx) { close(held); <-release })
	<-held
	readerIn, readerOut := make(chan struct{}), make(chan struct{})
	defer close(readerOut)
	lead := func(st *engine.Tx) {
		createStore(1)(st)
		// A reader that comes while the batch holds the lock gets it next.
		go s.View(func(*model.State) { close(readerIn); <-readerOut })
		time.Sleep(20 * time.Millisecond)
	}
	go s.Update(lead)
	for s.waitingCount() < 1 {
		time.Sleep(time.Millisecond)
	}
	followed := make(chan error, 1)
	go func() { _, err := s.Update(createStore(2)); followed <- err }()
	for s.waitingCount() < 2 {
		time.Sleep(time.Millisecond)
	}
	close(release)
	<-readerIn
	select {
	case err := <-followed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a write committed in another's batch waited for a reader that came after it")
	}
}
