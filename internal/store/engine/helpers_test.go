package engine

import (
	"slices"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/demo"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/model"
)

var start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// newTx is a write on the data of f (which it takes over) at now, with
// its engine, as the Store runs one but without the Store: for tests of
// the engine alone. What its operations change, the engine reacts to when
// react is called.
func newTx(f *fixture.Fixtures, now time.Time) *Tx {
	st := model.NewState(f, now)
	st.Begin()
	return &Tx{State: st, eng: New(st, f.Schedules, now)}
}

// react has the engine react to what the operations changed since the
// last call, at now.
func (tx *Tx) react(now time.Time) {
	changes := tx.Written()
	tx.Begin()
	restore := tx.As(model.ByEngine)
	defer restore()
	tx.eng.Process(tx.State, changes, now)
}

// oplogStore is the body of an oplog store.
func oplogStore(id string, maxConns int) rules.Doc {
	return rules.Doc{"id": id, "acceptedTos": true, "s3BucketName": "b", "s3MaxConnections": int64(maxConns)}
}

// A reset changes everything: it is committed whole, and the write says
// so, with none of what it changed before.
func TestAResetChangesAll(t *testing.T) {
	st := newTx(demo.Fixtures(start), start)
	st.CreateOplogStore(oplogStore("o-1", 1))
	st.ResetTo(demo.Fixtures(start), start)
	if !st.WasReset() || slices.ContainsFunc(st.Written(), func(c model.Change) bool { return c.Kind == "oplogStores" }) {
		t.Fatalf("after a reset the write's changes are %v (reset %v)", st.Written(), st.WasReset())
	}
	if _, all := st.TakeChanges(); !all || !st.TakeSignIns() {
		t.Error("a reset is not committed whole, or leaves sign-ins as they were")
	}
}
