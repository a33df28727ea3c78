package engine

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/model"
)

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
		tg := &notifyTarget{NotificationSpec: &model.NotificationSpec{Delay: c.delay, Interval: c.interval}}
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

// The index holds every active alert: several of one configuration and
// target (a state file of an older version may hold them) are each found,
// and each removed on its own.
func TestActiveAlertsKeepEveryAlertOfAConfigurationAndTarget(t *testing.T) {
	activeRec := func(id, cfg string) *alert.Rec {
		return &alert.Rec{Cur: alert.NewDoc(rules.Doc{"id": id, "alertConfigId": cfg, "status": api.StatusOpen})}
	}
	ids := func(rs []*alert.Rec) string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Cur.ID)
		}
		slices.Sort(out)
		return strings.Join(out, ",")
	}
	a := newActiveAlerts()
	host := alert.TargetKey{Project: "p", Identity: "db1:27017"}
	a1, a2, a3 := activeRec("a1", "c1"), activeRec("a2", "c2"), activeRec("a3", "c1")
	a.add(alert.Pair{Config: "c1", Target: host}, a1)
	a.add(alert.Pair{Config: "c2", Target: host}, a2)
	a.add(alert.Pair{Config: "c1", Target: host}, a3)
	if got := ids(a.of(alert.Pair{Config: "c1", Target: host})); got != "a1,a3" {
		t.Fatalf("c1's alerts on the host: %s", got)
	}
	if a.has(alert.Pair{Config: "c1", Target: alert.TargetKey{Project: "p", Identity: "other"}}) || !a.has(alert.Pair{Config: "c2", Target: host}) {
		t.Fatalf("index: %v", a.byTarget)
	}
	if got := ids(a.ofConfig("c1")); got != "a1,a3" || len(a.ofConfig("c3")) != 0 || a.byConfig["c1"] != 2 {
		t.Fatalf("by configuration: %s, %v", got, a.byConfig)
	}
	a.remove(alert.Pair{Config: "c1", Target: host}, a3)
	if got := ids(a.of(alert.Pair{Config: "c1", Target: host})); got != "a1" || !a.has(alert.Pair{Config: "c2", Target: host}) {
		t.Fatalf("after removing a3: %s", got)
	}
	a.remove(alert.Pair{Config: "c1", Target: host}, a3) // not there: nothing changes
	a.remove(alert.Pair{Config: "c1", Target: host}, a1)
	a.remove(alert.Pair{Config: "c2", Target: host}, a2)
	if _, left := a.byTarget[host]; left || len(a.byConfig) != 0 {
		t.Errorf("a target or configuration without active alerts stays in the index: %v %v", a.byTarget, a.byConfig)
	}
}
