package alert

import (
	"slices"
	"sort"
	"time"

	"github.com/omctl/omctl/internal/api"
)

// Rec is one stored alert with what the index needs to know of it.
type Rec struct {
	Cur     *Doc
	Project string // "" for global alerts
	Status  string
	created time.Time
	pos     int // position in Set.items
}

// Created is when the alert was made.
func (r *Rec) Created() time.Time { return r.created }

// Set holds the alerts of one project (or the global alerts) ordered
// by creation time, with a Fenwick tree per status so that a page of a
// status- and date-filtered list is found in O(page · log n), however many
// alerts there are.
type Set struct {
	items    []*Rec
	byStatus map[string]*fenwick
	// stale: alerts were put in items, in order, and their statuses set,
	// but the trees and the positions are to be built anew from them
	// (add), by the store before a change is over (State.reindexAlerts):
	// readers do not see a stale set, and should one, Page looks through
	// the alerts rather than change the set under the read lock.
	stale  bool
	builds int // times index ran, for tests
}

func NewSet(recs []*Rec) *Set {
	// Alerts mostly come in the order they were made: looking costs a
	// fraction of sorting them again.
	byCreation := func(a, b *Rec) int { return a.created.Compare(b.created) }
	if !slices.IsSortedFunc(recs, byCreation) {
		slices.SortStableFunc(recs, byCreation)
	}
	s := &Set{items: recs}
	s.index(len(recs))
	return s
}

// Len is how many alerts the set holds.
func (s *Set) Len() int { return len(s.items) }

// index builds the status trees for room alerts, in time linear in the
// alerts. Raises while the clock is behind most alerts of their project
// have it build them anew, under the write lock, once a change (add): the
// trees of the same room are cleared and used again, not made anew (6 MB
// of garbage for 200,000 alerts), and an alert's tree is found without
// hashing its status.
func (s *Set) index(room int) {
	s.builds++
	trees := make([][]int, len(api.AlertStatuses))
	old := s.byStatus
	s.byStatus = make(map[string]*fenwick, len(api.AlertStatuses))
	for k, st := range api.AlertStatuses {
		f := old[st]
		if f == nil || len(f.tree) != room+1 {
			f = newFenwick(room)
		} else {
			clear(f.tree)
		}
		s.byStatus[st], trees[k] = f, f.tree
	}
	for i, r := range s.items {
		r.pos = i
		trees[statusOrdinal(r.Status)][i+1]++
	}
	for _, f := range s.byStatus {
		f.accumulate(len(s.items))
	}
}

// statusOrdinal is the place of st in api.AlertStatuses.
func statusOrdinal(st string) int {
	for k, known := range api.AlertStatuses {
		if st == known {
			return k
		}
	}
	panic("store: an alert with the unknown status " + st) // the fixture checks allow none
}

// Add puts a new alert in the set: at the end when it is the newest, as
// a raised alert is; elsewhere (the clock behind alerts of the fixtures)
// in its place. Far from the end, building the index anew is cheaper than
// moving its counts, and costs in proportion to the alerts: it is left
// for ensure, once for all the alerts a change adds (a condition report
// of ten hosts raises ten), and Add reports whether it left it (the set
// just became stale).
func (s *Set) Add(r *Rec) (leftStale bool) {
	n := len(s.items)
	s.items = append(s.items, r)
	if n > 0 && r.created.Before(s.items[n-1].created) {
		// After the alerts created at the same time, as a stable sort puts it.
		i := sort.Search(n, func(i int) bool { return s.items[i].created.After(r.created) })
		copy(s.items[i+1:], s.items[i:n])
		s.items[i] = r
		if s.stale {
			return false
		}
		if room := len(s.byStatus[r.Status].tree) - 1; room < len(s.items) || n-i > room/16 {
			s.stale = true
			return true
		}
		for st, f := range s.byStatus {
			v := 0
			if st == r.Status {
				v = 1
			}
			f.insert(i, v, len(s.items))
		}
		for j := i; j < len(s.items); j++ {
			s.items[j].pos = j
		}
		return false
	}
	switch {
	case s.stale:
	case len(s.byStatus[r.Status].tree) <= len(s.items):
		s.index(len(s.items) * 2)
	default:
		r.pos = n
		s.byStatus[r.Status].add(n, 1)
	}
	return false
}

// Ensure builds the index anew if add left it stale: in the room the
// trees have while there is some (a rebuild makes no garbage), else in
// twice the alerts.
func (s *Set) Ensure() {
	if !s.stale {
		return
	}
	room := len(s.byStatus[api.StatusOpen].tree) - 1
	if room < len(s.items) {
		room = len(s.items) * 2
	}
	s.index(room)
	s.stale = false
}

// SetStatus moves an alert to another status.
func (s *Set) SetStatus(r *Rec, status string) {
	if r.Status == status {
		return
	}
	if s.stale { // the rebuild counts it in its new status
		r.Status = status
		return
	}
	s.byStatus[r.Status].add(r.pos, -1)
	s.byStatus[status].add(r.pos, 1)
	r.Status = status
}

// Filter selects alerts by status and creation time.
type Filter struct {
	Status        string // "": all
	After, Before time.Time
}

// window returns the positions [lo, hi) of alerts created within the filter's dates.
func (s *Set) window(f Filter) (int, int) {
	lo, hi := 0, len(s.items)
	if !f.After.IsZero() {
		lo = sort.Search(len(s.items), func(i int) bool { return !s.items[i].created.Before(f.After) })
	}
	if !f.Before.IsZero() {
		hi = sort.Search(len(s.items), func(i int) bool { return s.items[i].created.After(f.Before) })
	}
	return lo, max(lo, hi)
}

// Page returns the alerts of page p of the filtered list and its total.
func (s *Set) Page(f Filter, offset, size int) ([]*Rec, int) {
	lo, hi := s.window(f)
	if f.Status == "" {
		total := hi - lo
		start := min(lo+offset, hi)
		end := min(start+size, hi)
		return s.items[start:end], total
	}
	if s.stale {
		return lookThrough(s.items[lo:hi], f.Status, offset, size)
	}
	t := s.byStatus[f.Status]
	before := t.prefix(lo)
	total := t.prefix(hi) - before
	if offset >= total || size <= 0 {
		return nil, total
	}
	out := make([]*Rec, 0, min(size, total-offset))
	for pos := t.find(before + offset + 1); ; {
		out = append(out, s.items[pos])
		if len(out) == cap(out) {
			return out, total
		}
		pos = s.nextOf(f.Status, pos, t, before+offset+len(out)+1)
	}
}

// lookThrough is Page's answer for a stale set, found by looking at each
// of its alerts: slow, but it leaves the set as it is.
func lookThrough(alerts []*Rec, status string, offset, size int) ([]*Rec, int) {
	var out []*Rec
	total := 0
	for _, r := range alerts {
		if r.Status != status {
			continue
		}
		if total >= offset && len(out) < size {
			out = append(out, r)
		}
		total++
	}
	return out, total
}

// nearby is how far nextOf looks along the alerts before it asks the tree.
const nearby = 32

// nextOf is the position of the k-th alert of the status (counted by t),
// which comes after pos. Alerts of a status are seldom far apart: the
// next one is looked for along the alerts, in order, and through the tree
// only when it is not nearby, so that a page costs a walk through its own
// part of the alerts rather than a descent of the tree per alert, which
// among a million alerts missed the cache at every level.
func (s *Set) nextOf(status string, pos int, t *fenwick, k int) int {
	for j := pos + 1; j < min(pos+1+nearby, len(s.items)); j++ {
		if s.items[j].Status == status {
			return j
		}
	}
	return t.find(k)
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

// accumulate turns a tree holding each position's count at pos+1, for
// the first used positions, into the tree of those counts. Beyond used,
// only the nodes that cover position used-1 hold counts: the walk goes up
// their chain instead of over the room left for later alerts.
func (f *fenwick) accumulate(used int) {
	for i := 1; i < len(f.tree); {
		if j := i + i&-i; j < len(f.tree) {
			f.tree[j] += f.tree[i]
		}
		if i < used {
			i++
		} else {
			i += i & -i
		}
	}
}

// insert moves the counts from pos on one place up and counts v at pos,
// used places in all once it is in (fewer than the room). Only the nodes
// that cover pos or a later used place change: those up to used, and the
// few beyond it that cover it; so an alert that goes near the end costs
// little.
func (f *fenwick) insert(pos, v, used int) {
	// after(m) counts the first m places once v is in.
	after := func(m int) int {
		if m <= pos {
			return f.prefix(m)
		}
		return f.prefix(m-1) + v
	}
	node := func(k int) int { return after(k) - after(k-k&-k) }
	nodes := make([]int, used-pos)
	for k := pos + 1; k <= used; k++ {
		nodes[k-pos-1] = node(k)
	}
	var beyond []int
	for k := used + used&-used; k < len(f.tree); k += k & -k {
		beyond = append(beyond, node(k))
	}
	copy(f.tree[pos+1:], nodes)
	for i, k := 0, used+used&-used; k < len(f.tree); i, k = i+1, k+k&-k {
		f.tree[k] = beyond[i]
	}
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

// MakeRec is the record of an alert of project ("" for a global one)
// with its status and creation time.
func MakeRec(cur *Doc, project, status string, created time.Time) Rec {
	return Rec{Cur: cur, Project: project, Status: status, created: created}
}

// Items are the set's alerts in creation order.
func (s *Set) Items() []*Rec { return s.items }

// Builds is how many times the set's index was built, and whether it is
// stale now: what a change of many raises costs, for its tests.
func (s *Set) Builds() (n int, stale bool) { return s.builds, s.stale }
