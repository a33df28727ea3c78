package server

import (
	"errors"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/store/statelog"
)

// The engine's loop on the real clock waits longer and longer, up to
// maxTickBackoff, after ticks that cannot be saved: each failure rebuilds
// the data under the lock. A tick that works brings it back to engineTick.
// (What the loop waits for is recorded, not waited; only the store's own
// pace of reading the file back, a fraction of a second, is real time.)
func TestTheEngineLoopBacksOffFromTicksThatCannotBeSaved(t *testing.T) {
	e, log := newFaultyEnv(t, fixtureJSON)
	waits, done := make(chan time.Duration), make(chan struct{})
	defer close(done)
	e.s.tickAfter = func(d time.Duration) <-chan time.Time {
		fired := make(chan time.Time, 1)
		select {
		case waits <- d:
			fired <- time.Time{}
		case <-done:
		}
		return fired
	}
	// A write that cannot be saved, nor undone: every tick fails until the
	// state file reads back.
	log.FailCommits(func(*statelog.Batch) error { return errors.New("disk full") })
	log.FailReads(errors.New("I/O error"))
	e.expect(e.do("owner", "POST", "/admin/backup/oplog/s3Configs", oplogBody(nil)), 500, "UNEXPECTED_ERROR")
	log.FailCommits(nil)
	e.s.startTicker()
	next := func() time.Duration {
		select {
		case d := <-waits:
			return d
		case <-time.After(10 * time.Second):
			t.Fatal("the engine loop did not wait again")
			return 0
		}
	}
	want := engineTick
	for range 12 {
		if got := next(); got != want {
			t.Fatalf("the loop waits %v, want %v", got, want)
		}
		want = min(2*want, maxTickBackoff)
	}
	log.FailReads(nil)
	// The store reads the file back at its own pace, a fraction of a
	// second after its last try: ticks fail until then. The tick that
	// works is followed by a wait of engineTick (the fixture keeps work
	// pending), which only a loop that starts its back-off afresh waits.
	deadline := time.Now().Add(10 * time.Second)
	for got := next(); got != engineTick; got = next() {
		if got != maxTickBackoff {
			t.Fatalf("while ticks fail the loop waits %v, want %v", got, maxTickBackoff)
		}
		if time.Now().After(deadline) {
			t.Fatal("the loop still backs off 10 s after the state file reads back")
		}
	}
}
