package store

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// An operation puts a new record in place: the record a handler found
// still says what it said, and the state holds the new one.
func TestOperationsLeaveTheRecordsFoundAsTheyWere(t *testing.T) {
	f := DefaultFixtures()
	project := f.Projects[0]["id"].(string)
	f.AlertConfigs = append(f.AlertConfigs, doc{"id": "c1", "groupId": project, "eventTypeName": "HOST_DOWN", "enabled": true, "x-team": "dba"})
	st := newState(f.Clone(), start)
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

// The index holds every active alert: several of one configuration and
// target (a state file of an older version may hold them) are each found,
// and each removed on its own.
func TestActiveAlertsKeepEveryAlertOfAConfigurationAndTarget(t *testing.T) {
	alert := func(id, cfg string) *AlertRec {
		return &AlertRec{Cur: &AlertDoc{alertFields: alertFields{ID: id, AlertConfigID: cfg}}}
	}
	ids := func(rs []*AlertRec) string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Cur.ID)
		}
		slices.Sort(out)
		return strings.Join(out, ",")
	}
	a := newActiveAlerts()
	host := targetKey{"p", "db1:27017"}
	a1, a2, a3 := alert("a1", "c1"), alert("a2", "c2"), alert("a3", "c1")
	a.add(activeKey{"c1", host}, a1)
	a.add(activeKey{"c2", host}, a2)
	a.add(activeKey{"c1", host}, a3)
	if got := ids(a.of(activeKey{"c1", host})); got != "a1,a3" {
		t.Fatalf("c1's alerts on the host: %s", got)
	}
	if a.has(activeKey{"c1", targetKey{"p", "other"}}) || !a.has(activeKey{"c2", host}) {
		t.Fatalf("index: %v", a.byTarget)
	}
	if got := ids(a.ofConfig("c1")); got != "a1,a3" || len(a.ofConfig("c3")) != 0 || a.byConfig["c1"] != 2 {
		t.Fatalf("by configuration: %s, %v", got, a.byConfig)
	}
	a.remove(activeKey{"c1", host}, a3)
	if got := ids(a.of(activeKey{"c1", host})); got != "a1" || !a.has(activeKey{"c2", host}) {
		t.Fatalf("after removing a3: %s", got)
	}
	a.remove(activeKey{"c1", host}, a3) // not there: nothing changes
	a.remove(activeKey{"c1", host}, a1)
	a.remove(activeKey{"c2", host}, a2)
	if _, left := a.byTarget[host]; left || len(a.byConfig) != 0 {
		t.Errorf("a target or configuration without active alerts stays in the index: %v %v", a.byTarget, a.byConfig)
	}
}

func TestATargetIsNextDueAfterNow(t *testing.T) {
	created := start
	for _, c := range []struct {
		delay, interval, now time.Duration
		want                 time.Duration // from created; -1 for never
	}{
		{5 * time.Minute, 0, 0, 5 * time.Minute},
		{5 * time.Minute, 0, 5 * time.Minute, -1}, // sent at 5m, before the restart
		{0, 10 * time.Minute, 0, 10 * time.Minute},
		{0, 10 * time.Minute, 25 * time.Minute, 30 * time.Minute},
		{5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 25 * time.Minute},
	} {
		tg := &notifyTarget{NotificationSpec: &NotificationSpec{Delay: c.delay, Interval: c.interval}}
		at, ok := tg.dueAfter(created, created.Add(c.now))
		if c.want < 0 {
			if ok {
				t.Errorf("%+v: due at %v, want never", c, at)
			}
			continue
		}
		if !ok || !at.Equal(created.Add(c.want)) {
			t.Errorf("%+v: due at %v (%v), want %v", c, at.Sub(created), ok, c.want)
		}
	}
}
