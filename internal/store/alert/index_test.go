package alert

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/api"
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
	rec := func(from int) *Rec {
		return &Rec{Cur: &Doc{}, Status: api.AlertStatuses[rng.IntN(len(api.AlertStatuses))],
			created: start.Add(time.Duration(from+rng.IntN(50-from)) * time.Minute)}
	}
	var loaded []*Rec
	for range 2000 {
		loaded = append(loaded, rec(0))
	}
	set := NewSet(loaded)
	var added []*Rec
	for i := range 300 {
		r := rec(addedFrom)
		added = append(added, r)
		set.Add(r)
		if i%7 == 0 {
			set.SetStatus(set.Items()[rng.IntN(len(set.Items()))], api.AlertStatuses[rng.IntN(len(api.AlertStatuses))])
		}
	}
	if !slices.IsSortedFunc(set.Items(), func(a, b *Rec) int { return a.created.Compare(b.created) }) {
		t.Fatal("the set is not in creation order")
	}
	set.Ensure() // as the store does before the change is over
	// Among alerts created at the same time, one added later comes later.
	for i := 1; i < len(added); i++ {
		a, b := added[i-1], added[i]
		if a.created.Equal(b.created) && a.pos > b.pos {
			t.Fatalf("added %d before %d at the same time, but it comes after", i-1, i)
		}
	}
	for i, r := range set.Items() {
		if r.pos != i {
			t.Fatalf("alert %d says it is at %d", i, r.pos)
		}
	}
	for _, st := range api.AlertStatuses {
		count := 0
		for n := 0; n <= len(set.Items()); n++ {
			if got := set.byStatus[st].prefix(n); got != count {
				t.Fatalf("%s: %d before position %d, the tree says %d", st, count, n, got)
			}
			if n < len(set.Items()) && set.Items()[n].Status == st {
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
	var recs []*Rec
	for i := range 3000 {
		st := api.StatusClosed
		switch {
		case rng.IntN(100) == 0: // far apart: past nearby, mostly
			st = api.StatusTracking
		case rng.IntN(3) == 0:
			st = api.StatusOpen
		}
		recs = append(recs, &Rec{Cur: &Doc{}, Status: st, created: start.Add(time.Duration(i/2) * time.Minute)})
	}
	set := NewSet(recs)
	for range 500 {
		f := Filter{Status: api.AlertStatuses[rng.IntN(len(api.AlertStatuses))]}
		if rng.IntN(2) == 0 {
			f.After = start.Add(time.Duration(rng.IntN(1600)) * time.Minute)
		}
		if rng.IntN(2) == 0 {
			f.Before = start.Add(time.Duration(rng.IntN(1600)) * time.Minute)
		}
		var want []*Rec
		for _, r := range set.Items() {
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
	recs := make([]*Rec, 200000)
	for i := range recs {
		recs[i] = &Rec{Cur: &Doc{}, Status: api.StatusClosed, created: start.Add(time.Duration(i) * time.Second)}
	}
	set := NewSet(recs)
	set.Add(&Rec{Cur: &Doc{}, Status: api.StatusOpen, created: start}) // the room it keeps
	set.Ensure()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	set.Add(&Rec{Cur: &Doc{}, Status: api.StatusOpen, created: start.Add(time.Second)})
	set.Ensure()
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("a raise near the oldest of 200,000 alerts allocated %d bytes", got)
	}
	if set.Items()[1].Status != api.StatusOpen || set.Items()[3].Status != api.StatusOpen || set.byStatus[api.StatusOpen].prefix(len(set.Items())) != 2 {
		t.Error("the raised alerts are not in their place, or not counted")
	}
}

// BenchmarkAddAlertOlderThanTheNewest is a change raising alerts while
// the clock is behind the newest of 200,000 alerts of its project: by an
// hour (a few alerts are newer), or by nearly all of them; one alert a
// change, or ten (a condition report of ten hosts). An op is a change.
func BenchmarkAddAlertOlderThanTheNewest(b *testing.B) {
	for _, behind := range []time.Duration{time.Hour, 50 * time.Hour} {
		for _, raises := range []int{1, 10} {
			b.Run(fmt.Sprintf("%s/%d_a_change", behind, raises), func(b *testing.B) {
				recs := make([]*Rec, 200000)
				for i := range recs {
					recs[i] = &Rec{Cur: &Doc{}, Status: api.StatusClosed, created: start.Add(time.Duration(i) * time.Second)}
				}
				set := NewSet(recs)
				clock := recs[len(recs)-1].created.Add(-behind)
				b.ResetTimer()
				for i := range b.N {
					for k := range raises {
						set.Add(&Rec{Cur: &Doc{}, Status: api.StatusOpen, created: clock.Add(time.Duration(i*raises+k) * time.Millisecond)})
					}
					set.Ensure()
				}
			})
		}
	}
}
