package store

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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
func updateAll(s *Store, n int, write func(i int) func(*State)) []error {
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

func createStore(i int) func(*State) {
	return func(st *State) { st.CreateOplogStore(oplogStore(fmt.Sprintf("g%d", i), i+1)) }
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
		if got := disk.Get(fmt.Sprintf("g%d", i)); got == nil || got.raw()["s3MaxConnections"] != int64(i+1) {
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
	s.View(func(st *State) { inMemory = st.OplogStores().Len() })
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

func TestAPanicFailsOnlyItsOwnWriteOfABatch(t *testing.T) {
	s, path := openStore(t)
	holdFirstCommit(t, s, 3, func(int64) bool { return false })
	errs := updateAll(s, 3, func(i int) func(*State) {
		if i == 2 {
			return func(*State) { panic("bug") }
		}
		return createStore(i)
	})
	var perr *PanicError
	if !errors.As(errs[2], &perr) {
		t.Errorf("the panicking write: %v", errs[2])
	}
	disk := onDisk(t, s, path).OplogStores()
	for _, i := range []int{0, 1, 3} {
		if errs[i] != nil || disk.Get(fmt.Sprintf("g%d", i)) == nil {
			t.Errorf("write %d beside a panic: %v, on disk %v", i, errs[i], disk.Get(fmt.Sprintf("g%d", i)))
		}
	}
}
