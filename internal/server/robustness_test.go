package server

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/handlers"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/store/fixture"
)

// listPaths are the six list endpoints.
var listPaths = []string{
	"/groups/" + projA + "/alerts",
	"/groups/" + projA + "/alertConfigs",
	"/globalAlerts",
	"/globalAlertConfigs",
	"/groups/" + projA + "/clusters/" + clusterA + "/snapshots",
	"/orgs/" + orgA + "/apiKeys/" + keyListed + "/accessList",
}

func TestHugePageNumIsAnEmptyPageAndTheServerGoesOn(t *testing.T) {
	e := newEnv(t)
	for _, path := range listPaths {
		for _, query := range []string{"?pageNum=4611686018427387905&itemsPerPage=2", "?pageNum=9223372036854775807&itemsPerPage=500",
			"?pageNum=4611686018427387905&itemsPerPage=2&status=OPEN"} {
			if strings.Contains(query, "status") && !strings.HasSuffix(path, "lerts") {
				continue
			}
			r := e.do("owner", "GET", path+query, nil)
			e.expect(r, 200, "")
			if res, _ := r.get("results").([]any); len(res) != 0 {
				t.Errorf("%s%s: results %v, want none", path, query, res)
			}
		}
	}
	// Still serving, with the right data.
	r := e.do("reader", "GET", "/groups/"+projA+"/alerts?status=OPEN", nil)
	e.expect(r, 200, "")
	if n := r.get("totalCount"); fmt.Sprint(n) != "2" {
		t.Errorf("OPEN alerts after huge pages: %v", n)
	}
}

func TestAPanickingHandlerReleasesTheLock(t *testing.T) {
	e := newEnv(t)
	c := e.s.h.NewCtx(httptest.NewRequest("GET", "/", nil), nil, httptest.NewRecorder())
	err := e.s.locked(c, func(*handlers.Ctx) error { panic("a bug") }, false)
	if a, _ := httpx.Answer(err); err == nil || a.Status() != 500 || a.Code() != "UNEXPECTED_ERROR" {
		t.Fatalf("panic answered %v", err)
	}
	done := make(chan response, 1)
	go func() { done <- e.do("owner", "GET", "/globalAlerts", nil) }()
	select {
	case r := <-done:
		e.expect(r, 200, "")
	case <-time.After(10 * time.Second):
		t.Fatal("the server stopped answering after a panic")
	}
}

// A client that stalls halfway through its body, or never reads its
// answers, holds up nobody else.
func TestSlowClientsHoldUpNobody(t *testing.T) {
	e := newEnv(t)
	ts := httptest.NewUnstartedServer(e.s)
	ts.Config = NewHTTPServer(e.s)
	ts.Start()
	defer ts.Close()
	e.base = ts.URL + apiBase

	// A writer that sends 10 of 100 body bytes, then stalls. It must get
	// past authentication first: sign a PATCH by hand.
	nonce := nonceOf(t, e)
	uri := apiBase + "/groups/" + projA + "/alerts/" + alertHost
	stalled, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.Close()
	fmt.Fprintf(stalled, "PATCH %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nAuthorization: %s\r\n\r\n{\"acknowle",
		uri, signed("owner", "owner-secret", "PATCH", uri, nonce, 1))

	// A reader that asks for many large pages and reads none of them.
	greedy, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer greedy.Close()
	for i := 2; i < 200; i++ {
		u := apiBase + "/groups/" + projA + "/alerts?itemsPerPage=500&pretty=true"
		fmt.Fprintf(greedy, "GET %s HTTP/1.1\r\nHost: x\r\nAuthorization: %s\r\n\r\n", u, signed("owner", "owner-secret", "GET", u, nonce, i))
	}

	e.client("owner") // made once, before the goroutines share it
	var wg sync.WaitGroup
	errs := make(chan string, 40)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 5; i++ {
				done := make(chan response, 1)
				go func() { done <- e.do("owner", "GET", "/groups/"+projA+"/alerts/"+alertHost, nil) }()
				select {
				case r := <-done:
					if r.status != 200 {
						errs <- fmt.Sprintf("status %d", r.status)
					}
				case <-time.After(5 * time.Second):
					errs <- "a request waited on a slow client"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Error(msg)
	}
}

func TestHTTPServerHasTimeouts(t *testing.T) {
	h := NewHTTPServer(http.NotFoundHandler())
	if h.ReadHeaderTimeout == 0 || h.ReadTimeout == 0 || h.WriteTimeout == 0 || h.IdleTimeout == 0 || h.MaxHeaderBytes == 0 {
		t.Errorf("timeouts not all set: %+v", h)
	}
}

func TestClockRefusesTimesItCannotShow(t *testing.T) {
	e := newEnv(t)
	// Far in the future still works, and so does every request after it.
	r := e.doRaw("owner", "POST", "/_omctl/clock", `{"set": "2300-01-01T00:00:00Z"}`)
	e.expect(r, 200, "")
	e.expect(e.do("owner", "GET", "/globalAlerts", nil), 200, "")
	e.expect(e.do("reader", "GET", "/groups/"+projA+"/alerts", nil), 200, "")
	for _, body := range []string{`{"set": "2299-01-01T00:00:00Z"}`, `{"advance": "-5m"}`, `{"advance": "99999999999h"}`,
		`{"set": "9999-12-31T23:59:59Z"}`} {
		r := e.doRaw("owner", "POST", "/_omctl/clock", body)
		if body == `{"set": "9999-12-31T23:59:59Z"}` {
			e.expect(r, 200, "")
			continue
		}
		e.expect(r, 400, "INVALID_JSON_ATTRIBUTE")
	}
	e.expect(e.doRaw("owner", "POST", "/_omctl/clock", `{"advance": "1s"}`), 400, "INVALID_JSON_ATTRIBUTE")
	e.expect(e.do("owner", "GET", "/globalAlerts", nil), 200, "")
}

func TestAccessListIsBoundedAndDeduplicated(t *testing.T) {
	e := newEnv(t)
	path := "/orgs/" + orgA + "/apiKeys/" + keyListed + "/accessList"
	entries := make([]any, 0, rules.MaxAccessListEntries)
	for i := 0; i < rules.MaxAccessListEntries-1; i++ {
		entries = append(entries, map[string]any{"ipAddress": fmt.Sprintf("10.%d.%d.1", i/250, i%250)})
	}
	// Sent twice: entries already present are not counted again.
	e.expect(e.do("owner", "POST", path, entries), 200, "")
	r := e.do("owner", "POST", path, entries)
	e.expect(r, 200, "")
	if n := fmt.Sprint(r.get("totalCount")); n != fmt.Sprint(rules.MaxAccessListEntries) {
		t.Fatalf("entries = %s", n)
	}
	r = e.do("owner", "POST", path, []any{map[string]any{"cidrBlock": "192.168.0.0/16"}})
	e.expect(r, 400, "TOO_MANY_ACCESS_LIST_ENTRIES")
	if !strings.Contains(r.str("detail"), "1000") {
		t.Errorf("detail does not name the limit: %s", r.raw)
	}
}

func TestIPv4MappedAccessListEntryMatches(t *testing.T) {
	e := newEnv(t)
	path := "/orgs/" + orgA + "/apiKeys/" + keyListed + "/accessList"
	e.expect(e.do("listed", "GET", "/groups/"+projA+"/alerts", nil), 403, "IP_ADDRESS_NOT_ON_ACCESS_LIST")
	r := e.do("owner", "POST", path, []any{map[string]any{"ipAddress": "::ffff:127.0.0.1"}})
	e.expect(r, 200, "")
	if !strings.Contains(string(r.raw), `"ipAddress":"127.0.0.1"`) {
		t.Errorf("entry not shown as IPv4: %s", r.raw)
	}
	e.expect(e.do("listed", "GET", "/groups/"+projA+"/alerts", nil), 200, "")
}

func TestFixtureAccessListsFailClosed(t *testing.T) {
	for name, key := range map[string]string{
		"object":   `"accessList": {"ipAddress": "10.0.0.1"}`,
		"string":   `"accessList": "10.0.0.1"`,
		"two orgs": `"accessList": [], "roles": [{"orgId": "5e1a00000000000000000001", "roleName": "ORG_OWNER"}, {"orgId": "5e1a00000000000000000002", "roleName": "ORG_OWNER"}]`,
	} {
		data := `{"orgs": [{"id": "5e1a00000000000000000001"}, {"id": "5e1a00000000000000000002"}],
		  "apiKeys": [{"id": "5f4d00000000000000000001", "publicKey": "k", "privateKey": "p", ` + key + `}]}`
		_, err := fixture.ParseFixtures("f.json", []byte(data))
		if err == nil || !strings.Contains(err.Error(), "apiKeys[0]") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestUncleanPathsAuthenticateFirst(t *testing.T) {
	e := newEnv(t)
	for _, p := range []string{"//groups", "/./groups", "/api/public/v1.0", "/api/public/v1.0//groups/" + projA + "/alerts", "/api/public/v1.0/groups/../globalAlerts"} {
		req, _ := http.NewRequest("GET", e.ts.URL+p, nil)
		req.URL.Opaque = p // sent as written
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 401 || res.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s without credentials: %d", p, res.StatusCode)
		}
	}
	r := e.doRaw("owner", "GET", "/api/public/v1.0", "")
	e.expect(r, 404, "RESOURCE_NOT_FOUND")
}

func TestBodiesMustBePlainJSON(t *testing.T) {
	e := newEnv(t)
	path := "/groups/" + projA + "/alerts/" + alertHost
	body := `{"acknowledgedUntil": "2026-02-01T00:00:00Z"}`
	for _, h := range []map[string]string{
		{"Content-Type": "text/plain"},
		{"Content-Type": "application/x-www-form-urlencoded"},
		{"Content-Type": "application/xml"},
		{},
		{"Content-Type": "application/json", "Content-Encoding": "gzip"},
	} {
		req, _ := http.NewRequest("PATCH", e.base+path, strings.NewReader(body))
		for k, v := range h {
			req.Header.Set(k, v)
		}
		res, err := e.client("owner").Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 415 || !strings.Contains(string(raw), "UNSUPPORTED_MEDIA_TYPE") {
			t.Errorf("%v: %d %s", h, res.StatusCode, raw)
		}
	}
	// With a charset it is JSON all the same.
	req, _ := http.NewRequest("PATCH", e.base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	res, err := e.client("owner").Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("application/json; charset=utf-8: %d", res.StatusCode)
	}
}

func TestNullsRangesAndPastAcknowledgements(t *testing.T) {
	e := newEnv(t)
	cfg := "/groups/" + projA + "/alertConfigs/" + cfgHost
	note := func(extra string) string {
		return `{"eventTypeName": "HOST_DOWN", "notifications": [{"typeName": "EMAIL", "emailAddress": "a@example.com"` + extra + `}]}`
	}
	for body, code := range map[string]string{
		`{"eventTypeName": "HOST_DOWN", "enabled": null, "notifications": [{"typeName": "ADMIN"}]}`: "INVALID_JSON_ATTRIBUTE",
		note(`, "delayMin": 153722867280913`):                                                       "INVALID_JSON_ATTRIBUTE",
		note(`, "delayMin": -1`):                                                                    "INVALID_JSON_ATTRIBUTE",
		note(`, "intervalMin": -5`):                                                                 "INVALID_JSON_ATTRIBUTE",
		note(`, "delayMin": null`):                                                                  "INVALID_JSON_ATTRIBUTE",
	} {
		e.expect(e.do("owner", "PUT", cfg, body), 400, code)
	}
	e.expect(e.do("owner", "PUT", cfg, note(`, "delayMin": 525600`)), 200, "")
	bc := "/groups/" + projA + "/backupConfigs/" + clusterA
	for _, body := range []string{`{"statusName": null}`, `{"multiRegionBackupEnabled": null}`, `{"deploymentConfigs": null}`} {
		r := e.do("owner", "PATCH", bc, body)
		if r.status != 400 {
			t.Errorf("%s: %d %s", body, r.status, r.raw)
		}
	}
	ack := "/groups/" + projA + "/alerts/" + alertHost
	r := e.do("owner", "PATCH", ack, `{"acknowledgedUntil": "2025-06-01T00:00:00Z"}`)
	e.expect(r, 400, "INVALID_JSON_ATTRIBUTE")
	if !strings.Contains(r.str("detail"), "acknowledgedUntil") {
		t.Errorf("detail: %s", r.raw)
	}
}

func TestMessagesAndTimestampsReadAsTheAPIWritesThem(t *testing.T) {
	e := newEnv(t)
	r := e.do("owner", "PUT", "/groups/"+projA+"/alertConfigs/"+cfgHost,
		`{"eventTypeName": "HOST_DOWN", "notifications": [{"typeName": "ADMIN", "delayMin": "soon"}]}`)
	e.expect(r, 400, "INVALID_JSON_ATTRIBUTE")
	if !strings.Contains(r.str("detail"), "want an integer") {
		t.Errorf("detail: %s", r.str("detail"))
	}
	// The clock moved by a fraction of a second still writes whole seconds.
	e.expect(e.doRaw("owner", "POST", "/_omctl/clock", `{"advance": "1500ms"}`), 200, "")
	r = e.do("owner", "PATCH", "/groups/"+projA+"/alerts/"+alertHost, `{"acknowledgedUntil": "2026-02-01T00:00:00.250Z"}`)
	e.expect(r, 200, "")
	for _, f := range []string{"updated", "acknowledgedUntil"} {
		if v := r.str(f); len(v) != len("2026-01-01T00:00:01Z") {
			t.Errorf("%s = %q", f, v)
		}
	}
}
