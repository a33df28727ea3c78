package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/demo"
	"github.com/omctl/omctl/internal/store/fixture"
)

// The engine's rules on data that breaks them: several active alerts of
// one configuration and target, as a state file of an older version (or
// the older demo) holds them. Each test names the item of issue 31 it
// keeps fixed.

const (
	rulesOrg     = "6d1a00000000000000000001"
	rulesProject = "6d2b00000000000000000001"
	rulesConfig  = "6d2a00000000000000000001"
	rulesOther   = "6d2a00000000000000000002" // same event, another configuration
	// rulesAlertPrefix and two hexadecimal digits are an alert's id; the
	// tests name alerts by those two digits.
	rulesAlertPrefix = "6d1a0000000000000000aa"
)

// rulesData is a project with two HOST_DOWN configurations (an email
// after delay minutes, every 60) and alerts written as
// "id:config:status:host" (created an hour before start).
func rulesData(t *testing.T, delay int, alerts ...string) []byte {
	t.Helper()
	var items []string
	for _, a := range alerts {
		p := strings.Split(a, ":")
		if len(p[0]) == 2 {
			p[0] = rulesAlertPrefix + p[0]
		}
		items = append(items, fmt.Sprintf(`{"id": %q, "groupId": %q, "alertConfigId": %q, "eventTypeName": "HOST_DOWN", "status": %q,
			"created": "2025-12-31T23:00:00Z", "updated": "2025-12-31T23:00:00Z", "hostnameAndPort": %q}`, p[0], rulesProject, p[1], p[2], p[3]+":27017"))
	}
	config := func(id string) string {
		return fmt.Sprintf(`{"id": %q, "groupId": %q, "eventTypeName": "HOST_DOWN", "enabled": true,
			"notifications": [{"typeName": "EMAIL", "emailAddress": "a@example.com", "delayMin": %d, "intervalMin": 60}]}`, id, rulesProject, delay)
	}
	return []byte(fmt.Sprintf(`{"orgs": [{"id": %q, "name": "o"}], "projects": [{"id": %q, "name": "p", "orgId": %q}],
		"alertConfigs": [%s, %s], "alerts": [%s]}`, rulesOrg, rulesProject, rulesOrg, config(rulesConfig), config(rulesOther), strings.Join(items, ",")))
}

// rulesEngine starts the store on data as a state file would hold it.
func rulesEngine(t *testing.T, data []byte) *engineDriver {
	t.Helper()
	e, err := newEngineDriver(data, start)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// statuses are the alerts' statuses by id, as "id=STATUS" sorted.
func statuses(t *testing.T, e *engineDriver) string {
	t.Helper()
	alerts, err := e.Alerts()
	if err != nil {
		t.Fatal(err)
	}
	return idStatuses(alerts)
}

// idStatuses writes alerts as "id=STATUS", sorted, each id by its last
// two digits.
func idStatuses(alerts []map[string]any) string {
	var out []string
	for _, a := range alerts {
		out = append(out, fmt.Sprintf("%s=%s", strings.TrimPrefix(fmt.Sprint(a["id"]), rulesAlertPrefix), a["status"]))
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// Issue 31, Wrong 2: disabling a configuration (PATCH, or PUT with enabled
// false or left out) cancels every active alert of it, not one a target.
func TestDisablingCancelsEveryActiveAlertOfTheConfiguration(t *testing.T) {
	data := rulesData(t, 10, "a1:"+rulesConfig+":OPEN:db1", "a2:"+rulesConfig+":OPEN:db1", "a3:"+rulesConfig+":TRACKING:db1",
		"a4:"+rulesConfig+":OPEN:db2", "a5:"+rulesOther+":OPEN:db1")
	for _, c := range []struct {
		how     string
		disable func(*engineDriver) error
	}{
		{"PATCH enabled false", func(e *engineDriver) error { return e.SetEnabled(rulesConfig, false) }},
		{"PUT without enabled", func(e *engineDriver) error { return e.Put(rulesConfig, nil) }},
		{"PUT with enabled false", func(e *engineDriver) error { return e.Put(rulesConfig, new(bool)) }},
	} {
		e := rulesEngine(t, data)
		if err := c.disable(e); err != nil {
			t.Fatal(err)
		}
		if got, want := statuses(t, e), "a1=CANCELLED a2=CANCELLED a3=CANCELLED a4=CANCELLED a5=OPEN"; got != want {
			t.Errorf("after %s: %s, want %s", c.how, got, want)
		}
	}
}

// Issue 31, Wrong 5: a clearing condition closes every active alert of
// its event type and target identity, and the answer lists them all.
func TestClearingClosesEveryActiveAlertOfTheTarget(t *testing.T) {
	e := rulesEngine(t, rulesData(t, 70, "a1:"+rulesConfig+":OPEN:db1", "a2:"+rulesConfig+":OPEN:db1", "a3:"+rulesConfig+":TRACKING:db1",
		"a4:"+rulesOther+":OPEN:db1", "a5:"+rulesConfig+":OPEN:db2"))
	answer, err := e.Report(mCondition{Project: rulesProject, Event: "HOST_DOWN", Target: mTarget{Host: "db1:27017"}, Resolved: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := idStatuses(answer), "a1=CLOSED a2=CLOSED a3=CANCELLED a4=CLOSED"; got != want {
		t.Errorf("the answer lists %s, want %s", got, want)
	}
	if got, want := statuses(t, e), "a1=CLOSED a2=CLOSED a3=CANCELLED a4=CLOSED a5=OPEN"; got != want {
		t.Errorf("after clearing: %s, want %s", got, want)
	}
	// Reported again, the condition raises one alert, and only one.
	if _, err := e.Report(mCondition{Project: rulesProject, Event: "HOST_DOWN", Target: mTarget{Host: "db1:27017"}}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(statuses(t, e), "=TRACKING"); got != 2 {
		t.Errorf("raising again: %s, want one TRACKING alert a configuration", statuses(t, e))
	}
}

// Issue 31, Wrong 2 (TRACKING to OPEN): every TRACKING alert of a target
// opens on time, and once opened each is cancelled with its configuration.
func TestEveryTrackingAlertOfATargetOpensOnTime(t *testing.T) {
	e := rulesEngine(t, rulesData(t, 70, "a1:"+rulesConfig+":TRACKING:db1", "a2:"+rulesConfig+":TRACKING:db1"))
	if err := e.Advance(15 * time.Minute); err != nil {
		t.Fatal(err)
	}
	if got, want := statuses(t, e), "a1=OPEN a2=OPEN"; got != want {
		t.Fatalf("after their delay: %s, want %s", got, want)
	}
	if err := e.SetEnabled(rulesConfig, false); err != nil {
		t.Fatal(err)
	}
	if got, want := statuses(t, e), "a1=CANCELLED a2=CANCELLED"; got != want {
		t.Errorf("after disabling: %s, want %s", got, want)
	}
}

// Issue 31, Wrong 4: a fixture alert that opens on time gets no
// lastNotified: nothing was recorded for it, and nothing is.
func TestAFixtureAlertThatOpensIsNotNotified(t *testing.T) {
	data := rulesData(t, 2, "a1:"+rulesConfig+":TRACKING:db1")
	data = []byte(strings.Replace(string(data), "2025-12-31T23:00:00Z", "2025-12-31T23:59:00Z", 2))
	e := rulesEngine(t, data)
	if err := e.Advance(5 * time.Minute); err != nil {
		t.Fatal(err)
	}
	alerts, err := e.Alerts()
	if err != nil {
		t.Fatal(err)
	}
	if a := alerts[0]; a["status"] != "OPEN" || a["updated"] != "2026-01-01T00:01:00Z" || a["lastNotified"] != nil {
		t.Errorf("the fixture alert after its delay: %v; want OPEN, updated when it opened, no lastNotified", a)
	}
	if n := e.Notifications(); len(n) != 0 {
		t.Errorf("a fixture alert was notified: %v", n)
	}
}

// Issue 31, Wrong 3: a fixture file with two active alerts of one
// configuration and target identity is refused, naming both; the same
// data from a state file loads (and the engine copes, above).
func TestAFixtureFileWithTwoActiveAlertsOfOneTargetIsRefused(t *testing.T) {
	data := rulesData(t, 0, "6d1a00000000000000000001:"+rulesConfig+":CLOSED:db1", "6d1a00000000000000000002:"+rulesConfig+":OPEN:db1",
		"6d1a00000000000000000003:"+rulesOther+":OPEN:db1", "6d1a00000000000000000004:"+rulesConfig+":TRACKING:db1")
	_, err := fixture.ParseFixtures("fixture.json", data)
	if err == nil {
		t.Fatal("the fixture file loads")
	}
	for _, want := range []string{"fixture.json: alerts[3]:", "6d1a00000000000000000002", "6d1a00000000000000000004", rulesConfig, "db1:27017", rulesProject} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the message does not name %s: %v", want, err)
		}
	}
	if _, err := fixture.ParseStateData("state", data); err != nil {
		t.Errorf("as a state file's data: %v", err)
	}
	// One active alert a configuration and target loads.
	ok := rulesData(t, 0, "6d1a00000000000000000001:"+rulesConfig+":CANCELLED:db1", "6d1a00000000000000000002:"+rulesConfig+":OPEN:db1",
		"6d1a00000000000000000003:"+rulesOther+":OPEN:db1", "6d1a00000000000000000004:"+rulesConfig+":TRACKING:db2")
	if _, err := fixture.ParseFixtures("fixture.json", ok); err != nil {
		t.Error(err)
	}
}

// Issue 31, Wrong 3: the demo keeps the rule it serves, whatever the day
// it starts on, and a host's alert is known by its host and port, as a
// condition reported with server trigger --host is.
func TestTheDemoKeepsTheEngineRules(t *testing.T) {
	for _, now := range []time.Time{start, time.Date(2031, 7, 9, 13, 47, 11, 0, time.UTC)} {
		f := demo.Fixtures(now)
		if err := f.CheckEngineRules(); err != nil {
			t.Fatalf("demo of %s: %v", now, err)
		}
		statuses := map[string]int{}
		for _, a := range append(f.Alerts, f.GlobalAlerts...) {
			statuses[a.Status]++
		}
		for _, st := range []string{api.StatusOpen, api.StatusTracking, api.StatusClosed, api.StatusCancelled} {
			if statuses[st] == 0 {
				t.Errorf("the demo has no %s alert: %v", st, statuses)
			}
		}
	}
	st := newTx(demo.Fixtures(start), start)
	st.Prepare(start)
	var host *alert.Rec
	open, _ := st.ProjectAlerts(demo.ProjectID).Page(alert.Filter{Status: api.StatusOpen}, 0, 1000)
	for _, r := range open {
		if r.Cur.EventTypeName == "HOST_DOWN" && r.Status == api.StatusOpen {
			host = r
			break
		}
	}
	if host == nil {
		t.Fatal("the demo has no OPEN HOST_DOWN alert in its first project")
	}
	cfg := st.AlertConfigs(demo.ProjectID).Get(host.Cur.AlertConfigID)
	if !cfg.Enabled {
		t.Fatalf("configuration %s is disabled", cfg.ID)
	}
	d := host.Cur.Doc()
	if d["hostId"] != nil {
		t.Errorf("a demo host alert has a hostId, by which a condition reported by host and port does not find it: %v", d)
	}
	changed := st.Apply(Condition{Project: demo.ProjectID, Event: "HOST_DOWN", Target: alert.Target{HostnameAndPort: d["hostnameAndPort"].(string)}}, start)
	if len(changed) != 0 {
		t.Errorf("HOST_DOWN on %s, which has the OPEN alert %s, changed %d alerts", d["hostnameAndPort"], host.Cur.ID, len(changed))
	}
}
