package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/rules"
)

// After every committed batch, the readers' replica reads as the writers'
// data: every record of every kind, in order, and every page of alerts
// of every status, whatever the operations were (each one the API can
// make, in random order, a reset among them).
func TestTheReplicaReadsAsTheDataAfterEveryChange(t *testing.T) {
	seed := DemoFixtures(start)
	s, _ := openStoreWith(t, seed)
	rng := rand.New(rand.NewPCG(7, 33))
	now := start
	steps := replicaSteps(rng, &now, seed)
	names := stepNames(steps, "")
	for i := range 400 {
		name := names[rng.IntN(len(names))]
		if _, err := s.Update(steps[name]); err != nil {
			t.Fatalf("step %d, %s: %v", i, name, err)
		}
		checkReplica(t, s, fmt.Sprintf("step %d, %s", i, name))
	}
}

// A restart makes the readers' copy from the data read, beside the
// writers' data rather than from it: it reads as the data, then and after
// every change.
func TestTheReplicaMadeAtARestartReadsAsTheData(t *testing.T) {
	seed := DemoFixtures(start)
	s, path := openStoreWith(t, seed)
	rng := rand.New(rand.NewPCG(38, 2))
	now := start
	steps := replicaSteps(rng, &now, seed)
	names := stepNames(steps, "reset") // a reset copies the data whole, as ever
	for i := range 300 {
		if i == 150 {
			s = restarted(t, s, path)
			checkReplica(t, s, "after the restart")
		}
		name := names[rng.IntN(len(names))]
		if _, err := s.Update(steps[name]); err != nil {
			t.Fatalf("step %d, %s: %v", i, name, err)
		}
		checkReplica(t, s, fmt.Sprintf("step %d, %s", i, name))
	}
}

// stepNames are the names of steps, sorted, but for one left out.
func stepNames(steps map[string]func(*Tx), leftOut string) []string {
	names := make([]string, 0, len(steps))
	for name := range steps {
		if name != leftOut {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// checkReplica fails the test when the replica of s does not read as its
// data; when says after what.
func checkReplica(t *testing.T, s *Store, when string) {
	t.Helper()
	s.mu.Lock()
	s.pubMu.RLock()
	diff := readerDiff(s.st, s.published)
	s.pubMu.RUnlock()
	s.mu.Unlock()
	if diff != "" {
		t.Fatalf("%s: the replica differs: %s", when, diff)
	}
}

// replicaSteps are the changes of TestTheReplicaReadsAsTheDataAfterEveryChange,
// each on a record picked at random; *now is the time they happen at.
func replicaSteps(rng *rand.Rand, now *time.Time, seed *Fixtures) map[string]func(*Tx) {
	n := 0
	fresh := func(prefix string) string { n++; return fmt.Sprintf("%s-%d", prefix, n) }
	project := DemoProjectID
	return map[string]func(*Tx){
		"oplog store": func(st *Tx) { st.CreateOplogStore(oplogStore(fresh("o"), 1)) },
		"oplog store replaced": func(st *Tx) {
			if o := pick(rng, st.oplogStores.items); o != nil {
				st.ReplaceOplogStore(o.ID, oplogStore(o.ID, rng.IntN(50)+1))
			}
		},
		"snapshot store": func(st *Tx) { st.CreateSnapshotStore(oplogStore(fresh("s"), 2)) },
		"alert config": func(st *Tx) {
			st.CreateAlertConfig(project, doc{"eventTypeName": "HOST_DOWN", "enabled": rng.IntN(4) > 0,
				"notifications": []any{map[string]any{"typeName": "EMAIL", "emailAddress": "a@example.com",
					"delayMin": int64(rng.IntN(3) * 5), "intervalMin": int64(rng.IntN(3))}}}, *now)
		},
		"alert config replaced": func(st *Tx) {
			if c := pick(rng, st.AlertConfigs(project).items); c != nil {
				st.ReplaceAlertConfig(c, c.changed(func(d doc) { d["enabled"] = rng.IntN(2) == 0 }), *now)
			}
		},
		"alert config deleted": func(st *Tx) {
			if c := pick(rng, st.AlertConfigs(project).items); c != nil {
				st.DeleteAlertConfig(c)
			}
		},
		"global alert config enabled": func(st *Tx) {
			if c := pick(rng, st.globalConfigs.items); c != nil {
				st.SetConfigEnabled(c, rng.IntN(2) == 0, *now)
			}
		},
		"backup config": func(st *Tx) {
			if c := pick(rng, st.BackupConfigs(project)); c != nil {
				st.UpdateBackupConfig(c, doc{"statusName": []string{"STARTED", "STOPPED"}[rng.IntN(2)]})
			}
		},
		"backup jobs": func(st *Tx) { st.ReplaceBackupJobConfig(project, doc{"labelFilter": []any{fresh("l")}}) },
		"snapshot expiry": func(st *Tx) {
			for _, list := range st.snapshots {
				if snap := pick(rng, list.items); snap != nil {
					st.SetSnapshotExpiry(snap, rng.IntN(2) == 0, rules.FormatTime(now.Add(time.Hour)))
					return
				}
			}
		},
		"api key":        func(st *Tx) { st.CreateAPIKey(project, fresh("k"), []string{"GROUP_READ_ONLY"}, *now) },
		"access list":    func(st *Tx) { changeAccessList(rng, st.State, *now) },
		"acknowledged":   func(st *Tx) { acknowledge(rng, st.State, *now) },
		"condition":      func(st *Tx) { report(rng, st, project, now) },
		"clock":          func(st *Tx) { *now = now.Add(time.Duration(rng.IntN(30)) * time.Minute); st.RunUntil(*now) },
		"promote":        func(st *Tx) { st.PromoteAll(*now) },
		"reset":          func(st *Tx) { st.ResetTo(seed, *now) },
		"nothing at all": func(*Tx) {},
	}
}

// pick is a random item of items, the zero R for none.
func pick[R any](rng *rand.Rand, items []R) R {
	var none R
	if len(items) == 0 {
		return none
	}
	return items[rng.IntN(len(items))]
}

// changeAccessList adds an entry to a random key's access list, removes
// one, or records a use of one.
func changeAccessList(rng *rand.Rand, st *State, now time.Time) {
	k := st.apiKeys[pick(rng, st.keyOrder)]
	if k == nil {
		return
	}
	switch e := pick(rng, k.AccessList); {
	case e != nil && rng.IntN(3) == 0:
		st.RemoveAccessEntry(k, e.key)
	case e != nil && rng.IntN(2) == 0:
		st.UseAccessList(k, e.prefix.Addr(), now)
	default:
		m := map[string]any{"ipAddress": fmt.Sprintf("192.0.2.%d", rng.IntN(250))}
		canon, _ := rules.AccessListEntry(m)
		st.AddAccessEntries(k, []string{canon}, []any{m}, now)
	}
}

// acknowledge acknowledges a random alert, or ends its acknowledgement.
func acknowledge(rng *rand.Rand, st *State, now time.Time) {
	set := st.alerts[DemoProjectID]
	if set == nil || len(set.items) == 0 {
		return
	}
	r := pick(rng, set.items)
	if rng.IntN(2) == 0 {
		st.AcknowledgeAlert(r, rules.FormatTime(now.Add(time.Hour)), "replica", "me", now)
	} else {
		st.UnacknowledgeAlert(r, now)
	}
}

// report reports a host down or back among a few, now or, now and then,
// at a time behind the newest alerts (their index is then built anew).
func report(rng *rand.Rand, st *Tx, project string, now *time.Time) {
	at := *now
	if rng.IntN(4) == 0 {
		at = at.Add(-time.Duration(rng.IntN(100)) * time.Hour)
	}
	c := Condition{Project: project, Event: "HOST_DOWN", Target: Target{HostnameAndPort: fmt.Sprintf("h%d:27017", rng.IntN(6))},
		Resolved: rng.IntN(3) == 0}
	st.Apply(c, at)
}

// readerDiff says how two States read differently to readers ("" for not
// at all): the records of every kind, in order, and the pages of alerts.
func readerDiff(want, got *State) string {
	var a, b bytes.Buffer
	want.Fixtures().Encode(&a)
	got.Fixtures().Encode(&b)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		return fmt.Sprintf("the records differ:\nwant %.2000s\ngot  %.2000s", a.String(), b.String())
	}
	sets := map[string][2]*AlertSet{"global": {want.globalAlerts, got.globalAlerts}}
	for p := range want.alerts {
		sets[p] = [2]*AlertSet{want.alerts[p], got.alerts[p]}
	}
	for p, pair := range sets {
		for _, status := range append([]string{""}, alertStatuses...) {
			if w, g := pageIDs(pair[0], status), pageIDs(pair[1], status); !slices.Equal(w, g) {
				return fmt.Sprintf("alerts of %s with status %q: want %v, got %v", p, status, w, g)
			}
		}
	}
	return ""
}

// pageIDs are the ids and the total of one page of a set's alerts of a
// status, as a list request reads them.
func pageIDs(set *AlertSet, status string) []string {
	if set == nil {
		return nil
	}
	page, total := set.Page(AlertFilter{Status: status}, 3, 500)
	ids := []string{fmt.Sprint(total)}
	for _, r := range page {
		ids = append(ids, r.Cur.ID+" "+r.Status)
	}
	return ids
}

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
	st := newState(f, start)
	b.ReportAllocs()
	b.ResetTimer()
	var held uint64
	for range b.N {
		var before, after runtime.MemStats
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		r := st.replicate()
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
	st := newState(f, start)
	r := st.replicate()
	id := st.alerts[project].items[1000].Cur.ID
	rec := Change{Kind: "alerts", Key: id}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		st.AcknowledgeAlert(st.Alert(id), rules.FormatTime(start.Add(time.Duration(i+1)*time.Hour)), "bench", "me", start)
		if !r.copySlot(st, rec) {
			b.Fatal("not copied")
		}
		r.reindexAlerts()
	}
}
