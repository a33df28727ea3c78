package main

import (
	"strings"
	"testing"
	"time"
)

// The machine's report puts each slow probe on the requests' timeline:
// the worst of each second, by when it began, none from before the first
// request.
func TestTheMachineReportPutsSlowProbesOnTheTimeline(t *testing.T) {
	first := time.Date(2026, 11, 26, 6, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return first.Add(time.Duration(s * float64(time.Second))) }
	w := &machineWatch{
		syncs: []probe{
			{at(-0.5), 200 * time.Millisecond}, // before the first request
			{at(1), time.Millisecond},
			{at(73.2), 60 * time.Millisecond},
			{at(73.7), 90 * time.Millisecond},
			{at(12), 51 * time.Millisecond},
			{at(40), 50 * time.Millisecond}, // not over
		},
		sleeps: []probe{{at(2), time.Millisecond}, {at(70.5), 71 * time.Millisecond}},
	}
	var out strings.Builder
	w.report(&out, first)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("report = %q, want two lines", out.String())
	}
	if want := "max 200ms; over 50ms at: 12 s (51ms), 73 s (90ms)"; !strings.HasSuffix(lines[0], want) {
		t.Errorf("syncs: %q, want it to end %q", lines[0], want)
	}
	if want := "over 30ms at: 70 s (71ms)"; !strings.HasSuffix(lines[1], want) {
		t.Errorf("sleeps: %q, want it to end %q", lines[1], want)
	}
}

// Each kind of request is held to its own baseline, outside the year's
// move: only those during the move over the baseline's p99 plus 100 ms
// count.
func TestRequestsAreHeldToTheirKindsBaseline(t *testing.T) {
	from := time.Date(2026, 11, 28, 6, 0, 0, 0, time.UTC)
	to := from.Add(time.Minute)
	var samples []sample
	add := func(kind string, at time.Time, ms ...int) {
		for _, m := range ms {
			samples = append(samples, sample{at: at, took: time.Duration(m) * time.Millisecond, status: 200, kind: kind})
		}
	}
	for range 100 {
		add("GET slow", from.Add(-time.Hour), 150) // a slow kind: its baseline is 150 ms
		add("GET fast", from.Add(-time.Hour), 5)
	}
	add("GET slow", from.Add(time.Second), 240, 260) // 260 > 150 + 100
	add("GET fast", from.Add(time.Second), 90, 110)  // 110 > 5 + 100
	var out strings.Builder
	beyondBaseline(&out, samples, from, to)
	for _, want := range []string{
		"GET fast:        p99 5ms (worst 5ms) outside the move, worst 110ms during it; 1 over baseline + 100 ms",
		"GET slow:        p99 150ms (worst 150ms) outside the move, worst 260ms during it; 1 over baseline + 100 ms",
		"requests over 100 ms beyond their kind's baseline: 2",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}
