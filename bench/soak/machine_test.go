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
