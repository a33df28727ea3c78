package store

import (
	"testing"
	"time"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/engine"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/statelog"
)

// A commit that fails undoes what the engine did in the write too: the
// targets it notified are not notified, and are told again as new.
func TestAFailedCommitUndoesTheEnginesWork(t *testing.T) {
	f := fixture.Default()
	project := f.Projects[0]["id"].(string)
	f.AlertConfigs = append(f.AlertConfigs, rules.Doc{"id": processConfig, "groupId": project, "eventTypeName": "HOST_DOWN", "enabled": true,
		"notifications": []any{map[string]any{"typeName": "EMAIL", "emailAddress": "a@example.com", "delayMin": int64(10), "intervalMin": int64(60)}}})
	s, _ := openStoreWith(t, f)
	if _, err := s.Update(func(tx *engine.Tx) {
		tx.Apply(engine.Condition{Project: project, Event: "HOST_DOWN", Target: alert.Target{HostnameAndPort: "db1:27017"}}, start)
	}); err != nil {
		t.Fatal(err)
	}
	due := start.Add(10 * time.Minute)
	failCommits(s, func(*statelog.Batch) error { return errUnwritable })
	if out, err := s.Update(func(tx *engine.Tx) { tx.RunUntil(due) }); err == nil || len(out.Notes) != 0 {
		t.Fatalf("the failed commit answered %v with %d notifications", err, len(out.Notes))
	}
	failCommits(s, nil)
	out, err := s.Update(func(tx *engine.Tx) { tx.RunUntil(due) })
	if err != nil || len(out.Notes) != 1 || out.Notes[0].Event != "alert.open" {
		t.Fatalf("once commits work, the run told %+v (%v), want alert.open", out.Notes, err)
	}
}
