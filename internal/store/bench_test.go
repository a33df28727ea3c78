package store

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/engine"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/fixture/fixturetest"
	"github.com/omctl/omctl/internal/store/statelog"
	"github.com/omctl/omctl/internal/store/statelog/statelogtest"
)

// BenchmarkStartFromFixtures is fixture.LoadFixtures and the store it opens,
// as omctl server --fixtures starts (docs/performance.md).
func BenchmarkStartFromFixtures(b *testing.B) {
	path := generatedFixtureFile(b, 20000)
	b.ReportAllocs()
	for b.Loop() {
		f, err := fixture.LoadFixtures(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Open(f, nil, VirtualClock(start), false); err != nil {
			b.Fatal(err)
		}
	}
}

// generatedFixtureFile writes a fixture of n alerts of projA shaped as
// the benchmarks' generator writes them (bench/internal/benchdata) to a
// file: no resolved on CLOSED alerts, and a host and replica set on every
// alert, which most event types do not show.
func generatedFixtureFile(b *testing.B, n int) string {
	return fixturetest.GeneratedFile(b, n, projA, start)
}

// BenchmarkRestartFromLog opens a state file of 20,000 alerts and the
// store from it, as omctl server --state restarts (docs/performance.md).
func BenchmarkRestartFromLog(b *testing.B) {
	f, err := fixture.LoadFixtures(generatedFixtureFile(b, 20000))
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "state.db")
	file, err := statelog.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := Open(f, file, VirtualClock(start), false); err != nil {
		b.Fatal(err)
	}
	file.Close()
	b.ReportAllocs()
	for b.Loop() {
		file, err := statelog.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Open(fixture.Default(), file, VirtualClock(start), true); err != nil {
			b.Fatal(err)
		}
		file.Close()
	}
}

// writeBenchStore is a store on the default fixtures with a log in
// memory, a configuration of project that notifies an email and a webhook
// target at once and every minute, and a virtual clock at start.
func writeBenchStore(b *testing.B) (*Store, string) {
	b.Helper()
	f := fixture.Default()
	project := f.Projects[0]["id"].(string)
	f.AlertConfigs = append(f.AlertConfigs, rules.Doc{"id": "5f2a00000000000000000001", "groupId": project, "eventTypeName": "HOST_DOWN", "enabled": true,
		"notifications": []any{map[string]any{"typeName": "EMAIL", "emailAddress": "a@example.com", "delayMin": int64(0), "intervalMin": int64(1)},
			map[string]any{"typeName": "WEBHOOK", "webhookUrl": "http://127.0.0.1:1/x", "webhookSecret": "s", "delayMin": int64(0), "intervalMin": int64(1)}}})
	st, err := Open(f, statelogtest.NewMemory(), VirtualClock(start), false)
	if err != nil {
		b.Fatal(err)
	}
	return st, project
}

// BenchmarkAcknowledge is one acknowledgement's write, committed, of an
// OPEN alert whose two targets were notified: the write path of PATCH of
// an alert (each acknowledgement tells both targets again).
func BenchmarkAcknowledge(b *testing.B) {
	st, project := writeBenchStore(b)
	var r *alert.Rec
	if _, err := st.Update(func(s *engine.Tx) {
		r = s.Apply(engine.Condition{Project: project, Event: "HOST_DOWN", Target: alert.Target{HostnameAndPort: "db1:27017"}}, start)[0]
		s.RunUntil(start)
	}); err != nil {
		b.Fatal(err)
	}
	until := rules.FormatTime(start.Add(time.Hour))
	b.ReportAllocs()
	for b.Loop() {
		out, err := st.Update(func(s *engine.Tx) { s.SetAlert(r, r.Cur.Acknowledged(until, "", "bench", start)) })
		if err != nil || len(out.Notes) != 2 {
			b.Fatalf("acknowledged with %d notifications: %v", len(out.Notes), err)
		}
	}
}

// BenchmarkRaiseNotify is a condition raising an alert whose two targets
// are notified at once, then clearing it: two writes, committed.
func BenchmarkRaiseNotify(b *testing.B) {
	st, project := writeBenchStore(b)
	target := alert.Target{HostnameAndPort: "db1:27017"}
	b.ReportAllocs()
	for b.Loop() {
		out, err := st.Update(func(s *engine.Tx) {
			s.Apply(engine.Condition{Project: project, Event: "HOST_DOWN", Target: target}, start)
			s.RunUntil(start)
		})
		if err != nil || len(out.Notes) != 2 {
			b.Fatalf("raised with %d notifications: %v", len(out.Notes), err)
		}
		if _, err := st.Update(func(s *engine.Tx) {
			s.Apply(engine.Condition{Project: project, Event: "HOST_DOWN", Target: target, Resolved: true}, start)
		}); err != nil {
			b.Fatal(err)
		}
	}
}
