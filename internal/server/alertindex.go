package server

import (
	"container/heap"
	"sort"
	"time"
)

// alertRec is one stored alert with what the index needs to know of it.
type alertRec struct {
	cur     *AlertDoc
	project string // "" for global alerts
	status  string
	created time.Time
	pos     int       // position in alertSet.items
	openAt  time.Time // when a TRACKING alert becomes OPEN; zero if never
}

// alertSet holds the alerts of one project (or the global alerts) ordered
// by creation time, with a Fenwick tree per status so that a page of a
// status- and date-filtered list is found in O(page · log n), however many
// alerts there are.
type alertSet struct {
	items    []*alertRec
	byStatus map[string]*fenwick
	tracking trackingHeap
}

func newAlertSet(recs []*alertRec) *alertSet {
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].created.Before(recs[j].created) })
	s := &alertSet{items: recs}
	s.index(len(recs))
	for _, r := range recs {
		if r.status == statusTracking && !r.openAt.IsZero() {
			heap.Push(&s.tracking, trackingEntry{r, r.openAt})
		}
	}
	return s
}

// index builds the status trees for room alerts.
func (s *alertSet) index(room int) {
	s.byStatus = map[string]*fenwick{}
	for _, st := range alertStatuses {
		s.byStatus[st] = newFenwick(room)
	}
	for i, r := range s.items {
		r.pos = i
		s.byStatus[r.status].add(i, 1)
	}
}

// add puts a new alert in the set: at the end when it is the newest, as
// a raised alert is; elsewhere by rebuilding the index.
func (s *alertSet) add(r *alertRec) {
	n := len(s.items)
	s.items = append(s.items, r)
	switch {
	case n > 0 && r.created.Before(s.items[n-1].created):
		sort.SliceStable(s.items, func(i, j int) bool { return s.items[i].created.Before(s.items[j].created) })
		s.index(len(s.items) * 2)
	case len(s.byStatus[r.status].tree) <= len(s.items):
		s.index(len(s.items) * 2)
	default:
		r.pos = n
		s.byStatus[r.status].add(n, 1)
	}
}

// setStatus moves an alert to another status.
func (s *alertSet) setStatus(r *alertRec, status string) {
	if r.status == status {
		return
	}
	s.byStatus[r.status].add(r.pos, -1)
	s.byStatus[status].add(r.pos, 1)
	r.status = status
}

// schedule (re)computes when a TRACKING alert opens.
func (s *alertSet) schedule(r *alertRec, openAt time.Time) {
	r.openAt = openAt
	if r.status == statusTracking && !openAt.IsZero() {
		heap.Push(&s.tracking, trackingEntry{r, openAt})
	}
}

// due reports whether the earliest scheduled opening has come.
func (s *alertSet) due(now time.Time) bool {
	return s != nil && s.tracking.Len() > 0 && !s.tracking[0].at.After(now)
}

// promote opens every TRACKING alert whose delay has passed by now.
func (s *alertSet) promote(now time.Time, open func(*alertRec)) {
	for s.tracking.Len() > 0 {
		top := s.tracking[0]
		if top.at.After(now) {
			return
		}
		heap.Pop(&s.tracking)
		// Entries are not removed when an alert is rescheduled; a stale one
		// no longer matches its alert's openAt.
		if top.rec.status == statusTracking && top.at.Equal(top.rec.openAt) {
			s.setStatus(top.rec, statusOpen)
			open(top.rec)
		}
	}
}

// alertFilter selects alerts by status and creation time.
type alertFilter struct {
	status        string // "": all
	after, before time.Time
}

// window returns the positions [lo, hi) of alerts created within the filter's dates.
func (s *alertSet) window(f alertFilter) (int, int) {
	lo, hi := 0, len(s.items)
	if !f.after.IsZero() {
		lo = sort.Search(len(s.items), func(i int) bool { return !s.items[i].created.Before(f.after) })
	}
	if !f.before.IsZero() {
		hi = sort.Search(len(s.items), func(i int) bool { return s.items[i].created.After(f.before) })
	}
	return lo, max(lo, hi)
}

// page returns the alerts of page p of the filtered list and its total.
func (s *alertSet) page(f alertFilter, offset, size int) ([]*alertRec, int) {
	lo, hi := s.window(f)
	if f.status == "" {
		total := hi - lo
		start := min(lo+offset, hi)
		end := min(start+size, hi)
		return s.items[start:end], total
	}
	t := s.byStatus[f.status]
	before := t.prefix(lo)
	total := t.prefix(hi) - before
	var out []*alertRec
	for k := offset; k < total && len(out) < size; k++ {
		out = append(out, s.items[t.find(before+k+1)])
	}
	return out, total
}

// fenwick is a binary indexed tree of counts over positions 0..n-1.
type fenwick struct {
	tree []int
	log  int
}

func newFenwick(n int) *fenwick {
	f := &fenwick{tree: make([]int, n+1)}
	for 1<<(f.log+1) <= n {
		f.log++
	}
	return f
}

func (f *fenwick) add(pos, delta int) {
	for i := pos + 1; i < len(f.tree); i += i & -i {
		f.tree[i] += delta
	}
}

// prefix counts positions < n.
func (f *fenwick) prefix(n int) int {
	s := 0
	for i := n; i > 0; i -= i & -i {
		s += f.tree[i]
	}
	return s
}

// find returns the position of the k-th counted item (k from 1).
func (f *fenwick) find(k int) int {
	pos := 0
	for step := 1 << f.log; step > 0; step >>= 1 {
		if next := pos + step; next < len(f.tree) && f.tree[next] < k {
			pos = next
			k -= f.tree[next]
		}
	}
	return pos
}

type trackingEntry struct {
	rec *alertRec
	at  time.Time
}

type trackingHeap []trackingEntry

func (h trackingHeap) Len() int           { return len(h) }
func (h trackingHeap) Less(i, j int) bool { return h[i].at.Before(h[j].at) }
func (h trackingHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *trackingHeap) Push(x any)        { *h = append(*h, x.(trackingEntry)) }
func (h *trackingHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
