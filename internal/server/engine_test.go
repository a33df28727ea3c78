package server

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/server/auth"
	"github.com/omctl/omctl/internal/server/notify"
	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/engine"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/statelog"
)

// receiver is a webhook receiver that records what it is sent.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	got    []received
	status int
	hold   chan struct{} // when set, answers wait for it to close
}

type received struct {
	event, signature string
	body             []byte
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{status: 200}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, received{req.Header.Get("X-MMS-Event"), req.Header.Get("X-MMS-Signature"), body})
		status, hold := r.status, r.hold
		r.mu.Unlock()
		if hold != nil {
			<-hold
		}
		w.WriteHeader(status)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) events() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, g := range r.got {
		out = append(out, g.event)
	}
	return out
}

func (r *receiver) last() received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.got[len(r.got)-1]
}

const (
	cfgDown   = "5f2a0000000000000000000a"
	cfgMetric = "5f2a0000000000000000000b"
	cfgGlobal = "5f2b0000000000000000000a"
)

// newEngineEnv is a server whose configurations notify hook: a HOST_DOWN
// one for hosts of example.com (5 minutes late, then every 10), a metric
// one (at once), and a global one for BACKUP_AGENT_DOWN.
func newEngineEnv(t *testing.T, hook string) *env {
	t.Helper()
	fixture := fmt.Sprintf(`{
	 "orgs": [{"id": %q}],
	 "projects": [{"id": %q, "orgId": %q}, {"id": %q, "orgId": %q}],
	 "apiKeys": [{"id": "5f4d00000000000000000001", "publicKey": "owner", "privateKey": "owner-secret", "roles": [{"roleName": "GLOBAL_OWNER"}]}],
	 "alertConfigs": [
	  {"id": %q, "groupId": %q, "eventTypeName": "HOST_DOWN", "enabled": true,
	   "matchers": [{"fieldName": "HOSTNAME", "operator": "ENDS_WITH", "value": ".example.com"}],
	   "notifications": [{"typeName": "WEBHOOK", "webhookUrl": %q, "webhookSecret": "s3cret", "delayMin": 5, "intervalMin": 10},
	                     {"typeName": "EMAIL", "emailAddress": "ops@example.com", "delayMin": 5}]},
	  {"id": %q, "groupId": %q, "eventTypeName": "OUTSIDE_METRIC_THRESHOLD", "enabled": true,
	   "metricThreshold": {"metricName": "CONNECTIONS", "operator": "GREATER_THAN", "threshold": 100, "units": "RAW"},
	   "notifications": [{"typeName": "WEBHOOK", "webhookUrl": %q, "delayMin": 0}]}],
	 "globalAlertConfigs": [{"id": %q, "eventTypeName": "BACKUP_AGENT_DOWN", "enabled": true, "forAllGroups": true,
	   "notifications": [{"typeName": "ADMIN", "delayMin": 0}]}]
	}`, orgA, projA, orgA, projB, orgA, cfgDown, projA, hook, cfgMetric, projA, hook, cfgGlobal)
	return newEnvWith(t, fixture)
}

func (e *env) events(body string) response {
	e.t.Helper()
	return e.doRaw("owner", "POST", "/_omctl/events", body)
}

func (e *env) advance(d string) {
	e.t.Helper()
	e.expect(e.doRaw("owner", "POST", "/_omctl/clock", `{"advance": "`+d+`"}`), 200, "")
}

func hostDown(host string, resolved bool) string {
	return fmt.Sprintf(`{"groupId": %q, "eventTypeName": "HOST_DOWN", "target": {"hostnameAndPort": %q}, "resolved": %t}`, projA, host, resolved)
}

func TestHostDownIsRaisedNotifiedAcknowledgedAndClosed(t *testing.T) {
	hook := newReceiver(t)
	e := newEngineEnv(t, hook.URL+"/hook")
	r := e.events(hostDown("db1.example.com:27017", false))
	e.expect(r, 200, "")
	alerts, _ := r.get("alerts").([]any)
	if len(alerts) != 1 {
		t.Fatalf("alerts = %s", r.raw)
	}
	id := r.str("alerts", "0", "id")
	if r.str("alerts", "0", "status") != "TRACKING" || r.str("alerts", "0", "hostnameAndPort") != "db1.example.com:27017" ||
		r.str("alerts", "0", "alertConfigId") != cfgDown {
		t.Fatalf("raised = %s", r.raw)
	}
	// Reported again: nothing changes.
	if r := e.events(hostDown("db1.example.com:27017", false)); !strings.Contains(string(r.raw), `"alerts":[]`) {
		t.Errorf("repeat changed %s", r.raw)
	}
	e.advance("4m")
	if len(hook.events()) != 0 {
		t.Fatalf("notified before the delay: %v", hook.events())
	}
	e.advance("1m")
	a := e.do("owner", "GET", "/groups/"+projA+"/alerts/"+id, nil)
	if a.str("status") != "OPEN" || a.str("updated") != "2026-01-01T00:05:00Z" || a.str("lastNotified") != "2026-01-01T00:05:00Z" {
		t.Fatalf("after the delay: %s", a.raw)
	}
	if got := hook.events(); len(got) != 1 || got[0] != "alert.open" {
		t.Fatalf("webhook events = %v", got)
	}
	checkSignedOpenAlert(t, hook.last(), id)
	e.advance("10m")
	if got := hook.events(); len(got) != 2 || got[1] != "alert.update" {
		t.Fatalf("repeat: %v", got)
	}
	// Acknowledged: told at once, then no repeat while it lasts.
	e.expect(e.do("owner", "PATCH", "/groups/"+projA+"/alerts/"+id, `{"acknowledgedUntil": "2026-01-01T01:00:00Z"}`), 200, "")
	waitFor(t, func() bool { return len(hook.events()) == 3 })
	if got := hook.events(); got[2] != "alert.acknowledge" {
		t.Fatalf("ack: %v", got)
	}
	e.advance("30m")
	if got := hook.events(); len(got) != 3 {
		t.Fatalf("notified while acknowledged: %v", got)
	}
	// Resolved: CLOSED, and told.
	r = e.events(hostDown("db1.example.com:27017", true))
	if r.str("alerts", "0", "status") != "CLOSED" || r.str("alerts", "0", "resolved") != "2026-01-01T00:45:00Z" {
		t.Fatalf("resolved: %s", r.raw)
	}
	if got := hook.events(); len(got) != 4 || got[3] != "alert.close" {
		t.Fatalf("close: %v", got)
	}
	e.advance("1h")
	if got := hook.events(); len(got) != 4 {
		t.Fatalf("notified after closing: %v", got)
	}
	checkNotificationLog(t, e, id, 4)
}

// checkSignedOpenAlert checks that the body of a webhook is the OPEN alert
// id as GET returns it, signed with the secret.
func checkSignedOpenAlert(t *testing.T, sent received, id string) {
	t.Helper()
	mac := hmac.New(sha1.New, []byte("s3cret"))
	mac.Write(sent.body)
	if sent.signature != base64.StdEncoding.EncodeToString(mac.Sum(nil)) {
		t.Errorf("signature %q does not sign the body", sent.signature)
	}
	var body map[string]any
	json.Unmarshal(sent.body, &body)
	if body["id"] != id || body["status"] != "OPEN" || body["lastNotified"] != "2026-01-01T00:05:00Z" {
		t.Errorf("webhook body = %s", sent.body)
	}
}

// checkNotificationLog checks that the log has every notification of
// alert id, its email ones recorded and its webhooks delivered, without
// their secrets.
func checkNotificationLog(t *testing.T, e *env, id string, webhooks int) {
	t.Helper()
	log := e.doRaw("owner", "GET", "/_omctl/notifications?alertId="+id+"&typeName=EMAIL", "")
	if log.str("results", "0", "event") != "alert.open" || log.str("results", "0", "delivery", "status") != "RECORDED" {
		t.Errorf("email log = %s", log.raw)
	}
	hooks := e.doRaw("owner", "GET", "/_omctl/notifications?typeName=WEBHOOK", "")
	if n := fmt.Sprint(hooks.get("totalCount")); n != fmt.Sprint(webhooks) {
		t.Errorf("webhook log has %s entries: %s", n, hooks.raw)
	}
	if strings.Contains(string(hooks.raw), "/hook") || strings.Contains(string(hooks.raw), "s3cret") {
		t.Errorf("log shows a secret: %s", hooks.raw)
	}
	if hooks.str("results", "0", "delivery", "status") != "DELIVERED" {
		t.Errorf("delivery = %s", hooks.raw)
	}
}

// waitFor waits for a background delivery, failing after a long while.
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for i := 0; i < 1000; i++ {
		if ok() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("timed out")
}

func TestConditionsThatRaiseNothing(t *testing.T) {
	hook := newReceiver(t)
	e := newEngineEnv(t, hook.URL)
	for _, body := range []string{
		hostDown("db1.other.org:27017", false), // the matcher does not hold
		fmt.Sprintf(`{"groupId": %q, "eventTypeName": "HOST_DOWN", "target": {"hostnameAndPort": "db1.example.com:1"}}`, projB), // another project
		fmt.Sprintf(`{"groupId": %q, "eventTypeName": "HOST_DOWN", "target": {"replicaSetName": "rs0"}}`, projA),                // no hostname: the matcher does not hold
	} {
		if r := e.events(body); !strings.Contains(string(r.raw), `"alerts":[]`) {
			t.Errorf("%s raised %s", body, r.raw)
		}
	}
	// A disabled configuration raises nothing.
	e.expect(e.do("owner", "PATCH", "/groups/"+projA+"/alertConfigs/"+cfgDown, `{"enabled": false}`), 200, "")
	if r := e.events(hostDown("db1.example.com:27017", false)); !strings.Contains(string(r.raw), `"alerts":[]`) {
		t.Errorf("disabled configuration raised %s", r.raw)
	}
}

func TestMetricCrossesItsThresholdAndComesBack(t *testing.T) {
	hook := newReceiver(t)
	e := newEngineEnv(t, hook.URL)
	sample := func(v string) response {
		return e.events(fmt.Sprintf(`{"groupId": %q, "metricName": "CONNECTIONS", "value": %s, "target": {"hostId": "h1", "hostnameAndPort": "db1:27017"}}`, projA, v))
	}
	if r := sample("90"); !strings.Contains(string(r.raw), `"alerts":[]`) {
		t.Fatalf("below the threshold: %s", r.raw)
	}
	r := sample("150")
	id := r.str("alerts", "0", "id")
	if r.str("alerts", "0", "status") != "OPEN" || !strings.Contains(string(r.raw), `"currentValue":{"number":150,"units":"RAW"}`) ||
		r.str("alerts", "0", "metricName") != "CONNECTIONS" {
		t.Fatalf("raised: %s", r.raw)
	}
	if got := hook.events(); len(got) != 1 || got[0] != "alert.open" {
		t.Fatalf("a delay of 0 is sent by the call that raised it: %v", got)
	}
	if r := sample("150"); !strings.Contains(string(r.raw), `"alerts":[]`) {
		t.Errorf("the same value changed %s", r.raw)
	}
	e.advance("1m")
	r = sample("170")
	if !strings.Contains(string(r.raw), `"number":170`) || r.str("alerts", "0", "updated") != "2026-01-01T00:01:00Z" {
		t.Errorf("a new value: %s", r.raw)
	}
	r = sample("40")
	if r.str("alerts", "0", "id") != id || r.str("alerts", "0", "status") != "CLOSED" || !strings.Contains(string(r.raw), `"number":40`) {
		t.Fatalf("back under: %s", r.raw)
	}
	if got := hook.events(); got[len(got)-1] != "alert.close" {
		t.Errorf("close: %v", got)
	}
}

// A condition that comes back after its alert ended raises a new alert:
// the ended one is no longer the target's active alert.
func TestAConditionThatComesBackRaisesANewAlert(t *testing.T) {
	e := newEngineEnv(t, newReceiver(t).URL)
	sample := func(v string) response {
		return e.events(fmt.Sprintf(`{"groupId": %q, "metricName": "CONNECTIONS", "value": %s, "target": {"hostnameAndPort": "db1:27017"}}`, projA, v))
	}
	first := sample("150").str("alerts", "0", "id")
	if r := sample("40"); r.str("alerts", "0", "status") != "CLOSED" {
		t.Fatalf("back under: %s", r.raw)
	}
	r := sample("160")
	if again := r.str("alerts", "0", "id"); again == "" || again == first || r.str("alerts", "0", "status") != "OPEN" {
		t.Fatalf("over again: %s", r.raw)
	}
	// A global BACKUP_AGENT_DOWN alert does not show the host it came from;
	// the host still tells one target from another, likewise.
	agent := func(host string, resolved bool) response {
		return e.events(fmt.Sprintf(`{"groupId": %q, "eventTypeName": "BACKUP_AGENT_DOWN", "target": {"hostnameAndPort": %q}, "resolved": %t}`, projA, host, resolved))
	}
	down1 := agent("agent1:8080", false).str("alerts", "0", "id")
	down2 := agent("agent2:8080", false).str("alerts", "0", "id")
	if down2 == "" || down2 == down1 {
		t.Fatalf("a second agent down raised %q besides %q", down2, down1)
	}
	if r := agent("agent1:8080", true); r.str("alerts", "0", "id") != down1 || r.str("alerts", "0", "status") != "CLOSED" || r.get("alerts", "1") != nil {
		t.Fatalf("agent1 back: %s", r.raw)
	}
	if r := agent("agent1:8080", false); r.str("alerts", "0", "id") == down1 || r.str("alerts", "0", "status") != "OPEN" {
		t.Fatalf("agent1 down again: %s", r.raw)
	}
	// A TRACKING alert cancelled before it opened, likewise.
	down := e.events(hostDown("db9.example.com:27017", false)).str("alerts", "0", "id")
	e.events(hostDown("db9.example.com:27017", true))
	r = e.events(hostDown("db9.example.com:27017", false))
	if again := r.str("alerts", "0", "id"); again == "" || again == down || r.str("alerts", "0", "status") != "TRACKING" {
		t.Fatalf("down again: %s", r.raw)
	}
}

func TestDisablingAConfigurationCancelsItsAlerts(t *testing.T) {
	hook := newReceiver(t)
	e := newEngineEnv(t, hook.URL)
	id := e.events(hostDown("db2.example.com:27017", false)).str("alerts", "0", "id")
	e.advance("5m")
	e.expect(e.do("owner", "PATCH", "/groups/"+projA+"/alertConfigs/"+cfgDown, `{"enabled": false}`), 200, "")
	if a := e.do("owner", "GET", "/groups/"+projA+"/alerts/"+id, nil); a.str("status") != "CANCELLED" {
		t.Fatalf("after disabling: %s", a.raw)
	}
	waitFor(t, func() bool { return len(hook.events()) == 2 })
	if got := hook.events(); got[1] != "alert.cancel" {
		t.Errorf("events %v", got)
	}
	// A TRACKING alert whose condition clears never opened: CANCELLED.
	e.expect(e.do("owner", "PATCH", "/groups/"+projA+"/alertConfigs/"+cfgDown, `{"enabled": true}`), 200, "")
	e.events(hostDown("db3.example.com:27017", false))
	if r := e.events(hostDown("db3.example.com:27017", true)); r.str("alerts", "0", "status") != "CANCELLED" {
		t.Errorf("tracking cleared: %s", r.raw)
	}
}

func TestGlobalConfigurationRaisesAGlobalAlert(t *testing.T) {
	e := newEngineEnv(t, "http://127.0.0.1:1/")
	r := e.events(fmt.Sprintf(`[{"groupId": %q, "eventTypeName": "BACKUP_AGENT_DOWN"}, {"groupId": %q, "eventTypeName": "BACKUP_AGENT_DOWN"}]`, projA, projB))
	if n := len(r.get("alerts").([]any)); n != 2 {
		t.Fatalf("one per project: %s", r.raw)
	}
	list := e.do("owner", "GET", "/globalAlerts?status=OPEN", nil)
	if fmt.Sprint(list.get("totalCount")) != "2" || !strings.Contains(string(list.raw), projB) {
		t.Errorf("global alerts: %s", list.raw)
	}
	log := e.doRaw("owner", "GET", "/_omctl/notifications?groupId="+projB, "")
	if log.get("results", "0", "global") != true || log.str("results", "0", "typeName") != "ADMIN" {
		t.Errorf("log: %s", log.raw)
	}
}

func TestWebhookFailuresAndDestinations(t *testing.T) {
	saved := notify.WebhookRetries
	notify.WebhookRetries = []time.Duration{time.Millisecond, time.Millisecond}
	defer func() { notify.WebhookRetries = saved }()

	failing := newReceiver(t)
	failing.status = 500
	e := newEngineEnv(t, failing.URL)
	sample := fmt.Sprintf(`{"groupId": %q, "metricName": "CONNECTIONS", "value": 500}`, projA)
	e.expect(e.events(sample), 200, "")
	waitFor(t, func() bool {
		return e.doRaw("owner", "GET", "/_omctl/notifications", "").str("results", "0", "delivery", "status") == "FAILED"
	})
	d := e.doRaw("owner", "GET", "/_omctl/notifications", "")
	if fmt.Sprint(d.get("results", "0", "delivery", "attempts")) != "3" || fmt.Sprint(d.get("results", "0", "delivery", "lastResponseCode")) != "500" {
		t.Errorf("failed delivery: %s", d.raw)
	}
	if len(failing.events()) != 3 {
		t.Errorf("attempts made: %d", len(failing.events()))
	}

	far := newEngineEnv(t, "http://192.0.2.1:9000/hook")
	far.expect(far.events(sample), 200, "")
	d = far.doRaw("owner", "GET", "/_omctl/notifications", "")
	if d.str("results", "0", "delivery", "status") != "FAILED" || fmt.Sprint(d.get("results", "0", "delivery", "attempts")) != "0" ||
		!strings.Contains(d.str("results", "0", "delivery", "lastError"), "not allowed") {
		t.Errorf("a destination that is not allowed: %s", d.raw)
	}
}

func TestASlowReceiverNeverSlowsTheAPI(t *testing.T) {
	hook := newReceiver(t)
	e := newEngineEnv(t, hook.URL)
	id := e.events(hostDown("db1.example.com:27017", false)).str("alerts", "0", "id")
	e.advance("5m")
	hook.mu.Lock()
	hook.hold = make(chan struct{})
	hook.mu.Unlock()
	defer close(hook.hold)
	// The acknowledgement is delivered in the background, to a receiver
	// that does not answer; the API answers all the same.
	done := make(chan struct{})
	go func() {
		e.do("owner", "PATCH", "/groups/"+projA+"/alerts/"+id, `{"acknowledgedUntil": "2026-01-02T00:00:00Z"}`)
		e.do("owner", "GET", "/groups/"+projA+"/alerts", nil)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the API waited for a webhook receiver")
	}
}

func TestEventsAreCheckedWhole(t *testing.T) {
	e := newEngineEnv(t, "http://127.0.0.1:1/")
	good := hostDown("db9.example.com:1", false)
	for body, want := range map[string]string{
		`[` + good + `, {"groupId": "nope", "eventTypeName": "HOST_DOWN"}]`:                                   "400 INVALID_JSON_ATTRIBUTE [1].groupId",
		`[` + good + `, {"groupId": "5e2b0000000000000000ffff", "eventTypeName": "HOST_DOWN"}]`:               "404 GROUP_NOT_FOUND 1",
		`{"groupId": "` + projA + `", "eventTypeName": "NO_SUCH_EVENT"}`:                                      "400 INVALID_ENUM_VALUE eventTypeName",
		`{"groupId": "` + projA + `", "eventTypeName": "HOST_DOWN", "target": {"rack": "r1"}}`:                "400 INVALID_ATTRIBUTE target.rack",
		`{"groupId": "` + projA + `", "eventTypeName": "HOST_DOWN", "target": {"hostId": 7}}`:                 "400 INVALID_JSON_ATTRIBUTE target.hostId",
		`{"groupId": "` + projA + `", "eventTypeName": "HOST_DOWN", "metricName": "CONNECTIONS", "value": 1}`: "400 INVALID_ATTRIBUTE metricName",
		`{"groupId": "` + projA + `", "metricName": "CONNECTIONS", "value": 1, "resolved": true}`:             "400 INVALID_ATTRIBUTE resolved",
		`{"groupId": "` + projA + `", "eventTypeName": "HOST_DOWN", "colour": "red"}`:                         "400 INVALID_ATTRIBUTE colour",
		`{"eventTypeName": "HOST_DOWN"}`: "400 MISSING_ATTRIBUTE groupId",
		`"HOST_DOWN"`:                    "400 INVALID_JSON ",
		`{"groupId": "` + projA + `", "metricName": "NOT_A_METRIC", "value": 1}`:     "400 INVALID_ENUM_VALUE metricName",
		`{"groupId": "` + projA + `", "metricName": "CONNECTIONS", "value": "high"}`: "400 INVALID_JSON_ATTRIBUTE value",
	} {
		r := e.events(body)
		parts := strings.SplitN(want, " ", 3)
		if fmt.Sprint(r.status) != parts[0] || r.str("errorCode") != parts[1] || !strings.Contains(r.str("detail")+fmt.Sprint(r.get("parameters")), parts[2]) {
			t.Errorf("%s: got %d %s", body, r.status, r.raw)
		}
	}
	// Nothing of a refused body was applied.
	if list := e.do("owner", "GET", "/groups/"+projA+"/alerts", nil); fmt.Sprint(list.get("totalCount")) != "0" {
		t.Errorf("a refused body raised alerts: %s", list.raw)
	}
	if r := e.events(`[]`); r.status != 200 || !strings.Contains(string(r.raw), `"alerts":[]`) {
		t.Errorf("empty array: %s", r.raw)
	}
}

func TestConfigurationsUseTheMatchersTheEngineKnows(t *testing.T) {
	e := newEngineEnv(t, "http://127.0.0.1:1/")
	put := func(extra string) response {
		return e.do("owner", "PUT", "/groups/"+projA+"/alertConfigs/"+cfgDown,
			`{"eventTypeName": "HOST_DOWN", "enabled": true, "notifications": [{"typeName": "ADMIN"}]`+extra+`}`)
	}
	e.expect(put(`, "matchers": [{"fieldName": "RACK", "operator": "EQUALS", "value": "r1"}]`), 400, "INVALID_ENUM_VALUE")
	e.expect(put(`, "matchers": [{"fieldName": "HOSTNAME", "operator": "GREATER_THAN", "value": "a"}]`), 400, "INVALID_ENUM_VALUE")
	e.expect(put(`, "matchers": [{"field": "HOSTNAME", "operator": "REGEX", "value": "(["}]`), 400, "INVALID_JSON_ATTRIBUTE")
	e.expect(put(`, "threshold": {"operator": "EQUALS", "threshold": 1, "units": "RAW"}`), 400, "INVALID_ENUM_VALUE")
	e.expect(put(`, "matchers": [{"field": "HOSTNAME", "operator": "REGEX", "value": "db[0-9]+\\.example\\.com"}]`), 200, "")
	// REGEX matches the whole value.
	if r := e.events(hostDown("xdb1.example.com:1", false)); !strings.Contains(string(r.raw), `"alerts":[]`) {
		t.Errorf("partial regex match raised %s", r.raw)
	}
	if r := e.events(hostDown("db1.example.com:1", false)); r.str("alerts", "0", "status") != "OPEN" {
		t.Errorf("regex match: %s", r.raw)
	}
}

// On the real clock, what falls due is sent by the server on its own.
func TestRealClockSendsWhatFallsDue(t *testing.T) {
	hook := newReceiver(t)
	e := newEngineEnv(t, hook.URL)
	real := store.RealClock()
	e.s.clock = real
	e.s.digest = auth.New(auth.Options{NonceTTL: e.s.opts.NonceTTL, Now: real.Now})
	id := e.events(hostDown("db1.example.com:27017", false)).str("alerts", "0", "id")
	if id == "" {
		t.Fatal("nothing raised")
	}
	real.Advance(5 * time.Minute) // behind the server's back: nothing asks it to run
	waitFor(t, func() bool { return len(hook.events()) == 1 })
	if a := e.do("owner", "GET", "/groups/"+projA+"/alerts/"+id, nil); a.str("status") != "OPEN" {
		t.Errorf("after the delay: %s", a.raw)
	}
}

// On the real clock, a restarted server goes on notifying the alerts it
// raised before, without waiting for a request to wake it.
func TestARestartedServerNotifiesOnItsOwn(t *testing.T) {
	f, err := fixture.ParseFixtures("fixture", []byte(fmt.Sprintf(`{
	 "orgs": [{"id": %q}], "projects": [{"id": %q, "orgId": %q}],
	 "apiKeys": [{"id": "5f4d00000000000000000001", "publicKey": "owner", "privateKey": "owner-secret", "roles": [{"roleName": "GLOBAL_OWNER"}]}],
	 "alertConfigs": [{"id": %q, "groupId": %q, "eventTypeName": "HOST_DOWN", "enabled": true,
	   "notifications": [{"typeName": "EMAIL", "emailAddress": "ops@example.com", "delayMin": 0, "intervalMin": 1}]}]}`,
		orgA, projA, orgA, cfgDown, projA)))
	if err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/state.db"
	file, err := statelog.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Fixtures: f, State: file, Clock: store.RealClock()})
	if err != nil {
		t.Fatal(err)
	}
	raised := time.Now()
	if err := s.withData(func(st *engine.Tx) error {
		st.Apply(engine.Condition{Project: projA, Event: "HOST_DOWN", Target: alert.Target{HostnameAndPort: "db1:27017"}}, s.clock.Now())
		st.RunUntil(s.clock.Now())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	file.Close()

	// Restarted with the clock a second short of the first repeat.
	file, err = statelog.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	again, err := New(Options{Fixtures: f, State: file, Clock: store.RealClockAhead(59*time.Second - time.Since(raised))})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if page, _, _ := again.notes.Page(nil, 0, 10); len(page) > 0 {
			if page[0].Event != "alert.update" {
				t.Errorf("after the restart: %+v", page[0])
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the repeat due a second after the restart was not sent")
		}
	}
}

// Webhooks sent before any request has come in (a restarted server's
// resumed schedules) link to the URL the server listens at.
func TestWebhooksBeforeAnyRequestLinkToTheListenedURL(t *testing.T) {
	hook := newReceiver(t)
	f, err := fixture.ParseFixtures("fixture", []byte(fmt.Sprintf(`{
	 "orgs": [{"id": %q}], "projects": [{"id": %q, "orgId": %q}],
	 "apiKeys": [{"id": "5f4d00000000000000000001", "publicKey": "owner", "privateKey": "owner-secret", "roles": [{"roleName": "GLOBAL_OWNER"}]}],
	 "alertConfigs": [{"id": %q, "groupId": %q, "eventTypeName": "HOST_DOWN", "enabled": true,
	   "notifications": [{"typeName": "WEBHOOK", "webhookUrl": %q, "delayMin": 0}]}]}`, orgA, projA, orgA, cfgDown, projA, hook.URL)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Fixtures: f, Clock: store.VirtualClock(start), BaseURL: "http://omctl.test:8080/api/public/v1.0"})
	if err != nil {
		t.Fatal(err)
	}
	var sent sync.WaitGroup
	if err := s.change(func(st *engine.Tx) error {
		st.Apply(engine.Condition{Project: projA, Event: "HOST_DOWN", Target: alert.Target{HostnameAndPort: "db1:27017"}}, s.clock.Now())
		st.RunUntil(s.clock.Now())
		return nil
	}, &sent); err != nil {
		t.Fatal(err)
	}
	sent.Wait()
	if got := hook.events(); len(got) != 1 {
		t.Fatalf("sent %v", got)
	}
	if body := string(hook.last().body); !strings.Contains(body, `"href":"http://omctl.test:8080/api/public/v1.0/groups/`+projA+`/alerts/`) {
		t.Errorf("the alert's self link: %s", body)
	}
}
