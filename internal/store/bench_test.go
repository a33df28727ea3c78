package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/statelog"
)

// BenchmarkIndexActiveAlerts is what the first event after start-up costs
// when 100,000 active alerts were loaded: the engine indexes them by
// configuration and target (docs/performance.md).
func BenchmarkIndexActiveAlerts(b *testing.B) {
	f, _ := activeAlertsFixture(100000)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		tx := newTx(f, start)
		b.StartTimer()
		if n := len(tx.eng.activeIndex(tx.State).byTarget); n != 100000 {
			b.Fatalf("indexed %d alerts", n)
		}
	}
}

// BenchmarkResolveAmongActiveAlerts is a condition clearing on a target
// while 100,000 other alerts are active.
func BenchmarkResolveAmongActiveAlerts(b *testing.B) {
	f, project := activeAlertsFixture(100000)
	st := newTx(f, start)
	st.eng.activeIndex(st.State)
	b.ResetTimer()
	for range b.N {
		st.Apply(Condition{Project: project, Event: "HOST_DOWN", Target: Target{HostnameAndPort: "nowhere:1"}, Resolved: true}, start)
	}
}

// activeAlertsFixture is n OPEN alerts of one configuration, each on a
// target of its own, and their project.
func activeAlertsFixture(n int) (*Fixtures, string) {
	f := DefaultFixtures()
	project := f.Projects[0]["id"].(string)
	cfg := NewObjectID()
	f.AlertConfigs = append(f.AlertConfigs, doc{"id": cfg, "groupId": project, "eventTypeName": "HOST_DOWN", "enabled": true})
	for i := range n {
		f.Alerts = append(f.Alerts, NewAlertDoc(doc{"id": fmt.Sprintf("%024x", i+1), "groupId": project, "alertConfigId": cfg,
			"eventTypeName": "HOST_DOWN", "status": statusOpen, "created": "2026-01-01T00:00:00Z", "hostnameAndPort": fmt.Sprintf("db-%d:27017", i)}))
	}
	return f, project
}

// BenchmarkAddAlertOlderThanTheNewest is a change raising alerts while
// the clock is behind the newest of 200,000 alerts of its project: by an
// hour (a few alerts are newer), or by nearly all of them; one alert a
// change, or ten (a condition report of ten hosts). An op is a change.
func BenchmarkAddAlertOlderThanTheNewest(b *testing.B) {
	for _, behind := range []time.Duration{time.Hour, 50 * time.Hour} {
		for _, raises := range []int{1, 10} {
			b.Run(fmt.Sprintf("%s/%d_a_change", behind, raises), func(b *testing.B) {
				recs := make([]*AlertRec, 200000)
				for i := range recs {
					recs[i] = &AlertRec{Cur: &AlertDoc{}, Status: statusClosed, created: start.Add(time.Duration(i) * time.Second)}
				}
				set := newAlertSet(recs)
				clock := recs[len(recs)-1].created.Add(-behind)
				b.ResetTimer()
				for i := range b.N {
					for k := range raises {
						set.add(&AlertRec{Cur: &AlertDoc{}, Status: statusOpen, created: clock.Add(time.Duration(i*raises+k) * time.Millisecond)})
					}
					set.ensure()
				}
			})
		}
	}
}

// BenchmarkNotifyDue is the clock moving 10 hours over 100 raised alerts,
// each notifying two targets every minute: 120,200 notifications an op.
func BenchmarkNotifyDue(b *testing.B) {
	f := DefaultFixtures()
	project := f.Projects[0]["id"].(string)
	f.AlertConfigs = append(f.AlertConfigs, doc{"id": "5f2a00000000000000000001", "groupId": project, "eventTypeName": "HOST_DOWN", "enabled": true,
		"notifications": []any{map[string]any{"typeName": "EMAIL", "emailAddress": "a@example.com", "delayMin": int64(0), "intervalMin": int64(1)},
			map[string]any{"typeName": "WEBHOOK", "webhookUrl": "http://127.0.0.1:1/x", "webhookSecret": "s", "delayMin": int64(0), "intervalMin": int64(1)}}})
	for range b.N {
		b.StopTimer()
		st := newTx(f.Clone(), start)
		for h := range 100 {
			st.Apply(Condition{Project: project, Event: "HOST_DOWN", Target: Target{HostnameAndPort: fmt.Sprintf("db%d:27017", h)}}, start)
		}
		b.StartTimer()
		st.RunUntil(start.Add(10 * time.Hour))
	}
}

// generatedFixture is a fixture of n alerts of one project shaped as
// the benchmarks' generator writes them (bench/internal/benchdata): no
// resolved on CLOSED alerts, and a host and replica set on every alert,
// which most event types do not show.
func generatedFixture(n int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"orgs":[{"id":"5e1a0c2e8f9d4b0012340001","name":"Bench"}],"projects":[{"id":%q,"name":"bench","orgId":"5e1a0c2e8f9d4b0012340001"}],"alerts":[`, projA)
	events := []string{"HOST_DOWN", "OUTSIDE_METRIC_THRESHOLD", "REPLICA_SET", "BACKUP", "OPLOG_BEHIND"}
	statuses := []string{"OPEN", "CLOSED", "CLOSED", "TRACKING"}
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		created := start.Add(time.Duration(i) * time.Second).Format(time.RFC3339)
		fmt.Fprintf(&b, `{"id":"5f1a%020x","groupId":%q,"eventTypeName":%q,"status":%q,"created":%q,"updated":%q,"lastNotified":%q,"hostnameAndPort":"db-%d.example.com:27017","replicaSetName":"rs%d"}`,
			i, projA, events[i%len(events)], statuses[i%len(statuses)], created, created, created, i%50, i%3)
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// BenchmarkLoadFixtures reads a fixture file of 20,000 alerts as omctl
// server reads one at its start (docs/performance.md).
func BenchmarkLoadFixtures(b *testing.B) {
	path := generatedFixtureFile(b, 20000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadFixtures(path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStartFromFixtures is LoadFixtures and the store it opens,
// as omctl server --fixtures starts (docs/performance.md).
func BenchmarkStartFromFixtures(b *testing.B) {
	path := generatedFixtureFile(b, 20000)
	b.ReportAllocs()
	for b.Loop() {
		f, err := LoadFixtures(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Open(f, nil, VirtualClock(start), false); err != nil {
			b.Fatal(err)
		}
	}
}

// generatedFixtureFile writes generatedFixture(n) to a file, whose size
// is the benchmark's bytes an op.
func generatedFixtureFile(b *testing.B, n int) string {
	data := generatedFixture(n)
	path := filepath.Join(b.TempDir(), "fixture.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	return path
}

// BenchmarkRestartFromLog opens a state file of 20,000 alerts and the
// store from it, as omctl server --state restarts (docs/performance.md).
func BenchmarkRestartFromLog(b *testing.B) {
	f, err := LoadFixtures(generatedFixtureFile(b, 20000))
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
		if _, err := Open(DefaultFixtures(), file, VirtualClock(start), true); err != nil {
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
	f := DefaultFixtures()
	project := f.Projects[0]["id"].(string)
	f.AlertConfigs = append(f.AlertConfigs, doc{"id": "5f2a00000000000000000001", "groupId": project, "eventTypeName": "HOST_DOWN", "enabled": true,
		"notifications": []any{map[string]any{"typeName": "EMAIL", "emailAddress": "a@example.com", "delayMin": int64(0), "intervalMin": int64(1)},
			map[string]any{"typeName": "WEBHOOK", "webhookUrl": "http://127.0.0.1:1/x", "webhookSecret": "s", "delayMin": int64(0), "intervalMin": int64(1)}}})
	st, err := Open(f, newMemLog(), VirtualClock(start), false)
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
	var r *AlertRec
	if _, err := st.Update(func(s *Tx) {
		r = s.Apply(Condition{Project: project, Event: "HOST_DOWN", Target: Target{HostnameAndPort: "db1:27017"}}, start)[0]
		s.RunUntil(start)
	}); err != nil {
		b.Fatal(err)
	}
	until := rules.FormatTime(start.Add(time.Hour))
	b.ReportAllocs()
	for b.Loop() {
		out, err := st.Update(func(s *Tx) { s.AcknowledgeAlert(r, until, "", "bench", start) })
		if err != nil || len(out.Notes) != 2 {
			b.Fatalf("acknowledged with %d notifications: %v", len(out.Notes), err)
		}
	}
}

// BenchmarkRaiseNotify is a condition raising an alert whose two targets
// are notified at once, then clearing it: two writes, committed.
func BenchmarkRaiseNotify(b *testing.B) {
	st, project := writeBenchStore(b)
	target := Target{HostnameAndPort: "db1:27017"}
	b.ReportAllocs()
	for b.Loop() {
		out, err := st.Update(func(s *Tx) {
			s.Apply(Condition{Project: project, Event: "HOST_DOWN", Target: target}, start)
			s.RunUntil(start)
		})
		if err != nil || len(out.Notes) != 2 {
			b.Fatalf("raised with %d notifications: %v", len(out.Notes), err)
		}
		if _, err := st.Update(func(s *Tx) {
			s.Apply(Condition{Project: project, Event: "HOST_DOWN", Target: target, Resolved: true}, start)
		}); err != nil {
			b.Fatal(err)
		}
	}
}
