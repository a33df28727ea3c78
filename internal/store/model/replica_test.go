package model

import (
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/rules"
)

// Every field of State is either copied to the readers' replica or the
// writers' alone: a field added to State must be sorted here, and, if
// readers read it, copied by replicate and copySlot.
func TestEveryFieldOfTheDataIsReplicatedOrTheWritersOwn(t *testing.T) {
	replicated := map[string]bool{"orgs": true, "projects": true, "orgOrder": true, "projectOrder": true,
		"principals": true, "apiKeys": true, "keyOrder": true, "alerts": true, "alertByID": true, "alertConfigs": true,
		"globalAlerts": true, "globalAlertIDs": true, "globalConfigs": true, "backupConfigs": true, "configOrder": true,
		"clusters": true, "snapshots": true, "csSnapshots": true, "hosts": true, "oplogStores": true,
		"snapshotStores": true, "backupJobs": true}
	writersOwn := map[string]bool{"staleAlerts": true, "ch": true}
	typ := reflect.TypeOf(State{})
	for i := range typ.NumField() {
		if name := typ.Field(i).Name; !replicated[name] && !writersOwn[name] {
			t.Errorf("State.%s is neither replicated for readers nor the writers' own: sort it in replica.go", name)
		}
	}
}

// BenchmarkReplicate is the readers' replica of 200,000 alerts made whole,
// as at start-up and after a reset with a state file; bytes/alert is the
// memory it holds beside the writers' data (docs/server.md, State).
func BenchmarkReplicate(b *testing.B) {
	f, _ := activeAlertsFixture(200000)
	st := NewState(f, start)
	b.ReportAllocs()
	b.ResetTimer()
	var held uint64
	for range b.N {
		var before, after runtime.MemStats
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		r := st.Replicate()
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.StartTimer()
		held = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(r)
	}
	b.ReportMetric(float64(held)/200000, "bytes/alert")
}

// BenchmarkCopyABatchToTheReplica is what readers wait for after a commit
// of one acknowledgement among 200,000 alerts: its copy into the replica.
func BenchmarkCopyABatchToTheReplica(b *testing.B) {
	f, project := activeAlertsFixture(200000)
	st := NewState(f, start)
	r := st.Replicate()
	id := st.alerts[project].Items()[1000].Cur.ID
	rec := Change{Kind: "alerts", Key: id}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		a := st.Alert(id)
		st.SetAlert(a, a.Cur.Acknowledged(rules.FormatTime(start.Add(time.Duration(i+1)*time.Hour)), "bench", "me", start))
		if !r.CopySlot(st, rec) {
			b.Fatal("not copied")
		}
		r.ReindexAlerts()
	}
}
