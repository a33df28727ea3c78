package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// machineWatch measures the machine itself while the soak runs, apart
// from omctl: how long a small write and sync of a file beside the state
// file takes, and how late a short sleep of the load generator wakes. A
// tail of requests that comes with a slow sync is the disk's, which the
// server cannot hide from writers (a write is answered only once it is
// on disk); one that comes with late sleeps is the machine stalling.
type machineWatch struct {
	mu     sync.Mutex
	syncs  []probe // how long each write and sync took
	sleeps []probe // how late each sleep woke
	err    error
}

type probe struct {
	at   time.Time
	took time.Duration
}

const (
	syncEvery   = 50 * time.Millisecond // a sync of its own 20 times a second, beside the server's hundreds
	sleepFor    = 5 * time.Millisecond
	slowSync    = 50 * time.Millisecond
	lateWake    = 30 * time.Millisecond
	probeLength = 4096
)

// watchMachine probes the disk under dir and the timers until stop is
// closed; wait returns once both probes have ended.
func watchMachine(dir string, stop <-chan struct{}) (w *machineWatch, wait func()) {
	w = &machineWatch{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if err := w.probeDisk(filepath.Join(dir, "machine-probe"), stop); err != nil {
			w.mu.Lock()
			w.err = err
			w.mu.Unlock()
		}
	}()
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			t0 := time.Now()
			time.Sleep(sleepFor)
			w.add(&w.sleeps, t0, time.Since(t0)-sleepFor)
		}
	}()
	return w, wg.Wait
}

func (w *machineWatch) probeDisk(path string, stop <-chan struct{}) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	page := make([]byte, probeLength)
	tick := time.NewTicker(syncEvery)
	defer tick.Stop()
	for n := byte(0); ; n++ {
		select {
		case <-stop:
			return nil
		case <-tick.C:
		}
		page[0] = n
		t0 := time.Now()
		if _, err := f.WriteAt(page, 0); err != nil {
			return err
		}
		if err := syncData(f); err != nil {
			return err
		}
		w.add(&w.syncs, t0, time.Since(t0))
	}
}

func (w *machineWatch) add(to *[]probe, at time.Time, took time.Duration) {
	w.mu.Lock()
	*to = append(*to, probe{at, took})
	w.mu.Unlock()
}

// report prints both probes' p50, p99 and worst, and when a sync was slow
// or a sleep woke late: in seconds from first, by when each began, as the
// requests over 100 ms are, so that a stall shows in the second its
// requests began (or, across a second's end, the one before).
func (w *machineWatch) report(out io.Writer, first time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		fmt.Fprintf(out, "the machine: the disk probe stopped: %v\n", w.err)
	}
	line := func(what string, ps []probe, over time.Duration) {
		ds := make([]time.Duration, len(ps))
		bySecond := map[int]time.Duration{}
		for i, p := range ps {
			ds[i] = p.took
			if p.took > over && !p.at.Before(first) {
				sec := int(p.at.Sub(first).Seconds())
				bySecond[sec] = max(bySecond[sec], p.took)
			}
		}
		slices.Sort(ds)
		ms := func(d time.Duration) string { return d.Round(time.Millisecond).String() }
		fmt.Fprintf(out, "the machine: %s %d times, p50 %s p99 %s max %s; over %s at: %s\n",
			what, len(ds), pct(ds, 50), pct(ds, 99), pct(ds, 100), over, timeline(bySecond, ms))
	}
	line(fmt.Sprintf("a %d-byte write and sync beside the state file,", probeLength), w.syncs, slowSync)
	line(fmt.Sprintf("a %s sleep of the load generator woke late", sleepFor), w.sleeps, lateWake)
}
