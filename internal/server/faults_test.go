package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/client"
)

// addFault posts a fault as the owner and returns its id.
func (e *env) addFault(body string) string {
	e.t.Helper()
	r := e.doRaw("owner", "POST", "/_omctl/faults", body)
	e.expect(r, 200, "")
	if len(r.str("id")) != 24 {
		e.t.Fatalf("fault without an id: %s", r.raw)
	}
	return r.str("id")
}

func TestFaultAnswersItsStatusTheGivenNumberOfTimes(t *testing.T) {
	e := newEnv(t)
	id := e.addFault(`{"method": "GET", "path": "/groups/*/alerts", "status": 503, "retryAfter": 2, "times": 2}`)
	e.do("owner", "GET", "/globalAlerts", nil) // take the challenge first
	for i := range 2 {
		r := e.do("owner", "GET", "/groups/"+projA+"/alerts", nil)
		e.expect(r, 503, "SERVICE_UNAVAILABLE")
		if r.header.Get("Retry-After") != "2" || !strings.Contains(r.str("detail"), id) {
			t.Errorf("answer %d: Retry-After %q: %s", i, r.header.Get("Retry-After"), r.raw)
		}
		if i == 0 {
			l := e.doRaw("owner", "GET", "/_omctl/faults", "")
			if l.body["totalCount"] != float64(1) || l.get("results", "0", "times") != float64(1) {
				t.Errorf("remaining times: %s", l.raw)
			}
		}
	}
	e.expect(e.do("owner", "GET", "/groups/"+projA+"/alerts", nil), 200, "")
	if l := e.doRaw("owner", "GET", "/_omctl/faults", ""); l.body["totalCount"] != float64(0) {
		t.Errorf("a fault used up is still listed: %s", l.raw)
	}
	_, got := e.journalOf("?status=503")
	if len(got) != 2 || got[0]["errorCode"] != "SERVICE_UNAVAILABLE" || got[0]["caller"] != "owner" {
		t.Errorf("faulted requests in the journal: %v", got)
	}
}

func TestFaultedRequestChangesNothing(t *testing.T) {
	e := newEnv(t)
	e.addFault(`{"path": "/groups/**", "method": "PATCH", "status": 500}`)
	e.expect(e.do("owner", "PATCH", "/groups/"+projA+"/alertConfigs/"+cfgHost, map[string]any{"enabled": false}), 500, "UNEXPECTED_ERROR")
	e.expect(e.do("owner", "PATCH", "/groups/"+projA+"/alerts/"+alertHost, map[string]any{"acknowledgedUntil": "2026-02-01T00:00:00Z"}), 500, "UNEXPECTED_ERROR")
	if r := e.do("owner", "GET", "/groups/"+projA+"/alertConfigs/"+cfgHost, nil); r.body["enabled"] != true {
		t.Errorf("the faulted PATCH changed the configuration: %s", r.raw)
	}
	if r := e.do("owner", "GET", "/groups/"+projA+"/alerts/"+alertHost, nil); r.body["acknowledgedUntil"] != nil {
		t.Errorf("the faulted PATCH acknowledged the alert: %s", r.raw)
	}
}

func TestFaultsComeAfterAuthenticationAndTheAccessList(t *testing.T) {
	e := newEnv(t)
	e.addFault(`{"path": "/**", "status": 409}`)
	if r := e.do("", "GET", "/globalAlerts", nil); r.status != 401 || r.header.Get("WWW-Authenticate") == "" {
		t.Errorf("without credentials: %d %s", r.status, r.raw)
	}
	e.expect(e.do("listed", "GET", "/groups/"+projA+"/alerts", nil), 403, "IP_ADDRESS_NOT_ON_ACCESS_LIST")
	e.expect(e.do("reader", "GET", "/groups/"+projA+"/alerts", nil), 409, "CONFLICT")
	// Controls are never faulted.
	e.expect(e.doRaw("owner", "GET", "/_omctl/faults", ""), 200, "")
	e.expect(e.doRaw("owner", "GET", "/_omctl/requests", ""), 200, "")
}

func TestFaultMethodAndPathGlobs(t *testing.T) {
	e := newEnv(t)
	e.addFault(`{"method": "POST", "path": "/admin/**/s3Configs", "status": 502}`)
	e.addFault(`{"path": "/globalAlertConfigs/*", "status": 504, "errorCode": "SLOW_DOWN"}`)
	store := `{"id": "x", "acceptedTos": true, "pathStyleAccessEnabled": true, "s3BucketEndpoint": "https://s3", "s3BucketName": "b", "s3MaxConnections": 1, "sseEnabled": false, "uri": "mongodb://m"}`
	e.expect(e.do("owner", "POST", "/admin/backup/oplog/s3Configs", store), 502, "BAD_GATEWAY")
	e.expect(e.do("owner", "GET", "/admin/backup/oplog/s3Configs/oplog1", nil), 200, "")
	e.expect(e.do("owner", "GET", "/globalAlertConfigs/"+gcfg, nil), 504, "SLOW_DOWN")
	e.expect(e.do("owner", "GET", "/globalAlertConfigs", nil), 200, "")
}

func TestFaultDelayHoldsNoLockAndResetClosesTheConnection(t *testing.T) {
	e := newEnv(t)
	e.addFault(`{"path": "/globalAlerts", "delay": "1m"}`)
	e.do("owner", "GET", "/groups/"+projA+"/alerts", nil)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	delayed := e.base + "/globalAlerts" // read now: journalOf changes e.base for its request
	go func() {
		defer wg.Done()
		req, _ := http.NewRequestWithContext(ctx, "GET", delayed, nil)
		if res, err := e.client("owner").Do(req); err == nil {
			res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			t.Errorf("the delayed request was answered %d before its delay: %s", res.StatusCode, b)
		}
	}()
	// Once it is in its delay (the journal shows it unanswered), reads and
	// writes go on.
	e.waitUnanswered("/globalAlerts", 1)
	for range 3 {
		e.expect(e.do("owner", "PATCH", "/groups/"+projA+"/alertConfigs/"+cfgHost, map[string]any{"enabled": false}), 200, "")
		e.expect(e.do("owner", "GET", "/groups/"+projA+"/alerts", nil), 200, "")
	}
	cancel()
	wg.Wait()
	e.waitUnanswered("/globalAlerts", 0)
	e.expect(e.doRaw("owner", "DELETE", "/_omctl/faults", ""), 200, "")

	e.addFault(`{"path": "/globalAlerts", "delay": "20ms", "times": 1}`)
	began := time.Now()
	e.expect(e.do("owner", "GET", "/globalAlerts", nil), 200, "")
	if time.Since(began) < 20*time.Millisecond {
		t.Errorf("answered before the delay")
	}

	e.addFault(`{"path": "/globalAlerts", "reset": true, "times": 1}`)
	req, _ := http.NewRequest("GET", e.base+"/globalAlerts", nil)
	// A fresh connection each time: net/http repeats a GET whose reused
	// connection closed, and the test would see the repeat's answer.
	fresh := &http.Client{Transport: client.DigestTransport("owner", "owner-secret", &http.Transport{DisableKeepAlives: true})}
	if res, err := fresh.Do(req); err == nil {
		res.Body.Close()
		t.Fatalf("a reset fault answered %d", res.StatusCode)
	}
	e.expect(e.do("owner", "GET", "/globalAlerts", nil), 200, "")
	_, got := e.journalOf("?path=/globalAlerts&status=0")
	if len(got) != 2 { // the request cancelled in its delay, and the reset
		t.Errorf("unanswered requests in the journal: %v", got)
	}
}

func TestFaultProbability(t *testing.T) {
	e := newEnv(t)
	e.addFault(`{"path": "/globalAlerts", "status": 500, "probability": 0}`)
	for range 20 {
		e.expect(e.do("owner", "GET", "/globalAlerts", nil), 200, "")
	}
}

func TestFaultControlsAnswerAndRemove(t *testing.T) {
	e := newEnv(t)
	r := e.doRaw("owner", "POST", "/_omctl/faults", `{"method": "GET", "path": "/groups/*/alerts", "status": 503, "errorCode": "SERVICE_UNAVAILABLE",
	  "retryAfter": 2, "delay": "1500ms", "times": 2, "probability": 1.0, "reset": false}`)
	e.expect(r, 200, "")
	want := map[string]any{"method": "GET", "path": "/groups/*/alerts", "status": float64(503), "errorCode": "SERVICE_UNAVAILABLE",
		"retryAfter": float64(2), "delay": "1500ms", "times": float64(2), "probability": float64(1), "reset": false, "id": r.str("id")}
	if a, b := marshal(r.body), marshal(want); a != b {
		t.Errorf("answer %s, want %s", a, b)
	}
	id2 := e.addFault(`{"path": "/x", "status": 429}`)
	l := e.doRaw("owner", "GET", "/_omctl/faults?itemsPerPage=1&pageNum=2", "")
	if l.body["totalCount"] != float64(2) || l.get("results", "0", "id") != id2 || l.get("results", "0", "errorCode") != "RATE_LIMITED" ||
		l.get("results", "0", "probability") != float64(1) {
		t.Errorf("list: %s", l.raw)
	}
	d := e.doRaw("owner", "DELETE", "/_omctl/faults/"+id2, "")
	if d.status != 200 || strings.TrimSpace(string(d.raw)) != "{}" {
		t.Errorf("DELETE one: %d %s", d.status, d.raw)
	}
	e.expect(e.doRaw("owner", "DELETE", "/_omctl/faults/"+id2, ""), 404, "RESOURCE_NOT_FOUND")
	e.expect(e.doRaw("owner", "DELETE", "/_omctl/faults/nothing-like-an-id", ""), 404, "RESOURCE_NOT_FOUND")
	e.expect(e.doRaw("owner", "DELETE", "/_omctl/faults", ""), 200, "")
	if l := e.doRaw("owner", "GET", "/_omctl/faults", ""); l.body["totalCount"] != float64(0) {
		t.Errorf("DELETE all left %s", l.raw)
	}
	e.expect(e.doRaw("owner", "PATCH", "/_omctl/faults", "{}"), 405, "METHOD_NOT_ALLOWED")
}

func marshal(v any) string { b, _ := json.Marshal(v); return string(b) }

// waitUnanswered waits until n requests for path are in the server's hands
// and not yet answered.
func (e *env) waitUnanswered(path string, n int) {
	e.t.Helper()
	count := func() int { return e.s.journal.Unanswered(apiBase + path) }
	for deadline := time.Now().Add(5 * time.Second); count() != n; time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			e.t.Fatalf("%d requests for %s are unanswered; want %d", count(), path, n)
		}
	}
}

func TestBadFaultsAreRefusedNamingTheAttribute(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct{ body, code, attr string }{
		{`not json`, "INVALID_JSON", ""},
		{`[{"path": "/x"}]`, "INVALID_JSON", ""},
		{`"path"`, "INVALID_JSON", ""},
		{`{}`, "MISSING_ATTRIBUTE", "path"},
		{`{"path": null}`, "MISSING_ATTRIBUTE", "path"},
		{`{"path": "/x", "colour": "red"}`, "INVALID_ATTRIBUTE", "colour"},
		{`{"path": "/x", "method": "FETCH"}`, "INVALID_ENUM_VALUE", "method"},
		{`{"path": "/x", "status": 200}`, "INVALID_JSON_ATTRIBUTE", "status"},
		{`{"path": "/x", "status": 600}`, "INVALID_JSON_ATTRIBUTE", "status"},
		{`{"path": "/x", "status": "503"}`, "INVALID_JSON_ATTRIBUTE", "status"},
		{`{"path": "/x", "status": 503.5}`, "INVALID_JSON_ATTRIBUTE", "status"},
		{`{"path": "/x", "probability": 1.5}`, "INVALID_JSON_ATTRIBUTE", "probability"},
		{`{"path": "/x", "probability": -0.1}`, "INVALID_JSON_ATTRIBUTE", "probability"},
		{`{"path": "/x", "delay": "soon"}`, "INVALID_JSON_ATTRIBUTE", "delay"},
		{`{"path": "/x", "delay": "-1s"}`, "INVALID_JSON_ATTRIBUTE", "delay"},
		{`{"path": "/x", "delay": "2h"}`, "INVALID_JSON_ATTRIBUTE", "delay"},
		{`{"path": "/x", "delay": 15}`, "INVALID_JSON_ATTRIBUTE", "delay"},
		{`{"path": "/x", "times": 0}`, "INVALID_JSON_ATTRIBUTE", "times"},
		{`{"path": "/x", "retryAfter": -1, "status": 503}`, "INVALID_JSON_ATTRIBUTE", "retryAfter"},
		{`{"path": "/x", "reset": "yes"}`, "INVALID_JSON_ATTRIBUTE", "reset"},
		{`{"path": "/x", "reset": true, "status": 503}`, "INVALID_JSON_ATTRIBUTE", "reset"},
		{`{"path": "/x", "errorCode": "NOPE"}`, "MISSING_ATTRIBUTE", "status"},
		{`{"path": "/x", "retryAfter": 1}`, "MISSING_ATTRIBUTE", "status"},
		{`{"path": "/x", "status": 503, "errorCode": "not upper"}`, "INVALID_JSON_ATTRIBUTE", "errorCode"},
		{`{"path": "groups/*"}`, "INVALID_JSON_ATTRIBUTE", "path"},
		{`{"path": "/a**b"}`, "INVALID_JSON_ATTRIBUTE", "path"},
		{`{"path": 5}`, "INVALID_JSON_ATTRIBUTE", "path"},
	} {
		r := e.doRaw("owner", "POST", "/_omctl/faults", c.body)
		e.expect(r, 400, c.code)
		if c.attr != "" && !strings.Contains(r.str("detail"), c.attr) {
			t.Errorf("%s: detail does not name %s: %s", c.body, c.attr, r.raw)
		}
	}
	if l := e.doRaw("owner", "GET", "/_omctl/faults", ""); l.body["totalCount"] != float64(0) {
		t.Errorf("a refused fault was added: %s", l.raw)
	}
	e.expect(e.doRaw("owner", "POST", "/_omctl/faults?x=1", `{"path": "/x"}`), 400, "INVALID_QUERY_PARAMETER")
}
