package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/rules"
)

// A write's changes are each record once, where it first changed, as the
// write last left it; a batch's, likewise across its writes, while each
// write keeps its own.
func TestChangesKeepFirstOrderAndLastState(t *testing.T) {
	for _, many := range []int{0, 40} { // looked through, then found by a map
		c := &Changes{}
		c.begin()
		c.put("alerts", "a", 1)
		c.put("alertConfigs", "c", 1)
		for i := range many {
			c.put("snapshots", fmt.Sprint(i), i)
		}
		c.put("alerts", "a", 2)
		c.put("alerts", "b", 1)
		first := c.write()
		want := []Change{{Kind: "alerts", Key: "a", Rec: 2}, {Kind: "alertConfigs", Key: "c", Rec: 1}}
		if got := first[:2]; !slices.Equal(got, want) || len(first) != 3+many || first[len(first)-1] != (Change{Kind: "alerts", Key: "b", Rec: 1}) {
			t.Fatalf("%d more: the write's changes are %v", many, first)
		}
		c.begin()
		c.put("alerts", "b", 2)
		c.put("alerts", "a", nil)
		c.put("alerts", "a", 3)
		if got := c.write(); !slices.Equal(got, []Change{{Kind: "alerts", Key: "b", Rec: 2}, {Kind: "alerts", Key: "a", Rec: 3}}) {
			t.Fatalf("%d more: the second write's changes are %v", many, got)
		}
		recs, all := c.take()
		if all || len(recs) != 3+many || recs[0] != (Change{Kind: "alerts", Key: "a", Rec: 3}) || recs[len(recs)-1] != (Change{Kind: "alerts", Key: "b", Rec: 2}) {
			t.Fatalf("%d more: the batch's changes are %v (all %v)", many, recs, all)
		}
		if first[0] != (Change{Kind: "alerts", Key: "a", Rec: 2}) {
			t.Errorf("%d more: the first write's changes became %v", many, first[0])
		}
		if recs, _ := c.take(); len(recs) != 0 {
			t.Errorf("%d more: taken twice: %v", many, recs)
		}
	}
}

// A key's change is seen by sign-in; a use of its access list is not (each
// request of a listed key makes one).
func TestKeyUseLeavesSignInsAlone(t *testing.T) {
	st := newState(DemoFixtures(start), start)
	k := st.apiKeys[st.keyOrder[0]]
	m := map[string]any{"ipAddress": "192.0.2.7"}
	canon, _ := rules.AccessListEntry(m)
	st.AddAccessEntries(k, []string{canon}, []any{m}, start)
	if !st.ch.takeSignIns() {
		t.Fatal("adding to an access list did not change sign-ins")
	}
	st.ch.take()
	if !st.UseAccessList(k, netip.MustParseAddr("192.0.2.7"), start) {
		t.Fatal("the listed address was refused")
	}
	recs, _ := st.ch.take()
	if st.ch.takeSignIns() || len(recs) != 1 || recs[0].Kind != "apiKeys" || recs[0].Rec != k {
		t.Fatalf("a use of the access list recorded %v, sign-ins changed", recs)
	}
	if st.UseAccessList(k, netip.MustParseAddr("198.51.100.1"), start) {
		t.Fatal("an address off the list was let in")
	}
	if recs, _ := st.ch.take(); len(recs) != 0 {
		t.Errorf("a refused use recorded %v", recs)
	}
}

// A write that panics takes its changes with it: the next write's outcome
// and commit hold none of them.
func TestAPanickingWritesChangesGoWithIt(t *testing.T) {
	s, _ := openStoreWith(t, DemoFixtures(start))
	var id string
	if err := s.View(func(st *State) {
		for _, r := range st.alertByID {
			if r.Status == statusOpen && (id == "" || r.Cur.ID < id) {
				id = r.Cur.ID
			}
		}
	}); err != nil || id == "" {
		t.Fatalf("no open alert to acknowledge (%v)", err)
	}
	_, err := s.Update(func(st *Tx) {
		st.AcknowledgeAlert(st.Alert(id), rules.FormatTime(start.Add(time.Hour)), "", "me", start)
		panic("a bug")
	})
	var perr *PanicError
	if !errors.As(err, &perr) {
		t.Fatalf("the panicking write answered %v", err)
	}
	out, err := s.Update(func(st *Tx) { st.CreateOplogStore(oplogStore("o-1", 1)) })
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Changes) != 1 || out.Changes[0].Kind != "oplogStores" || len(out.Alerts()) != 0 {
		t.Fatalf("the next write's changes are %v", out.Changes)
	}
	var acked bool
	if err := s.View(func(st *State) { acked = !st.Alert(id).Cur.AcknowledgedUntil.IsZero() }); err != nil || acked {
		t.Errorf("the panicking write's acknowledgement is seen (%v)", err)
	}
}

// A reset changes everything: it is committed whole, and its outcome says
// so, with none of what the write changed before it.
func TestAResetChangesAll(t *testing.T) {
	st := newTx(DemoFixtures(start), start)
	st.ch.begin()
	st.CreateOplogStore(oplogStore("o-1", 1))
	st.ResetTo(DemoFixtures(start), start)
	if !st.ch.reset || slices.ContainsFunc(st.ch.write(), func(c Change) bool { return c.Kind == "oplogStores" }) {
		t.Fatalf("after a reset the write's changes are %v (reset %v)", st.ch.write(), st.ch.reset)
	}
	if _, all := st.ch.take(); !all || !st.ch.takeSignIns() {
		t.Error("a reset is not committed whole, or leaves sign-ins as they were")
	}
}

// Whatever the operations, the state file read back holds the data, as a
// restart serves it: every record, and the schedules of the raised alerts.
func TestTheStateFileHoldsTheDataAfterEveryChange(t *testing.T) {
	seed := DemoFixtures(start)
	s, _ := openStoreWith(t, seed)
	rng := rand.New(rand.NewPCG(34, 1))
	now := start
	steps := replicaSteps(rng, &now, seed)
	names := stepNames(steps, "reset") // committed whole: TestAResetChangesAll
	for i := range 120 {
		name := names[rng.IntN(len(names))]
		if _, err := s.Update(steps[name]); err != nil {
			t.Fatalf("step %d, %s: %v", i, name, err)
		}
		checkLog(t, s, fmt.Sprintf("step %d, %s", i, name))
	}
}

// checkLog fails the test when the log of s does not read back as its
// data and schedules.
func checkLog(t *testing.T, s *Store, when string) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := readLog(s.log)
	if err != nil {
		t.Fatalf("%s: %v", when, err)
	}
	var want, got bytes.Buffer
	s.st.Fixtures().Encode(&want)
	newState(f.Clone(), start).Fixtures().Encode(&got) // as a restart serves it
	if w, g := bytes.Split(want.Bytes(), []byte("\n")), bytes.Split(got.Bytes(), []byte("\n")); !slices.EqualFunc(w, g, bytes.Equal) {
		for i := range min(len(w), len(g)) {
			if !bytes.Equal(w[i], g[i]) {
				t.Fatalf("%s: line %d of the state file read back is\n%s\nof the data\n%s", when, i+1, g[i], w[i])
			}
		}
		t.Fatalf("%s: the state file read back has %d lines, the data %d", when, len(g), len(w))
	}
	scheds := map[string]*scheduleRecord{}
	for r, sched := range s.eng.schedules {
		scheds[r.Cur.ID] = sched.record()
	}
	w, _ := json.Marshal(scheds)
	g, _ := json.Marshal(f.schedules)
	if len(scheds) == 0 && len(f.schedules) == 0 {
		g = w
	}
	if !bytes.Equal(w, g) {
		t.Fatalf("%s: the state file's schedules are\n%s\nthe engine's\n%s", when, g, w)
	}
}

// newTx is a write on the data of f (which it takes over) at now, with
// its engine, as the Store runs one, but without a Store: for tests of the
// data and the engine alone. What its operations change, the engine
// reacts to when react is called.
func newTx(f *Fixtures, now time.Time) *Tx {
	st := newState(f, now)
	return &Tx{State: st, eng: newEngine(st, f.schedules, now)}
}

// react has the engine react to what the operations changed since the
// last call, at now.
func (tx *Tx) react(now time.Time) {
	changes := tx.ch.write()
	tx.ch.begin()
	restore := tx.ch.as(ByEngine)
	defer restore()
	tx.eng.process(tx.State, changes, now)
}
