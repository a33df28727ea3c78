package store

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/demo"
	"github.com/omctl/omctl/internal/store/engine"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/model"
)

// After every committed batch, the readers' replica reads as the writers'
// data: every record of every kind, in order, and every page of alerts
// of every status, whatever the operations were (each one the API can
// make, in random order, a reset among them).
func TestTheReplicaReadsAsTheDataAfterEveryChange(t *testing.T) {
	seed := demo.Fixtures(start)
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
	seed := demo.Fixtures(start)
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
func stepNames(steps map[string]func(*engine.Tx), leftOut string) []string {
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
func replicaSteps(rng *rand.Rand, now *time.Time, seed *fixture.Fixtures) map[string]func(*engine.Tx) {
	n := 0
	fresh := func(prefix string) string { n++; return fmt.Sprintf("%s-%d", prefix, n) }
	project := demo.ProjectID
	return map[string]func(*engine.Tx){
		"oplog store": func(st *engine.Tx) { st.CreateOplogStore(oplogStore(fresh("o"), 1)) },
		"oplog store replaced": func(st *engine.Tx) {
			if o := pick(rng, st.OplogStores().All()); o != nil {
				st.ReplaceOplogStore(o.ID, oplogStore(o.ID, rng.IntN(50)+1))
			}
		},
		"snapshot store": func(st *engine.Tx) { st.CreateSnapshotStore(oplogStore(fresh("s"), 2)) },
		"alert config": func(st *engine.Tx) {
			st.CreateAlertConfig(project, rules.Doc{"eventTypeName": "HOST_DOWN", "enabled": rng.IntN(4) > 0,
				"notifications": []any{map[string]any{"typeName": "EMAIL", "emailAddress": "a@example.com",
					"delayMin": int64(rng.IntN(3) * 5), "intervalMin": int64(rng.IntN(3))}}}, *now)
		},
		"alert config replaced": func(st *engine.Tx) {
			if c := pick(rng, st.AlertConfigs(project).All()); c != nil {
				st.ReplaceAlertConfig(c, withMember(c.Members(), "enabled", rng.IntN(2) == 0), *now)
			}
		},
		"alert config deleted": func(st *engine.Tx) {
			if c := pick(rng, st.AlertConfigs(project).All()); c != nil {
				st.DeleteAlertConfig(c)
			}
		},
		"global alert config enabled": func(st *engine.Tx) {
			if c := pick(rng, st.GlobalAlertConfigs().All()); c != nil {
				st.SetConfigEnabled(c, rng.IntN(2) == 0, *now)
			}
		},
		"backup config": func(st *engine.Tx) {
			if c := pick(rng, st.BackupConfigs(project)); c != nil {
				st.UpdateBackupConfig(c, rules.Doc{"statusName": []string{"STARTED", "STOPPED"}[rng.IntN(2)]})
			}
		},
		"backup jobs": func(st *engine.Tx) { st.ReplaceBackupJobConfig(project, rules.Doc{"labelFilter": []any{fresh("l")}}) },
		"snapshot expiry": func(st *engine.Tx) {
			for _, c := range st.Clusters(project).All() {
				if snap := pick(rng, st.Snapshots(project, c.ID).All()); snap != nil {
					st.SetSnapshotExpiry(snap, rng.IntN(2) == 0, rules.FormatTime(now.Add(time.Hour)))
					return
				}
			}
		},
		"api key":        func(st *engine.Tx) { st.CreateAPIKey(project, fresh("k"), []string{"GROUP_READ_ONLY"}, *now) },
		"access list":    func(st *engine.Tx) { changeAccessList(rng, st.State, *now) },
		"acknowledged":   func(st *engine.Tx) { acknowledge(rng, st.State, *now) },
		"condition":      func(st *engine.Tx) { report(rng, st, project, now) },
		"clock":          func(st *engine.Tx) { *now = now.Add(time.Duration(rng.IntN(30)) * time.Minute); st.RunUntil(*now) },
		"promote":        func(st *engine.Tx) { st.PromoteAll(*now) },
		"reset":          func(st *engine.Tx) { st.ResetTo(seed, *now) },
		"nothing at all": func(*engine.Tx) {},
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
func changeAccessList(rng *rand.Rand, st *model.State, now time.Time) {
	var keys []*model.APIKey
	for _, name := range rules.SortedKeys(st.Principals()) {
		if k := st.Principals()[name].Key; k != nil {
			keys = append(keys, k)
		}
	}
	k := pick(rng, keys)
	if k == nil {
		return
	}
	switch e := pick(rng, k.AccessList); {
	case e != nil && rng.IntN(3) == 0:
		st.RemoveAccessEntry(k, e.Key())
	case e != nil && rng.IntN(2) == 0:
		st.UseAccessList(k, e.Prefix().Addr(), now)
	default:
		m := map[string]any{"ipAddress": fmt.Sprintf("192.0.2.%d", rng.IntN(250))}
		canon, _ := rules.AccessListEntry(m)
		st.AddAccessEntries(k, []string{canon}, []any{m}, now)
	}
}

// acknowledge acknowledges a random alert, or ends its acknowledgement.
func acknowledge(rng *rand.Rand, st *model.State, now time.Time) {
	set := st.ProjectAlerts(demo.ProjectID)
	if set == nil || set.Len() == 0 {
		return
	}
	items, _ := set.Page(alert.Filter{}, 0, set.Len())
	r := pick(rng, items)
	if rng.IntN(2) == 0 {
		st.SetAlert(r, r.Cur.Acknowledged(rules.FormatTime(now.Add(time.Hour)), "replica", "me", now))
	} else {
		st.SetAlert(r, r.Cur.Unacknowledged(now))
	}
}

// report reports a host down or back among a few, now or, now and then,
// at a time behind the newest alerts (their index is then built anew).
func report(rng *rand.Rand, st *engine.Tx, project string, now *time.Time) {
	at := *now
	if rng.IntN(4) == 0 {
		at = at.Add(-time.Duration(rng.IntN(100)) * time.Hour)
	}
	c := engine.Condition{Project: project, Event: "HOST_DOWN", Target: alert.Target{HostnameAndPort: fmt.Sprintf("h%d:27017", rng.IntN(6))},
		Resolved: rng.IntN(3) == 0}
	st.Apply(c, at)
}

// readerDiff says how two States read differently to readers ("" for not
// at all): the records of every kind, in order, and the pages of alerts.
func readerDiff(want, got *model.State) string {
	var a, b bytes.Buffer
	want.Fixtures().Encode(&a)
	got.Fixtures().Encode(&b)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		return fmt.Sprintf("the records differ:\nwant %.2000s\ngot  %.2000s", a.String(), b.String())
	}
	sets := map[string][2]*alert.Set{"global": {want.GlobalAlertSet(), got.GlobalAlertSet()}}
	for _, p := range want.Projects() {
		sets[p.ID] = [2]*alert.Set{want.ProjectAlerts(p.ID), got.ProjectAlerts(p.ID)}
	}
	for p, pair := range sets {
		for _, status := range append([]string{""}, api.AlertStatuses...) {
			if w, g := pageIDs(pair[0], status), pageIDs(pair[1], status); !slices.Equal(w, g) {
				return fmt.Sprintf("alerts of %s with status %q: want %v, got %v", p, status, w, g)
			}
		}
	}
	return ""
}

// pageIDs are the ids and the total of one page of a set's alerts of a
// status, as a list request reads them.
func pageIDs(set *alert.Set, status string) []string {
	if set == nil {
		return nil
	}
	page, total := set.Page(alert.Filter{Status: status}, 3, 500)
	ids := []string{fmt.Sprint(total)}
	for _, r := range page {
		ids = append(ids, r.Cur.ID+" "+r.Status)
	}
	return ids
}

// withMember is d with a member set.
func withMember(d rules.Doc, name string, v any) rules.Doc {
	d[name] = v
	return d
}
