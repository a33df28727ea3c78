package store

import (
	"bytes"
	"encoding/json"
	"errors"
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

// A write that panics takes its changes with it: the next write's outcome
// and commit hold none of them.
func TestAPanickingWritesChangesGoWithIt(t *testing.T) {
	s, _ := openStoreWith(t, demo.Fixtures(start))
	var id string
	if err := s.View(func(st *model.State) {
		st.EachAlert(func(r *alert.Rec) {
			if r.Project != "" && r.Status == api.StatusOpen && (id == "" || r.Cur.ID < id) {
				id = r.Cur.ID
			}
		})
	}); err != nil || id == "" {
		t.Fatalf("no open alert to acknowledge (%v)", err)
	}
	_, err := s.Update(func(st *engine.Tx) {
		a := st.Alert(id)
		st.SetAlert(a, a.Cur.Acknowledged(rules.FormatTime(start.Add(time.Hour)), "", "me", start))
		panic("a bug")
	})
	var perr *PanicError
	if !errors.As(err, &perr) {
		t.Fatalf("the panicking write answered %v", err)
	}
	out, err := s.Update(func(st *engine.Tx) { st.CreateOplogStore(oplogStore("o-1", 1)) })
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Changes) != 1 || out.Changes[0].Kind != "oplogStores" || len(out.Alerts()) != 0 {
		t.Fatalf("the next write's changes are %v", out.Changes)
	}
	var acked bool
	if err := s.View(func(st *model.State) { acked = !st.Alert(id).Cur.AcknowledgedUntil.IsZero() }); err != nil || acked {
		t.Errorf("the panicking write's acknowledgement is seen (%v)", err)
	}
}

// Whatever the operations, the state file read back holds the data, as a
// restart serves it: every record, and the schedules of the raised alerts.
func TestTheStateFileHoldsTheDataAfterEveryChange(t *testing.T) {
	seed := demo.Fixtures(start)
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
	f, err := fixture.ReadLog(s.log)
	if err != nil {
		t.Fatalf("%s: %v", when, err)
	}
	var want, got bytes.Buffer
	s.st.Fixtures().Encode(&want)
	model.NewState(f.Clone(), start).Fixtures().Encode(&got) // as a restart serves it
	if w, g := bytes.Split(want.Bytes(), []byte("\n")), bytes.Split(got.Bytes(), []byte("\n")); !slices.EqualFunc(w, g, bytes.Equal) {
		for i := range min(len(w), len(g)) {
			if !bytes.Equal(w[i], g[i]) {
				t.Fatalf("%s: line %d of the state file read back is\n%s\nof the data\n%s", when, i+1, g[i], w[i])
			}
		}
		t.Fatalf("%s: the state file read back has %d lines, the data %d", when, len(g), len(w))
	}
	scheds := map[string]json.RawMessage{}
	for _, c := range s.eng.Records() {
		scheds[c.Key], _ = model.Encode(c)
	}
	w, _ := json.Marshal(scheds)
	g, _ := json.Marshal(f.Schedules)
	if len(scheds) == 0 && len(f.Schedules) == 0 {
		g = w
	}
	if !bytes.Equal(w, g) {
		t.Fatalf("%s: the state file's schedules are\n%s\nthe engine's\n%s", when, g, w)
	}
}
