package model

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

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
