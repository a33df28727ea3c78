package model

import (
	"fmt"
	"testing"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/store/fixture"
)

// servedAlerts are n alerts as omctl server answers them (but for links):
// the shape fixtures capture checks and the server loads.
func servedAlerts(n int) [][]byte {
	events := []string{"HOST_DOWN", "OUTSIDE_METRIC_THRESHOLD", "REPLICA_SET", "BACKUP", "OPLOG_BEHIND"}
	statuses := []string{"OPEN", "CLOSED", "CLOSED", "TRACKING"}
	out := make([][]byte, n)
	for i := range out {
		created := fmt.Sprintf("2026-01-01T%02d:%02d:%02dZ", i/3600%24, i/60%60, i%60)
		resolved := ""
		if statuses[i%4] == api.StatusClosed {
			resolved = `,"resolved":"` + created + `"`
		}
		out[i] = fmt.Appendf(nil, `{"id":"5f1a%020x","groupId":%q,"eventTypeName":%q,"status":%q,"created":%q,"updated":%q,"lastNotified":%q,"hostnameAndPort":"db-%d.example.com:27017","replicaSetName":"rs%d"%s}`,
			i, projA, events[i%5], statuses[i%4], created, created, created, i%50, i%3, resolved)
	}
	return out
}

// BenchmarkAlertCheck is what fixtures capture spends checking each alert
// it reads (docs/performance.md).
func BenchmarkAlertCheck(b *testing.B) {
	alerts := servedAlerts(100000)
	size := 0
	for _, a := range alerts {
		size += len(a)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		c := fixture.NewAlertCheck("alerts", []string{projA})
		for _, a := range alerts {
			if err := c.Check(a); err != nil {
				b.Fatalf("%s: %v", a, err)
			}
		}
	}
}
