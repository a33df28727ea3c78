package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/omctl/omctl/internal/client"
)

func TestConditionalAlertFields(t *testing.T) {
	e := newEnv(t)
	r := e.do("owner", "GET", "/groups/"+projA+"/alerts/"+alertHost, nil)
	e.expect(r, 200, "")
	// HOST_DOWN: host fields and replicaSetName; no cluster fields; resolved only when CLOSED.
	for _, f := range []string{"hostId", "hostnameAndPort", "replicaSetName"} {
		if r.body[f] == nil {
			t.Errorf("HOST_DOWN lacks %s", f)
		}
	}
	for _, f := range []string{"clusterId", "resolved", "acknowledgedUntil", "currentValue"} {
		if r.body[f] != nil {
			t.Errorf("HOST_DOWN alert shows %s: %s", f, r.raw)
		}
	}
	if r.get("futureField", "x") != 1.0 {
		t.Errorf("unknown fixture field not kept: %s", r.raw)
	}
	if r.str("links", "0", "rel") != "self" || !strings.HasSuffix(r.str("links", "0", "href"), "/groups/"+projA+"/alerts/"+alertHost) {
		t.Errorf("links = %v", r.body["links"])
	}
	r = e.do("owner", "GET", "/groups/"+projA+"/alerts/"+alertOMT, nil)
	if r.get("currentValue", "number") != 12.5 || r.str("metricName") != "CONNECTIONS" || r.str("resolved") == "" {
		t.Errorf("OMT/CLOSED alert = %s", r.raw)
	}
	r = e.do("owner", "GET", "/groups/"+projA+"/alerts/"+alertSh, nil)
	if r.str("clusterName") != "c0" || r.body["hostnameAndPort"] != nil {
		t.Errorf("SHARDED_CLUSTER alert = %s", r.raw)
	}
	r = e.do("owner", "GET", "/groups/"+projB+"/alerts/"+alertBkp, nil)
	if r.str("sourceTypeName") != "REPLICA_SET" || r.str("replicaSetName") != "rs1" {
		t.Errorf("BACKUP alert = %s", r.raw)
	}
}

func TestAlertLookupErrors(t *testing.T) {
	e := newEnv(t)
	e.expect(e.do("owner", "GET", "/groups/nothex/alerts", nil), 404, "INVALID_GROUP_ID")
	e.expect(e.do("owner", "GET", "/groups/5e2b0000000000000000ffff/alerts", nil), 404, "GROUP_NOT_FOUND")
	e.expect(e.do("owner", "GET", "/groups/"+projA+"/alerts/xyz", nil), 404, "INVALID_ALERT_ID")
	r := e.do("owner", "GET", "/groups/"+projA+"/alerts/5f1a0000000000000000ffff", nil)
	e.expect(r, 404, "ALERT_NOT_FOUND")
	if r.str("detail") != "No alert with ID 5f1a0000000000000000ffff exists in group "+projA+"." {
		t.Errorf("detail = %q", r.str("detail"))
	}
	// An alert of another project is not found through this one.
	e.expect(e.do("owner", "GET", "/groups/"+projA+"/alerts/"+alertBkp, nil), 404, "ALERT_NOT_FOUND")
}

func TestAcknowledgeAndUnacknowledge(t *testing.T) {
	e := newEnv(t)
	path := "/groups/" + projA + "/alerts/" + alertHost
	r := e.do("monitor", "PATCH", path, map[string]any{"acknowledgedUntil": "2026-01-02T05:30:00+05:30", "acknowledgementComment": "disk swap"})
	e.expect(r, 200, "")
	if r.str("acknowledgedUntil") != "2026-01-02T00:00:00Z" || r.str("acknowledgementComment") != "disk swap" ||
		r.str("acknowledgingUsername") != "monitor" || r.str("status") != "OPEN" {
		t.Errorf("acknowledged = %s", r.raw)
	}
	if got := e.do("owner", "GET", path, nil); got.str("acknowledgedUntil") != "2026-01-02T00:00:00Z" {
		t.Errorf("acknowledgement not kept: %s", got.raw)
	}
	r = e.do("monitor", "PATCH", path, map[string]any{})
	e.expect(r, 200, "")
	for _, f := range []string{"acknowledgedUntil", "acknowledgementComment", "acknowledgingUsername"} {
		if r.body[f] != nil {
			t.Errorf("unacknowledged alert still shows %s", f)
		}
	}
	// The alert's own fields may be sent back unchanged, not changed.
	e.expect(e.do("monitor", "PATCH", path, map[string]any{"id": alertHost, "status": "OPEN", "acknowledgedUntil": "2026-03-01T00:00:00Z"}), 200, "")
	e.expect(e.do("monitor", "PATCH", path, map[string]any{"status": "CLOSED"}), 400, "ATTRIBUTE_READ_ONLY")
	e.expect(e.do("monitor", "PATCH", path, map[string]any{"groupId": projB}), 400, "ATTRIBUTE_READ_ONLY")
	e.expect(e.do("monitor", "PATCH", path, map[string]any{"acknowledgedUntil": "tomorrow"}), 400, "INVALID_JSON_ATTRIBUTE")
	e.expect(e.do("monitor", "PATCH", path, map[string]any{"snooze": true}), 400, "INVALID_ATTRIBUTE")
}

func TestAcknowledgementEndsWhenItsTimePasses(t *testing.T) {
	e := newEnv(t)
	path := "/groups/" + projA + "/alerts/" + alertHost
	e.do("monitor", "PATCH", path, map[string]any{"acknowledgedUntil": "2026-01-01T01:00:00Z"})
	if r := e.do("owner", "GET", path, nil); r.str("acknowledgedUntil") == "" {
		t.Fatalf("not acknowledged: %s", r.raw)
	}
	advance(t, e, "61m")
	if r := e.do("owner", "GET", path, nil); r.body["acknowledgedUntil"] != nil {
		t.Errorf("acknowledgement shown after it ended: %s", r.raw)
	}
}

func TestTrackingOpensAfterSmallestDelay(t *testing.T) {
	e := newEnv(t)
	// Created 23:55, notifications delayed 30 and 15 minutes: opens at 00:10.
	path := "/groups/" + projA + "/alerts/" + alertTrk
	if r := e.do("owner", "GET", path, nil); r.str("status") != "TRACKING" {
		t.Fatalf("status = %s", r.str("status"))
	}
	advance(t, e, "9m")
	if r := e.do("owner", "GET", "/groups/"+projA+"/alerts?status=TRACKING", nil); r.get("totalCount") != 1.0 {
		t.Fatalf("before the delay: %s", r.raw)
	}
	advance(t, e, "1m")
	r := e.do("owner", "GET", "/groups/"+projA+"/alerts?status=OPEN", nil)
	found := false
	for _, it := range r.get("results").([]any) {
		if a := it.(map[string]any); a["id"] == alertTrk {
			// A fixture alert is never notified: it opens without lastNotified.
			found = a["status"] == "OPEN" && a["updated"] == "2026-01-01T00:10:00Z" && a["lastNotified"] == nil
		}
	}
	if !found || r.get("totalCount") != 3.0 {
		t.Errorf("after the delay: %s", r.raw)
	}
	if r := e.do("owner", "GET", "/groups/"+projA+"/alerts?status=TRACKING", nil); r.get("totalCount") != 0.0 {
		t.Errorf("still tracking: %s", r.raw)
	}
}

func advance(t *testing.T, e *env, d string) {
	t.Helper()
	r := e.doRaw("owner", "POST", "/_omctl/clock", fmt.Sprintf(`{"advance":%q}`, d))
	if r.status != 200 {
		t.Fatalf("clock: %d %s", r.status, r.raw)
	}
}

func TestListsPageWithLinks(t *testing.T) {
	e := newEnv(t)
	r := e.do("owner", "GET", "/groups/"+projA+"/alerts?itemsPerPage=1&pageNum=2&status=OPEN", nil)
	e.expect(r, 200, "")
	if r.get("totalCount") != 2.0 || len(r.get("results").([]any)) != 1 {
		t.Fatalf("page = %s", r.raw)
	}
	rels := map[string]string{}
	for _, l := range r.get("links").([]any) {
		m := l.(map[string]any)
		rels[m["rel"].(string)] = m["href"].(string)
	}
	if !strings.Contains(rels["self"], "itemsPerPage=1&pageNum=2&status=OPEN") {
		t.Errorf("self = %q", rels["self"])
	}
	if !strings.Contains(rels["previous"], "pageNum=1") || !strings.Contains(rels["previous"], "status=OPEN") || !strings.Contains(rels["previous"], "itemsPerPage=1") {
		t.Errorf("previous = %q", rels["previous"])
	}
	if _, ok := rels["next"]; ok {
		t.Errorf("next on the last page: %v", rels)
	}
	r = e.do("owner", "GET", "/groups/"+projA+"/alerts?itemsPerPage=1", nil)
	if _, ok := r.body["links"].([]any); !ok || !strings.Contains(fmt.Sprint(r.body["links"]), "next") || strings.Contains(fmt.Sprint(r.body["links"]), "previous") {
		t.Errorf("first page links = %v", r.body["links"])
	}
	if r.get("results", "0", "links", "0", "rel") != "self" {
		t.Errorf("item lacks its self link: %s", r.raw)
	}
	r = e.do("owner", "GET", "/groups/"+projA+"/alerts?pageNum=9", nil)
	if len(r.get("results").([]any)) != 0 || r.get("totalCount") != 4.0 {
		t.Errorf("page past the end = %s", r.raw)
	}
	for _, q := range []string{"itemsPerPage=501", "itemsPerPage=0", "pageNum=0", "pageNum=x", "status=CANCELLED", "status=open", "backupJobsEnabledOnly=maybe", "envelope=yes"} {
		e.expect(e.do("owner", "GET", "/groups/"+projA+"/alerts?"+q, nil), 400, "INVALID_QUERY_PARAMETER")
	}
	e.expect(e.do("owner", "GET", "/groups/"+projA+"/alerts?itemsPerPage=500&backupJobsEnabledOnly=false", nil), 200, "")
}

func TestEnvelopeAndPretty(t *testing.T) {
	e := newEnv(t)
	r := e.do("owner", "GET", "/groups/"+projA+"/alerts/"+alertHost+"?envelope=true", nil)
	if r.get("status") != 200.0 || r.str("content", "id") != alertHost {
		t.Errorf("single envelope = %s", r.raw)
	}
	r = e.do("owner", "GET", "/groups/"+projA+"/alerts?envelope=true", nil)
	if r.get("status") != 200.0 || r.get("totalCount") != 4.0 {
		t.Errorf("list envelope = %s", r.raw)
	}
	r = e.do("owner", "GET", "/globalAlerts?pretty=true", nil)
	if !strings.Contains(string(r.raw), "\n  \"results\"") {
		t.Errorf("pretty = %s", r.raw)
	}
	if r = e.do("owner", "GET", "/globalAlerts", nil); strings.Count(string(r.raw), "\n") != 1 {
		t.Errorf("not compact by default: %s", r.raw)
	}
}

func TestGlobalAlertDateFilters(t *testing.T) {
	e := newEnv(t)
	for q, want := range map[string]float64{
		"":                              3,
		"?createdOnOrAfter=2025-12-01":  2,
		"?createdOnOrBefore=2025-12-15": 2, // a date alone means the whole day
		"?createdOnOrBefore=2025-12-15T09:59:59Z":                                       1,
		"?createdOnOrBefore=2025-12-15T10:00:00Z&createdOnOrAfter=2025-11-01T00:00:00Z": 2,
		"?status=OPEN&createdOnOrAfter=2025-12-01":                                      1,
		"?status=CLOSED": 1,
	} {
		r := e.do("owner", "GET", "/globalAlerts"+q, nil)
		e.expect(r, 200, "")
		if r.get("totalCount") != want {
			t.Errorf("%s: totalCount %v, want %v", q, r.get("totalCount"), want)
		}
	}
	e.expect(e.do("owner", "GET", "/globalAlerts?createdOnOrAfter=yesterday", nil), 400, "INVALID_QUERY_PARAMETER")
}

// Pages answered at the same time each hold their own alerts, byte for
// byte as when answered one at a time, though the buffers they are built
// in are reused from one answer to the next.
func TestPagesAnsweredAtOnceAreEachTheirOwn(t *testing.T) {
	e := newEnv(t)
	path := func(page int) string {
		return fmt.Sprintf("/groups/%s/alerts?itemsPerPage=1&pageNum=%d", projA, page)
	}
	want := map[int][]byte{}
	for page := 1; page <= 5; page++ { // the fifth is empty
		r := e.do("owner", "GET", path(page), nil)
		e.expect(r, 200, "")
		want[page] = r.raw
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &http.Client{Transport: client.DigestTransport("owner", secrets["owner"], nil)}
			for i := range 80 {
				page := 1 + (g+i)%5
				res, err := c.Get(e.base + path(page))
				if err != nil {
					errs <- err.Error()
					return
				}
				raw, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if !bytes.Equal(raw, want[page]) {
					errs <- fmt.Sprintf("page %d: %s, want %s", page, raw, want[page])
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// An alert pasted into a fixture from a GET answer, links and all: GET and
// the dump show the server's links only.
func TestAnAlertWithLinksInItsFixtureShowsOnlyTheServersLinks(t *testing.T) {
	var fx map[string]any
	if err := json.Unmarshal([]byte(fixtureJSON), &fx); err != nil {
		t.Fatal(err)
	}
	alerts := fx["alerts"].([]any)
	first := alerts[0].(map[string]any)
	first["links"] = []any{map[string]any{"href": "https://prod.example.com/api/public/v1.0/groups/x/alerts/y", "rel": "self"}}
	b, err := json.Marshal(fx)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnvWith(t, string(b))
	one := e.do("owner", "GET", "/groups/"+first["groupId"].(string)+"/alerts/"+first["id"].(string), nil)
	if n := strings.Count(string(one.raw), `"links"`); n != 1 || strings.Contains(string(one.raw), "prod.example.com") {
		t.Errorf("GET shows links %d times: %s", n, one.raw)
	}
	dump := e.doRaw("owner", "GET", "/_omctl/fixtures", "")
	if strings.Contains(string(dump.raw), "prod.example.com") {
		t.Errorf("the dump keeps the pasted links")
	}
}
