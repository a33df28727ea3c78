package model

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/rules"
)

// Alerts added in any order of creation keep the set in creation order
// (those created at the same time as added), and every status tree counts
// what a look through the alerts counts.
func TestAnAlertSetStaysInOrderAndCounted(t *testing.T) {
	// Added anywhere among the loaded alerts, and only among the newest
	// (which moves the counts of a few places rather than building anew).
	for _, addedFrom := range []int{0, 48} {
		checkAlertSet(t, addedFrom)
	}
}

func checkAlertSet(t *testing.T, addedFrom int) {
	rng := rand.New(rand.NewPCG(1, uint64(addedFrom)))
	rec := func(from int) *AlertRec {
		return &AlertRec{Cur: &AlertDoc{}, Status: alertStatuses[rng.IntN(len(alertStatuses))],
			created: start.Add(time.Duration(from+rng.IntN(50-from)) * time.Minute)}
	}
	var loaded []*AlertRec
	for range 2000 {
		loaded = append(loaded, rec(0))
	}
	set := newAlertSet(loaded)
	var added []*AlertRec
	for i := range 300 {
		r := rec(addedFrom)
		added = append(added, r)
		set.add(r)
		if i%7 == 0 {
			set.setStatus(set.items[rng.IntN(len(set.items))], alertStatuses[rng.IntN(len(alertStatuses))])
		}
	}
	if !slices.IsSortedFunc(set.items, func(a, b *AlertRec) int { return a.created.Compare(b.created) }) {
		t.Fatal("the set is not in creation order")
	}
	set.ensure() // as the store does before the change is over
	// Among alerts created at the same time, one added later comes later.
	for i := 1; i < len(added); i++ {
		a, b := added[i-1], added[i]
		if a.created.Equal(b.created) && a.pos > b.pos {
			t.Fatalf("added %d before %d at the same time, but it comes after", i-1, i)
		}
	}
	for i, r := range set.items {
		if r.pos != i {
			t.Fatalf("alert %d says it is at %d", i, r.pos)
		}
	}
	for _, st := range alertStatuses {
		count := 0
		for n := 0; n <= len(set.items); n++ {
			if got := set.byStatus[st].prefix(n); got != count {
				t.Fatalf("%s: %d before position %d, the tree says %d", st, count, n, got)
			}
			if n < len(set.items) && set.items[n].Status == st {
				count++
			}
		}
	}
}

// A page of a list filtered by status and dates holds what a look through
// the alerts finds, in order, whether the alerts of the status lie close
// together or far apart (nearby, or through the tree).
func TestAPageOfAFilteredListIsWhatALookThroughFinds(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	var recs []*AlertRec
	for i := range 3000 {
		st := statusClosed
		switch {
		case rng.IntN(100) == 0: // far apart: past nearby, mostly
			st = statusTracking
		case rng.IntN(3) == 0:
			st = statusOpen
		}
		recs = append(recs, &AlertRec{Cur: &AlertDoc{}, Status: st, created: start.Add(time.Duration(i/2) * time.Minute)})
	}
	set := newAlertSet(recs)
	for range 500 {
		f := AlertFilter{Status: alertStatuses[rng.IntN(len(alertStatuses))]}
		if rng.IntN(2) == 0 {
			f.After = start.Add(time.Duration(rng.IntN(1600)) * time.Minute)
		}
		if rng.IntN(2) == 0 {
			f.Before = start.Add(time.Duration(rng.IntN(1600)) * time.Minute)
		}
		var want []*AlertRec
		for _, r := range set.items {
			if r.Status == f.Status && !r.created.Before(f.After) && (f.Before.IsZero() || !r.created.After(f.Before)) {
				want = append(want, r)
			}
		}
		size := 1 + rng.IntN(120)
		offset := rng.IntN(len(want) + 10)
		// A stale set (which readers are not to meet) answers the same,
		// by looking through its alerts: its trees are out of date, here
		// gone.
		trees := set.byStatus
		for _, stale := range []bool{false, true} {
			set.stale = stale
			if stale {
				set.byStatus = nil
			}
			got, total := set.Page(f, offset, size)
			if total != len(want) {
				t.Fatalf("%+v (stale: %t): total %d, want %d", f, stale, total, len(want))
			}
			if w := want[min(offset, len(want)):min(offset+size, len(want))]; !slices.Equal(got, w) {
				t.Fatalf("%+v, offset %d, size %d (stale: %t): %d alerts, want %d, or not the same", f, offset, size, stale, len(got), len(w))
			}
		}
		set.stale, set.byStatus = false, trees
	}
}

// A raise among alerts mostly newer than it has the trees built anew,
// under the write lock, once a change: in the room they have, not in new
// trees of 6 MB for 200,000 alerts (BenchmarkAddAlertOlderThanTheNewest).
func TestARaiseBehindTheNewestAlertsBuildsInTheTreesItHas(t *testing.T) {
	recs := make([]*AlertRec, 200000)
	for i := range recs {
		recs[i] = &AlertRec{Cur: &AlertDoc{}, Status: statusClosed, created: start.Add(time.Duration(i) * time.Second)}
	}
	set := newAlertSet(recs)
	set.add(&AlertRec{Cur: &AlertDoc{}, Status: statusOpen, created: start}) // the room it keeps
	set.ensure()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	set.add(&AlertRec{Cur: &AlertDoc{}, Status: statusOpen, created: start.Add(time.Second)})
	set.ensure()
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("a raise near the oldest of 200,000 alerts allocated %d bytes", got)
	}
	if set.items[1].Status != statusOpen || set.items[3].Status != statusOpen || set.byStatus[statusOpen].prefix(len(set.items)) != 2 {
		t.Error("the raised alerts are not in their place, or not counted")
	}
}

// Raises behind the clock, far from the newest alerts, build the index
// anew once for the change that made them (ReindexAlerts, which the
// Store runs before any reader can see the data), not once each nor
// again for a resolve among them.
func TestRaisesBehindTheClockBuildTheIndexOnceAChange(t *testing.T) {
	f := DefaultFixtures()
	project := f.Projects[0]["id"].(string)
	cfg := NewObjectID()
	f.AlertConfigs = append(f.AlertConfigs, doc{"id": cfg, "groupId": project, "eventTypeName": "HOST_DOWN", "enabled": true})
	for i := range 2000 { // all newer than the clock
		f.Alerts = append(f.Alerts, NewAlertDoc(doc{"id": fmt.Sprintf("%024x", i+1), "groupId": project, "alertConfigId": cfg,
			"eventTypeName": "HOST_DOWN", "status": statusClosed, "created": rules.FormatTime(start.Add(time.Hour + time.Duration(i)*time.Second)),
			"resolved": rules.FormatTime(start.Add(2 * time.Hour))}))
	}
	st := NewState(f, start)
	builds := st.alerts[project].builds
	st.Begin() // a change of ten raises, as a condition report of ten hosts makes
	var raised []*AlertRec
	for h := range 10 {
		at := rules.FormatTime(start)
		raised = append(raised, st.RaiseAlert(NewAlertDoc(doc{"id": NewObjectID(), "groupId": project, "alertConfigId": cfg, "eventTypeName": "HOST_DOWN",
			"status": statusOpen, "created": at, "updated": at, "hostnameAndPort": fmt.Sprintf("db%d:27017", h)}), false, start))
		if h == 5 { // a report that resolves one among the raises
			st.SetAlert(raised[2], raised[2].Cur.WithTimes("status", statusClosed, "resolved", at))
		}
	}
	st.ReindexAlerts() // as the Store does once a batch
	func() {
		set := st.alerts[project]
		if set.stale || set.builds != builds+1 {
			t.Errorf("after a change of 10 raises and a resolve behind the clock the index was built %d times (stale after: %t), want once", set.builds-builds, set.stale)
		}
		for i, r := range set.items {
			if r.pos != i {
				t.Fatalf("alert %d says it is at %d", i, r.pos)
			}
		}
		open, total := set.Page(AlertFilter{Status: statusOpen}, 0, 100)
		// The raised alerts come first (they are the oldest), the resolved
		// one among them.
		if total != 9 || len(open) != 9 || open[8] != set.items[9] {
			t.Errorf("the open alerts: %d of %d, want the 9 still open, among the first 10", len(open), total)
		}
	}()
}
