package model

import (
	"slices"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/store/fixture"
)

// An operation puts a new record in place: the record a handler found
// still says what it said, and the state holds the new one.
func TestOperationsLeaveTheRecordsFoundAsTheyWere(t *testing.T) {
	f := fixture.Default()
	project := f.Projects[0]["id"].(string)
	f.AlertConfigs = append(f.AlertConfigs, doc{"id": "c1", "groupId": project, "eventTypeName": "HOST_DOWN", "enabled": true, "x-team": "dba"})
	st := NewState(f.Clone(), start)
	old := st.AlertConfigs(project).Get("c1")
	changed := st.SetConfigEnabled(old, false, start.Add(time.Minute))
	if !old.Enabled || old.raw()["enabled"] != true {
		t.Errorf("the record found changed: %+v", old.Members())
	}
	if changed.Enabled || st.AlertConfigs(project).Get("c1") != changed {
		t.Errorf("the state does not hold the disabled configuration")
	}
	if changed.raw()["x-team"] != "dba" || changed.raw()["updated"] != "2026-01-01T00:01:00Z" {
		t.Errorf("members kept and updated: %v", changed.Members())
	}
	if got := st.Fixtures().AlertConfigs; !slices.ContainsFunc(got, func(d doc) bool { return d["id"] == "c1" && d["x-team"] == "dba" }) {
		t.Errorf("a member the API does not name is not written out: %v", got)
	}
	m := changed.Members()
	m["enabled"] = true
	if changed.raw()["enabled"] != false {
		t.Error("changing the copy Members returns changed the record")
	}
}
