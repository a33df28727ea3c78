package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/fixture"
)

// TestEngineAgainstModel drives the store's alert engine and the spec of
// docs/server.md's "Alert engine" (enginemodel_test.go) with the same
// random operations, from the same random data, and compares every
// alert and the notification log after each step. The data starts as a
// state file would hold it, several active alerts of one configuration
// and target included (an older version could write them).
//
// rapid runs it as a state machine: a failing run is shrunk to a short
// sequence of steps, which the log prints, each step as it was done. It
// runs 100 random runs of about 30 steps in make test (some 10 s under
// -race on two cores); make fuzz runs more and longer ones
// (-rapid.checks, -rapid.steps; MODEL_CHECKS and MODEL_STEPS there).
// The engine is driven through engineUnderTest alone (enginedriver_test.go),
// so that it can be driven the same wherever the engine lives.
func TestEngineAgainstModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		fx := drawModelFixture(t, start)
		data := fx.json(t)
		logFixture(t, fx)
		checkFixtureFileRule(t, fx, data)
		eng, err := newEngineDriver(data, start)
		if err != nil {
			t.Fatalf("the engine does not start: %v", err)
		}
		mc := &modelCheck{fx: fx, m: newSpec(fx, start), eng: eng}
		mc.compare(t, "at start")
		t.Repeat(mc.actions())
	})
}

// checkFixtureFileRule checks that a fixture file holding several active
// alerts of one configuration and target is refused, naming two of them,
// and that any other loads.
func checkFixtureFileRule(t *rapid.T, fx *mFixture, data []byte) {
	_, err := fixture.ParseFixtures("fixture.json", data)
	dups := fx.duplicates()
	switch {
	case len(dups) == 0 && err != nil:
		t.Fatalf("the fixture file is refused: %v", err)
	case len(dups) > 0 && err == nil:
		t.Fatalf("a fixture file with the active alerts %v of one configuration and target loads", dups)
	case len(dups) > 0:
		for _, d := range dups {
			if strings.Contains(err.Error(), d[0]) && strings.Contains(err.Error(), d[1]) {
				return
			}
		}
		t.Fatalf("the fixture file is refused without naming two alerts of %v: %v", dups, err)
	}
}

// The spec's world: two projects, hosts on two machines, a cluster.
const (
	modelOrg = "6e1a00000000000000000001"
	modelP1  = "6e2b00000000000000000001"
	modelP2  = "6e2b00000000000000000002"
)

var (
	modelProjects = []string{modelP1, modelP2}
	modelEvents   = []string{"HOST_DOWN", "REPLICA_SET", "OUTSIDE_METRIC_THRESHOLD"}
	// modelTargets tell apart by host id, by host, by cluster (which an
	// alert of these event types does not show), by replica set, and the
	// project itself.
	modelTargets = []mTarget{
		{HostID: "h1", Host: "db1.example.com:27017", ReplicaSet: "rs0"},
		{Host: "db1.example.com:27017", ReplicaSet: "rs0"},
		{Host: "db2.example.com:27017", ReplicaSet: "rs0"},
		{ClusterID: "c1", ReplicaSet: "rs1"},
		{ReplicaSet: "rs0"},
		{},
	}
	modelNotifTypes = []string{"EMAIL", "SMS"}
	modelMinutes    = []time.Duration{0, 5 * time.Minute, 10 * time.Minute}
	modelIntervals  = []time.Duration{0, 10 * time.Minute, 30 * time.Minute}
)

func drawModelFixture(t *rapid.T, start time.Time) *mFixture {
	fx := &mFixture{}
	n := 0
	id := func(prefix string) string { n++; return fmt.Sprintf("%s%020x", prefix, n) }
	for _, p := range modelProjects {
		for range rapid.IntRange(1, 3).Draw(t, "configs of "+p[len(p)-1:]) {
			fx.configs = append(fx.configs, drawModelConfig(t, id("6f2a"), p))
		}
	}
	for range rapid.IntRange(0, 1).Draw(t, "global configs") {
		fx.configs = append(fx.configs, drawModelConfig(t, id("6f2b"), ""))
	}
	alerts := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) mAlert { return drawModelAlert(t, fx.configs, start) }), 0, 8).Draw(t, "alerts")
	for _, a := range alerts {
		a.ID = id("6f1a")
		fx.alerts = append(fx.alerts, a)
	}
	return fx
}

func drawModelConfig(t *rapid.T, id, project string) mConfig {
	c := mConfig{ID: id, Project: project, Event: rapid.SampledFrom(modelEvents).Draw(t, "event"),
		Enabled: rapid.IntRange(0, 3).Draw(t, "disabled") < 3, Threshold: 100, Below: rapid.Bool().Draw(t, "below")}
	if rapid.IntRange(0, 3).Draw(t, "matcher") == 3 {
		c.HostEquals = "db1.example.com"
	}
	for range rapid.IntRange(1, 2).Draw(t, "notifications") {
		c.Notifs = append(c.Notifs, mNotif{Type: rapid.SampledFrom(modelNotifTypes).Draw(t, "type"),
			Delay: rapid.SampledFrom(modelMinutes).Draw(t, "delay"), Interval: rapid.SampledFrom(modelIntervals).Draw(t, "interval")})
	}
	return c
}

func drawModelAlert(t *rapid.T, configs []mConfig, start time.Time) mAlert {
	cfg := configs[rapid.IntRange(0, len(configs)-1).Draw(t, "config")]
	a := mAlert{Config: cfg.ID, Event: cfg.Event, Global: cfg.global(), Project: cfg.Project,
		Status: rapid.SampledFrom([]string{api.StatusOpen, api.StatusOpen, api.StatusTracking, api.StatusClosed, api.StatusCancelled}).Draw(t, "status")}
	if a.Global {
		a.Project = rapid.SampledFrom(modelProjects).Draw(t, "project")
	}
	if rapid.IntRange(0, 7).Draw(t, "without config") == 7 {
		a.Config = ""
	}
	age := time.Duration(rapid.IntRange(0, 3000).Draw(t, "age")) * time.Minute
	if a.Status == api.StatusTracking {
		age = time.Duration(rapid.IntRange(0, 12).Draw(t, "age")) * time.Minute
	}
	a.Created, a.Updated = start.Add(-age), start.Add(-age)
	if a.Status == api.StatusClosed {
		a.Resolved = a.Updated
	}
	if a.Status != api.StatusTracking && rapid.Bool().Draw(t, "lastNotified") {
		a.LastNotified = a.Created
	}
	a.Shown = rapid.SampledFrom(modelTargets).Draw(t, "target").shown()
	a.Identity = a.Shown.identity()
	if a.Event == "OUTSIDE_METRIC_THRESHOLD" {
		v := rapid.SampledFrom([]float64{50, 150}).Draw(t, "value")
		a.Metric, a.Value = "CONNECTIONS", &v
	}
	if rapid.IntRange(0, 3).Draw(t, "acknowledged") == 3 {
		a.AckUntil = start.Add(time.Duration(rapid.IntRange(-2, 2).Draw(t, "ack hours")) * time.Hour / 2)
		a.AckComment, a.AckUser = "looking", "modeluser"
	}
	return a
}

// json is the fixture file of the spec's data.
func (f *mFixture) json(t *rapid.T) []byte {
	doc := map[string]any{
		"orgs":     []any{map[string]any{"id": modelOrg, "name": "model"}},
		"projects": []any{map[string]any{"id": modelP1, "name": "p1", "orgId": modelOrg}, map[string]any{"id": modelP2, "name": "p2", "orgId": modelOrg}},
	}
	var configs, globalConfigs, alerts, globalAlerts []any
	for _, c := range f.configs {
		d := map[string]any{"id": c.ID, "eventTypeName": c.Event, "enabled": c.Enabled,
			"created": "2025-01-01T00:00:00Z", "updated": "2025-01-01T00:00:00Z"}
		var notifs []any
		for _, n := range c.Notifs {
			nd := map[string]any{"typeName": n.Type, "delayMin": int(n.Delay / time.Minute), "intervalMin": int(n.Interval / time.Minute)}
			if n.Type == "EMAIL" {
				nd["emailAddress"] = "ops@example.com"
			} else {
				nd["mobileNumber"] = "+15550100"
			}
			notifs = append(notifs, nd)
		}
		d["notifications"] = notifs
		if c.HostEquals != "" {
			d["matchers"] = []any{map[string]any{"fieldName": "HOSTNAME", "operator": "EQUALS", "value": c.HostEquals}}
		}
		if c.Event == "OUTSIDE_METRIC_THRESHOLD" {
			op := "GREATER_THAN"
			if c.Below {
				op = "LESS_THAN"
			}
			d["metricThreshold"] = map[string]any{"metricName": "CONNECTIONS", "operator": op, "threshold": c.Threshold, "units": "RAW", "mode": "AVERAGE"}
		}
		if c.global() {
			d["forAllGroups"] = true
			globalConfigs = append(globalConfigs, d)
		} else {
			d["groupId"] = c.Project
			configs = append(configs, d)
		}
	}
	for _, a := range f.alerts {
		d := map[string]any{}
		for k, v := range a.fields() {
			d[k] = v
		}
		if a.Value != nil {
			d["currentValue"] = map[string]any{"number": *a.Value, "units": "RAW"}
		}
		if a.Global {
			globalAlerts = append(globalAlerts, d)
		} else {
			alerts = append(alerts, d)
		}
	}
	for k, v := range map[string][]any{"alertConfigs": configs, "globalAlertConfigs": globalConfigs, "alerts": alerts, "globalAlerts": globalAlerts} {
		if len(v) > 0 {
			doc[k] = v
		}
	}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func logFixture(t *rapid.T, f *mFixture) {
	for _, c := range f.configs {
		t.Logf("fixture config %s project=%s %s enabled=%v hostEquals=%q below=%v notifications=%v", c.ID, short(c.Project), c.Event, c.Enabled, c.HostEquals, c.Below, c.Notifs)
	}
	for _, a := range f.alerts {
		t.Logf("fixture alert %s config=%s project=%s global=%v %s %s created=%s target=%v ack=%s", a.ID, a.Config, short(a.Project), a.Global,
			a.Event, a.Status, rules.FormatTime(a.Created), a.Shown, fmtTime(a.AckUntil))
	}
}

func short(project string) string {
	if project == "" {
		return "-"
	}
	return "P" + project[len(project)-1:]
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return rules.FormatTime(t)
}

// modelCheck is one run: the spec, the engine, and what both started from.
type modelCheck struct {
	fx  *mFixture
	m   *spec
	eng engineUnderTest
}

func (mc *modelCheck) actions() map[string]func(*rapid.T) {
	return map[string]func(*rapid.T){
		"report":  mc.report,
		"sample":  mc.sample,
		"enable":  mc.enable,
		"put":     mc.put,
		"ack":     mc.ack,
		"unack":   mc.unack,
		"advance": mc.advance,
		"reset":   mc.reset,
		"restart": mc.restart,
		"":        mc.check,
	}
}

func (mc *modelCheck) report(t *rapid.T) {
	c := mCondition{Project: rapid.SampledFrom(modelProjects).Draw(t, "project"),
		Event: rapid.SampledFrom(modelEvents[:2]).Draw(t, "event"), Target: rapid.SampledFrom(modelTargets).Draw(t, "target"),
		Resolved: rapid.Bool().Draw(t, "resolved")}
	mc.condition(t, c)
}

func (mc *modelCheck) sample(t *rapid.T) {
	c := mCondition{Project: rapid.SampledFrom(modelProjects).Draw(t, "project"), Event: "OUTSIDE_METRIC_THRESHOLD",
		Target: rapid.SampledFrom(modelTargets).Draw(t, "target"), Sample: true,
		Value: rapid.SampledFrom([]float64{50, 150, 250}).Draw(t, "value")}
	mc.condition(t, c)
}

// condition reports c to both, names the alerts the engine raised in the
// spec, and compares the answers.
func (mc *modelCheck) condition(t *rapid.T, c mCondition) {
	t.Logf("report %v", c)
	want := mc.m.Report(c)
	got, err := mc.eng.Report(c)
	if err != nil {
		t.Fatalf("report %v: %v", c, err)
	}
	mc.nameRaised(t)
	var wantIDs, gotIDs []string
	for _, a := range want {
		wantIDs = append(wantIDs, a.ID)
	}
	for _, d := range got {
		gotIDs = append(gotIDs, fmt.Sprint(d["id"]))
	}
	sort.Strings(wantIDs)
	sort.Strings(gotIDs)
	if !slices.Equal(wantIDs, gotIDs) {
		t.Fatalf("report %v answered the alerts %v, want %v", c, gotIDs, wantIDs)
	}
}

// nameRaised gives the alerts the spec raised the ids the engine gave
// them, found by configuration and project (one condition raises at most
// one alert of a configuration in a project).
func (mc *modelCheck) nameRaised(t *rapid.T) {
	alerts, err := mc.eng.Alerts()
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, a := range mc.m.alerts {
		known[a.ID] = true
	}
	for _, a := range mc.m.alerts {
		if !strings.HasPrefix(a.ID, "new-") {
			continue
		}
		var found []string
		for _, d := range alerts {
			id := fmt.Sprint(d["id"])
			if !known[id] && d["alertConfigId"] == a.Config && fmt.Sprint(d["groupId"]) == a.Project {
				found = append(found, id)
			}
		}
		if len(found) != 1 {
			t.Fatalf("the spec raised an alert of configuration %s in %s; the engine raised %v", a.Config, short(a.Project), found)
		}
		for i := range mc.m.notes {
			if mc.m.notes[i].AlertID == a.ID {
				mc.m.notes[i].AlertID = found[0]
			}
		}
		a.ID, known[found[0]] = found[0], true
	}
	mc.m.newID = 0
}

func (mc *modelCheck) drawConfig(t *rapid.T, projectOnly bool) *mConfig {
	var cfgs []*mConfig
	for _, c := range mc.m.configs {
		if !projectOnly || !c.global() {
			cfgs = append(cfgs, c)
		}
	}
	return cfgs[rapid.IntRange(0, len(cfgs)-1).Draw(t, "config")]
}

func (mc *modelCheck) enable(t *rapid.T) {
	cfg := mc.drawConfig(t, false)
	enabled := rapid.Bool().Draw(t, "enabled")
	t.Logf("set enabled=%v on config %s", enabled, cfg.ID)
	mc.m.SetEnabled(cfg.ID, enabled)
	if err := mc.eng.SetEnabled(cfg.ID, enabled); err != nil {
		t.Fatal(err)
	}
}

func (mc *modelCheck) put(t *rapid.T) {
	cfg := mc.drawConfig(t, true)
	var enabled *bool
	switch rapid.IntRange(0, 2).Draw(t, "put enabled") {
	case 1:
		enabled = new(bool)
	case 2:
		enabled = new(bool)
		*enabled = true
	}
	t.Logf("PUT config %s with enabled %s", cfg.ID, map[bool]string{true: fmt.Sprint(enabled != nil && *enabled), false: "left out"}[enabled != nil])
	mc.m.SetEnabled(cfg.ID, enabled != nil && *enabled)
	if err := mc.eng.Put(cfg.ID, enabled); err != nil {
		t.Fatal(err)
	}
}

func (mc *modelCheck) drawAlert(t *rapid.T) *mAlert {
	var alerts []*mAlert
	for _, a := range mc.m.alerts {
		if !a.Global {
			alerts = append(alerts, a)
		}
	}
	if len(alerts) == 0 {
		t.Skip("no project alert")
	}
	return alerts[rapid.IntRange(0, len(alerts)-1).Draw(t, "alert")]
}

func (mc *modelCheck) ack(t *rapid.T) {
	a := mc.drawAlert(t)
	until := mc.m.now.Add(rapid.SampledFrom([]time.Duration{5 * time.Minute, 20 * time.Minute, time.Hour}).Draw(t, "for"))
	t.Logf("acknowledge %s until %s", a.ID, rules.FormatTime(until))
	mc.m.Ack(a, until)
	if err := mc.eng.Ack(a.ID, until); err != nil {
		t.Fatal(err)
	}
}

func (mc *modelCheck) unack(t *rapid.T) {
	a := mc.drawAlert(t)
	t.Logf("unacknowledge %s", a.ID)
	mc.m.Unack(a)
	if err := mc.eng.Unack(a.ID); err != nil {
		t.Fatal(err)
	}
}

func (mc *modelCheck) advance(t *rapid.T) {
	d := rapid.SampledFrom([]time.Duration{time.Minute, 4 * time.Minute, 5 * time.Minute, 7 * time.Minute, 15 * time.Minute, time.Hour}).Draw(t, "by")
	t.Logf("advance the clock %v to %s", d, rules.FormatTime(mc.m.now.Add(d)))
	mc.m.RunUntil(mc.m.now.Add(d))
	if err := mc.eng.Advance(d); err != nil {
		t.Fatal(err)
	}
}

func (mc *modelCheck) reset(t *rapid.T) {
	t.Logf("reset")
	mc.m.reset(mc.fx)
	if err := mc.eng.Reset(); err != nil {
		t.Fatal(err)
	}
}

func (mc *modelCheck) restart(t *rapid.T) {
	t.Logf("restart from the state file")
	if err := mc.eng.Restart(); err != nil {
		t.Fatal(err)
	}
}

// Check compares the alerts and the log after every step.
func (mc *modelCheck) check(t *rapid.T) { mc.compare(t, "") }

func (mc *modelCheck) compare(t *rapid.T, when string) {
	if !mc.eng.Now().Equal(mc.m.now) {
		t.Fatalf("%s: the engine's clock is %s, the spec's %s", when, fmtTime(mc.eng.Now()), fmtTime(mc.m.now))
	}
	alerts, err := mc.eng.Alerts()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]map[string]string{}
	for _, d := range alerts {
		got[fmt.Sprint(d["id"])] = shownFields(d)
	}
	want := mc.m.expected()
	var diffs []string
	for _, id := range rules.SortedKeys(want) {
		if g, ok := got[id]; !ok {
			diffs = append(diffs, fmt.Sprintf("alert %s is missing, want %v", id, want[id]))
		} else if d := fieldDiff(g, want[id]); d != "" {
			diffs = append(diffs, fmt.Sprintf("alert %s: %s", id, d))
		}
	}
	for _, id := range rules.SortedKeys(got) {
		if _, ok := want[id]; !ok {
			diffs = append(diffs, fmt.Sprintf("alert %s is not in the spec: %v", id, got[id]))
		}
	}
	if len(diffs) > 0 {
		t.Fatalf("%s the alerts differ from the spec:\n%s", when, strings.Join(diffs, "\n"))
	}
	notes := mc.eng.Notifications()
	for i := 1; i < len(notes); i++ {
		if notes[i].SentAt.Before(notes[i-1].SentAt) {
			t.Fatalf("the notification log is not in time order: %v before %v", notes[i-1], notes[i])
		}
	}
	if g, w := sortedNotes(notes), sortedNotes(mc.m.notes); !slices.Equal(g, w) {
		t.Fatalf("%s the notification log differs from the spec:\ngot:\n%s\nwant:\n%s", when, strings.Join(g, "\n"), strings.Join(w, "\n"))
	}
}

// shownFields are the members of an alert the spec decides, as strings.
func shownFields(d map[string]any) map[string]string {
	out := map[string]string{}
	for _, k := range []string{"id", "alertConfigId", "eventTypeName", "status", "groupId", "hostId", "hostnameAndPort", "replicaSetName",
		"created", "updated", "acknowledgementComment", "acknowledgingUsername", "metricName", "lastNotified", "resolved", "acknowledgedUntil"} {
		if v, ok := d[k]; ok {
			out[k] = fmt.Sprint(v)
		}
	}
	if cv, ok := d["currentValue"].(map[string]any); ok {
		n, _ := cv["number"].(json.Number).Float64()
		out["currentValue"] = fmt.Sprintf("%v %v", n, cv["units"])
	}
	return out
}

func fieldDiff(got, want map[string]string) string {
	var out []string
	for _, k := range rules.SortedKeys(want) {
		if got[k] != want[k] {
			out = append(out, fmt.Sprintf("%s is %q, want %q", k, got[k], want[k]))
		}
	}
	for _, k := range rules.SortedKeys(got) {
		if _, ok := want[k]; !ok {
			out = append(out, fmt.Sprintf("%s is %q, want none", k, got[k]))
		}
	}
	return strings.Join(out, "; ")
}
