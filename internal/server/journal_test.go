package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/journal"
	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/fixture"
)

// newEnvOpts is newEnv with options of the test's own.
func newEnvOpts(t *testing.T, set func(*Options)) *env {
	t.Helper()
	f, err := fixture.ParseFixtures("fixture", []byte(fixtureJSON))
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Fixtures: f, Clock: store.VirtualClock(start)}
	set(&opts)
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return &env{t: t, s: s, ts: ts, base: ts.URL + apiBase, clients: map[string]*http.Client{}}
}

// journalOf reads GET /_omctl/requests with a query as the owner.
func (e *env) journalOf(query string) (response, []map[string]any) {
	e.t.Helper()
	r := e.doRaw("owner", "GET", "/_omctl/requests"+query, "")
	e.expect(r, 200, "")
	var out []map[string]any
	for _, v := range r.body["results"].([]any) {
		out = append(out, v.(map[string]any))
	}
	return r, out
}

func TestJournalRecordsEveryAPIRequestOldestFirst(t *testing.T) {
	e := newEnv(t)
	e.do("owner", "GET", "/groups/"+projA+"/alerts?pretty=true", nil)
	e.do("owner", "PATCH", "/groups/"+projA+"/alertConfigs/"+cfgHost, map[string]any{"enabled": false})
	e.do("reader", "PATCH", "/groups/"+projA+"/alertConfigs/"+cfgHost, map[string]any{"enabled": true})
	e.do("", "GET", "/globalAlerts", nil)
	e.do("admin@example.com", "GET", "/nowhere", nil)
	// Controls are not journaled.
	e.doRaw("owner", "POST", "/_omctl/clock", `{"advance": "1m"}`)
	e.doRaw("owner", "GET", "/_omctl/faults", "")
	e.doRaw("", "GET", "/_omctl/health", "")

	r, got := e.journalOf("")
	// The digest client's first request of each caller is a 401 challenge.
	type row struct {
		method, path, query, caller, errorCode string
		status                                 int
	}
	var rows []row
	for _, g := range got {
		q, _ := g["query"].(string)
		code, _ := g["errorCode"].(string)
		rows = append(rows, row{g["method"].(string), g["path"].(string), q, g["caller"].(string), code, int(g["status"].(float64))})
	}
	want := []row{
		{"GET", apiBase + "/groups/" + projA + "/alerts", "pretty=true", "", "", 401},
		{"GET", apiBase + "/groups/" + projA + "/alerts", "pretty=true", "owner", "", 200},
		{"PATCH", apiBase + "/groups/" + projA + "/alertConfigs/" + cfgHost, "", "owner", "", 200},
		{"PATCH", apiBase + "/groups/" + projA + "/alertConfigs/" + cfgHost, "", "", "", 401},
		{"PATCH", apiBase + "/groups/" + projA + "/alertConfigs/" + cfgHost, "", "reader", "USER_UNAUTHORIZED", 401},
		{"GET", apiBase + "/globalAlerts", "", "", "", 401},
		{"GET", apiBase + "/nowhere", "", "", "", 401},
		{"GET", apiBase + "/nowhere", "", "admin@example.com", "RESOURCE_NOT_FOUND", 404},
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Fatalf("journal:\n got %v\nwant %v", rows, want)
	}
	if r.body["totalCount"] != float64(len(want)) || r.body["links"] == nil {
		t.Errorf("not the list shape: %s", r.raw)
	}
	first := got[1]
	if !regexp.MustCompile(`^[0-9a-f]{24}$`).MatchString(first["id"].(string)) || first["id"] == got[2]["id"] {
		t.Errorf("ids: %v %v", first["id"], got[2]["id"])
	}
	if first["time"] != "2026-01-01T00:00:00Z" || got[len(got)-1]["time"] != "2026-01-01T00:00:00Z" {
		t.Errorf("time is not the server's clock: %v", first["time"])
	}
	if first["remoteAddr"] != "127.0.0.1" {
		t.Errorf("remoteAddr = %v, want the address without its port", first["remoteAddr"])
	}
	for _, k := range []string{"query", "errorCode", "body"} {
		if _, ok := got[2][k]; ok && k != "body" {
			t.Errorf("empty %s is not left out: %v", k, got[2])
		}
	}
	if _, ok := first["body"]; ok {
		t.Errorf("a GET without a body has one: %v", first)
	}
	if b, _ := got[2]["body"].(map[string]any); b["enabled"] != false {
		t.Errorf("body = %v, want the JSON received", got[2]["body"])
	}
}

func TestJournalRedactsSecretsAnywhereInTheBody(t *testing.T) {
	e := newEnv(t)
	body := `{"id": "oplog-new", "acceptedTos": true, "cloudSecretKey": "SECRET-1", "awsSecretKey": "SECRET-2",
	  "nested": {"privateKey": "SECRET-3", "list": [{"webhookSecret": "SECRET-4"}, {"serviceKey": "SECRET-5", "keep": "visible"}]},
	  "notifications": [{"apiToken": "SECRET-6", "datadogApiKey": "SECRET-7", "monitoringApiKey": "SECRET-8",
	    "opsGenieApiKey": "SECRET-9", "alertingApiKey": "SECRET-10", "victorOpsApiKey": "SECRET-11", "incidentApiKey": "SECRET-12",
	    "notificationToken": "SECRET-13", "privateKey": {"deep": "SECRET-14"}}]}`
	r := e.do("owner", "POST", "/admin/backup/oplog/s3Configs", body)
	e.expect(r, 400, "INVALID_ATTRIBUTE") // refused, and journaled all the same
	e.do("owner", "POST", "/admin/backup/oplog/s3Configs", "not json {")
	raw := e.doRaw("owner", "GET", "/_omctl/requests?method=POST&caller=owner", "")
	if strings.Contains(string(raw.raw), "SECRET-") {
		t.Fatalf("a secret reached the journal: %s", raw.raw)
	}
	_, got := e.journalOf("?method=POST&caller=owner")
	if len(got) != 2 {
		t.Fatalf("want 2 entries: %v", got)
	}
	b := got[0]["body"].(map[string]any)
	if b["cloudSecretKey"] != journal.Redacted || b["nested"].(map[string]any)["list"].([]any)[1].(map[string]any)["keep"] != "visible" {
		t.Errorf("body = %v", b)
	}
	if n := strings.Count(string(raw.raw), `"<redacted>"`); n != 14 {
		t.Errorf("%d fields redacted, want 14: %s", n, raw.raw)
	}
	if _, ok := got[1]["body"]; ok {
		t.Errorf("a body that is not JSON is shown: %v", got[1])
	}
}

// The routing keys of the incident integration, which the API shows as
// stored, and the password of a URL, a store's uri among them, are hidden
// from the journal too, an escaped one included; GET shows a store's uri
// as stored, password and all (docs/api.md, S3 stores).
func TestJournalHidesRoutingKeysAndURLPasswords(t *testing.T) {
	e := newEnv(t)
	config := `{"eventTypeName": "HOST_DOWN", "enabled": true, "notifications": [
	  {"typeName": "VICTOR_OPS", "victorOpsApiKey": "SECRET-1", "victorOpsRoutingKey": "SECRET-2", "delayMin": 0},
	  {"typeName": "INCIDENT", "incidentApiKey": "SECRET-3", "incidentRoutingKey": "SECRET-4", "delayMin": 0}]}`
	e.expect(e.do("owner", "POST", "/groups/"+projA+"/alertConfigs", config), 200, "")
	for id, uri := range map[string]string{"plain": `mongodb://ops:SECRET-5@db1:27017,db2:27017/meta`,
		"escaped": `mongodb:\/\/ops:SECRET-6\u0040db1`, "bare": `ops:SECRET-7@db1:27017`} {
		store := strings.Replace(oplogJSON(id), `"mongodb://meta:27017"`, `"`+uri+`"`, 1)
		e.expect(e.do("owner", "POST", "/admin/backup/oplog/s3Configs", store), 200, "")
	}
	raw := e.doRaw("owner", "GET", "/_omctl/requests?method=POST", "")
	if strings.Contains(string(raw.raw), "SECRET-") {
		t.Fatalf("a secret reached the journal: %s", raw.raw)
	}
	for _, want := range []string{`"uri":"mongodb://ops:<redacted>@db1:27017,db2:27017/meta"`, `"uri":"ops:<redacted>@db1:27017"`, `"victorOpsRoutingKey":"<redacted>"`} {
		if !strings.Contains(string(raw.raw), strings.ReplaceAll(want, `"`, `\"`)) && !strings.Contains(string(raw.raw), want) {
			t.Errorf("the journal lacks %s: %s", want, raw.raw)
		}
	}
	if got := e.do("owner", "GET", "/admin/backup/oplog/s3Configs/plain", nil); got.str("uri") != "mongodb://ops:SECRET-5@db1:27017,db2:27017/meta" {
		t.Errorf("GET of the store shows uri %q, not as stored", got.str("uri"))
	}
}

// oplogJSON is oplogBody with id, as JSON.
func oplogJSON(id string) string {
	b, _ := json.Marshal(oplogBody(map[string]any{"id": id}))
	return string(b)
}

func TestJournalKeepsTheBodyOfARequestAnsweredUnread(t *testing.T) {
	e := newEnv(t)
	e.do("", "POST", "/groups/"+projA+"/apiKeys", `{"desc": "x", "privateKey": "SECRET"}`)
	_, got := e.journalOf("")
	if len(got) != 1 || got[0]["status"] != float64(401) || got[0]["caller"] != "" {
		t.Fatalf("journal: %v", got)
	}
	if b, _ := got[0]["body"].(map[string]any); b["desc"] != "x" || b["privateKey"] != journal.Redacted {
		t.Errorf("body = %v", got[0]["body"])
	}
}

func TestJournalKeepsTheLastRequestsOnly(t *testing.T) {
	e := newEnvOpts(t, func(o *Options) { o.JournalSize = 3 })
	for i := range 5 {
		e.do("owner", "GET", fmt.Sprintf("/globalAlerts?n=%d", i), nil)
	}
	r, got := e.journalOf("")
	if len(got) != 3 || r.body["totalCount"] != float64(3) {
		t.Fatalf("kept %d: %s", len(got), r.raw)
	}
	for i, g := range got {
		if g["query"] != fmt.Sprintf("n=%d", i+2) {
			t.Errorf("entry %d = %v, want n=%d", i, g["query"], i+2)
		}
	}
	off := newEnvOpts(t, func(o *Options) { o.JournalSize = -1 })
	off.do("owner", "GET", "/globalAlerts", nil)
	if _, got := off.journalOf(""); len(got) != 0 {
		t.Errorf("a journal of size 0 kept %v", got)
	}
}

func TestJournalFiltersAndPages(t *testing.T) {
	e := newEnv(t)
	e.do("owner", "GET", "/globalAlerts", nil)
	e.do("owner", "GET", "/groups/"+projA+"/alerts", nil)
	e.do("reader", "GET", "/groups/"+projA+"/alerts", nil)
	e.do("owner", "PATCH", "/groups/"+projA+"/alertConfigs/"+cfgHost, map[string]any{"enabled": false})
	count := func(q string) int {
		t.Helper()
		r, _ := e.journalOf(q)
		return int(r.body["totalCount"].(float64))
	}
	for q, want := range map[string]int{
		"":                                   6,
		"?method=PATCH":                      1,
		"?method=patch":                      1,
		"?caller=owner":                      3,
		"?caller=":                           2,
		"?status=401":                        2,
		"?status=200&caller=reader":          1,
		"?path=" + apiBase + "/groups/":      4,
		"?path=/groups/" + projA + "/alerts": 3,
		"?path=/globalAlerts&status=200":     1,
		"?path=/groups/" + projA + "/alertConfigs/x": 0,
	} {
		if got := count(q); got != want {
			t.Errorf("%s: %d entries, want %d", q, got, want)
		}
	}
	r, got := e.journalOf("?itemsPerPage=2&pageNum=2")
	if len(got) != 2 || got[0]["caller"] != "owner" || got[1]["caller"] != "" || r.body["totalCount"] != float64(6) {
		t.Errorf("page 2 of 2: %s", r.raw)
	}
	for _, l := range r.body["links"].([]any) {
		if href := l.(map[string]any)["href"].(string); !strings.HasPrefix(href, e.ts.URL+"/_omctl/requests?") {
			t.Errorf("link %s does not lead back to the control", href)
		}
	}
	for _, q := range []string{"?status=abc", "?status=1000", "?itemsPerPage=501", "?pageNum=0", "?metod=GET", "?pretty=maybe"} {
		r := e.doRaw("owner", "GET", "/_omctl/requests"+q, "")
		e.expect(r, 400, "INVALID_QUERY_PARAMETER")
		if !strings.Contains(r.str("detail"), strings.Split(q[1:], "=")[0]) {
			t.Errorf("%s: detail does not name the parameter: %s", q, r.raw)
		}
	}
}

func TestJournalDeleteAndResetEmptyIt(t *testing.T) {
	e := newEnv(t)
	e.do("owner", "GET", "/globalAlerts", nil)
	r := e.doRaw("owner", "DELETE", "/_omctl/requests", "")
	if r.status != 200 || strings.TrimSpace(string(r.raw)) != "{}" {
		t.Fatalf("DELETE: %d %s", r.status, r.raw)
	}
	if _, got := e.journalOf(""); len(got) != 0 {
		t.Fatalf("not emptied: %v", got)
	}
	e.do("owner", "GET", "/globalAlerts", nil)
	e.expect(e.doRaw("owner", "POST", "/_omctl/faults", `{"path": "/nowhere", "status": 503}`), 200, "")
	e.expect(e.doRaw("owner", "POST", "/_omctl/clock", `{"advance": "1h"}`), 200, "")
	e.expect(e.doRaw("owner", "POST", "/_omctl/reset", ""), 200, "")
	if _, got := e.journalOf(""); len(got) != 0 {
		t.Errorf("reset left the journal: %v", got)
	}
	if r := e.doRaw("owner", "GET", "/_omctl/faults", ""); r.body["totalCount"] != float64(0) {
		t.Errorf("reset left the faults: %s", r.raw)
	}
	if r := e.doRaw("owner", "GET", "/_omctl/clock", ""); r.str("now") != "2026-01-01T01:00:00Z" {
		t.Errorf("reset moved the clock: %s", r.raw)
	}
}

func TestNewControlsNeedAGlobalOwner(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/_omctl/requests", ""}, {"DELETE", "/_omctl/requests", ""},
		{"GET", "/_omctl/faults", ""}, {"POST", "/_omctl/faults", `{"path": "/**", "status": 503}`},
		{"DELETE", "/_omctl/faults", ""}, {"DELETE", "/_omctl/faults/5f9f00000000000000000001", ""},
	} {
		r := e.doRaw("", c.method, c.path, c.body)
		if r.status != 401 || !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Digest ") {
			t.Errorf("%s %s without credentials: %d %s", c.method, c.path, r.status, r.raw)
		}
		e.expect(e.doRaw("reader", c.method, c.path, c.body), 401, "USER_UNAUTHORIZED")
		e.expect(e.doRaw("admin@example.com", c.method, c.path, c.body), 401, "USER_UNAUTHORIZED")
	}
	// No fault was added by those refused, and nothing was journaled.
	if r := e.doRaw("owner", "GET", "/_omctl/faults", ""); r.body["totalCount"] != float64(0) {
		t.Errorf("faults: %s", r.raw)
	}
	if _, got := e.journalOf(""); len(got) != 0 {
		t.Errorf("controls were journaled: %v", got)
	}
	e.expect(e.doRaw("owner", "PUT", "/_omctl/requests", ""), 405, "METHOD_NOT_ALLOWED")
}

// Every secret field the rules know, wherever a body puts it, is hidden
// from the journal; and every notification field the API itself hides
// once stored is one of them, so a new one cannot be forgotten here.
func TestJournalRedactsEverySecretFieldOfTheRules(t *testing.T) {
	for kind, fields := range rules.NotificationFields {
		for _, f := range fields {
			n := rules.RedactNotification(rules.Doc{"typeName": kind, f: "https://hooks.example.com/path?token=t0ken-1234"})
			if n[f] != "https://hooks.example.com/path?token=t0ken-1234" && !rules.SecretFields[f] {
				t.Errorf("%s.%s is hidden by the API but is not in rules.SecretFields", kind, f)
			}
		}
	}
	e := newEnv(t)
	e.do("owner", "GET", "/globalAlerts", nil) // the digest challenge, before any body
	var names []string
	for f := range rules.SecretFields {
		names = append(names, f)
		value := "SECRET-" + f
		body := map[string]any{
			f:               value,
			"notifications": []any{map[string]any{"typeName": "WEBHOOK", f: value, "nested": map[string]any{strings.ToUpper(f): []any{value}}}},
		}
		e.do("owner", "POST", "/groups/"+projA+"/alertConfigs", body)
	}
	r := e.doRaw("owner", "GET", "/_omctl/requests?method=POST", "")
	if strings.Contains(string(r.raw), "SECRET-") {
		t.Fatalf("a secret reached the journal: %s", r.raw)
	}
	if n, want := strings.Count(string(r.raw), `"<redacted>"`), 3*len(names); n != want {
		t.Errorf("%d values redacted, want %d (fields %v)", n, want, names)
	}
	for _, f := range []string{"webhookUrl", "chatBWebhookUrl", "microsoftTeamsWebhookUrl", "password", "privateKey"} {
		if !rules.SecretFields[f] {
			t.Errorf("%s is not a secret field", f)
		}
	}
}

func TestJournalKeepsOnlyTheSizeOfALargeBody(t *testing.T) {
	e := newEnvOpts(t, func(o *Options) { o.JournalBytes = 64 << 10 })
	entries := make([]any, 0, 1000)
	for i := 0; i < 999; i++ {
		entries = append(entries, map[string]any{"ipAddress": fmt.Sprintf("10.%d.%d.9", i/250, i%250), "comment": strings.Repeat("x", 40)})
	}
	e.do("owner", "POST", "/orgs/"+orgA+"/apiKeys/"+keyListed+"/accessList", entries)
	r, _ := e.journalOf("?method=POST")
	if r.get("results", "0", "body") != nil || r.get("results", "0", "bodyBytes") == nil {
		t.Errorf("a large body was kept: %.300s", r.raw)
	}
}

func TestJournalDropsTheOldestToStayWithinItsBytes(t *testing.T) {
	e := newEnvOpts(t, func(o *Options) { o.JournalBytes = 4 << 10 })
	for i := range 20 {
		e.do("owner", "GET", fmt.Sprintf("/globalAlerts?n=%d", i), nil)
	}
	_, got := e.journalOf("")
	if len(got) < 5 || len(got) >= 21 {
		t.Fatalf("kept %d entries in 4 KiB", len(got))
	}
	if last := got[len(got)-1]; last["query"] != "n=19" {
		t.Errorf("the newest entry was dropped: %v", last)
	}
	if first := got[0]; first["query"] == "n=0" {
		t.Errorf("the oldest entry was kept: %v", first)
	}
	big := `{"desc": "` + strings.Repeat("d", 5000) + `", "privateKey": "SECRET"}`
	e.do("owner", "POST", "/groups/"+projA+"/apiKeys", big)
	r, got := e.journalOf("?method=POST")
	if len(got) != 1 || got[0]["body"] != nil || got[0]["bodyBytes"] != float64(len(big)) {
		t.Errorf("a body larger than the budget: %.300s", r.raw)
	}
}
