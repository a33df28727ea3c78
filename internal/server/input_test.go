package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/demo"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/statelog"
)

func TestBadBodiesNeverGive500(t *testing.T) {
	e := newEnv(t)
	path := "/groups/" + projA + "/alerts/" + alertHost
	for body, code := range map[string]string{
		`{"acknowledgedUntil":`:         "INVALID_JSON",
		`[1,2]`:                         "INVALID_JSON",
		`"text"`:                        "INVALID_JSON",
		`{} {}`:                         "INVALID_JSON",
		``:                              "INVALID_JSON",
		`{"acknowledgedUntil": 12}`:     "INVALID_JSON_ATTRIBUTE",
		`{"acknowledgementComment":{}}`: "INVALID_JSON_ATTRIBUTE",
	} {
		r := e.do("monitor", "PATCH", path, body)
		e.expect(r, 400, code)
	}
	big := `{"acknowledgementComment":"` + strings.Repeat("x", maxBodyBytes) + `"}`
	e.expect(e.do("monitor", "PATCH", path, big), 413, "REQUEST_TOO_LARGE")
}

func TestUnknownPathsAndMethods(t *testing.T) {
	e := newEnv(t)
	e.expect(e.do("owner", "GET", "/no/such/thing", nil), 404, "RESOURCE_NOT_FOUND")
	e.expect(e.do("owner", "GET", "/groups/"+projA+"/alerts/"+alertHost+"/extra", nil), 404, "RESOURCE_NOT_FOUND")
	r := e.do("owner", "DELETE", "/groups/"+projA+"/alerts/"+alertHost, nil)
	e.expect(r, 405, "METHOD_NOT_ALLOWED")
	if r.header.Get("Allow") != "GET, PATCH" {
		t.Errorf("Allow = %q", r.header.Get("Allow"))
	}
	e.expect(e.do("owner", "POST", "/globalAlerts", "{}"), 405, "METHOD_NOT_ALLOWED")
}

func TestDetailNamesTheAttribute(t *testing.T) {
	e := newEnv(t)
	r := e.do("owner", "POST", "/admin/backup/oplog/s3Configs", oplogBody(map[string]any{"s3MaxConnections": "many"}))
	if !strings.Contains(r.str("detail"), "s3MaxConnections") {
		t.Errorf("detail = %q", r.str("detail"))
	}
	r = e.do("owner", "PUT", "/groups/"+projA+"/alertConfigs/"+cfgHost, map[string]any{"eventTypeName": "HOST_DOWN",
		"notifications": []any{map[string]any{"typeName": "EMAIL", "emailAddress": 5}}})
	if !strings.Contains(r.str("detail"), "notifications[0].emailAddress") {
		t.Errorf("detail = %q", r.str("detail"))
	}
}

func TestFixtureErrorsNameFileKeyIndexAndRule(t *testing.T) {
	good := map[string]any{}
	json.Unmarshal([]byte(fixtureJSON), &good)
	for _, c := range []struct {
		mutate func(map[string]any)
		want   string
	}{
		{func(m map[string]any) { item(m, "alerts", 2)["status"] = "BROKEN" }, `alerts[2]: An invalid enumeration value BROKEN was specified for status`},
		{func(m map[string]any) { item(m, "alerts", 1)["groupId"] = "5e2b0000000000000000ffff" }, "alerts[1]: groupId 5e2b0000000000000000ffff is not a project"},
		{func(m map[string]any) {
			item(m, "alertConfigs", 0)["notifications"] = []any{map[string]any{"typeName": "FAX"}}
		}, "alertConfigs[0]: An invalid enumeration value FAX"},
		{func(m map[string]any) { item(m, "apiKeys", 1)["roles"] = []any{map[string]any{"roleName": "GOD"}} }, "apiKeys[1]: roles[0].roleName \"GOD\" is not a global role"},
		{func(m map[string]any) { item(m, "snapshots", 0)["id"] = "short" }, "snapshots[0]: id short must be 24 hexadecimal digits"},
		{func(m map[string]any) { m["alert"] = []any{} }, `unknown key "alert"`},
		{func(m map[string]any) { item(m, "backupConfigs", 0)["includedNamespaces"] = []any{"x"} }, "backupConfigs[0]: excludedNamespaces and includedNamespaces are mutually exclusive"},
		{func(m map[string]any) { item(m, "oplogStores", 0)["s3MaxConnections"] = 0 }, "oplogStores[0]: s3MaxConnections must be a positive number"},
		{func(m map[string]any) {
			item(m, "apiKeys", 4)["accessList"] = []any{map[string]any{"ipAddress": "1.2.3"}}
		}, "apiKeys[4]: accessList[0]"},
	} {
		var m map[string]any
		data, _ := json.Marshal(good)
		json.Unmarshal(data, &m)
		c.mutate(m)
		data, _ = json.Marshal(m)
		path := filepath.Join(t.TempDir(), "fx.json")
		os.WriteFile(path, data, 0o600)
		_, err := fixture.LoadFixtures(path)
		if err == nil || !strings.Contains(err.Error(), path+": ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
}

func item(m map[string]any, key string, i int) map[string]any {
	return m[key].([]any)[i].(map[string]any)
}

func TestDemoAndDefaultDataAreValidFixtures(t *testing.T) {
	for name, f := range map[string]*fixture.Fixtures{"demo": demo.Fixtures(time.Now()), "default": fixture.Default()} {
		data, _ := json.Marshal(f)
		if _, err := fixture.ParseFixtures(name, data); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	demo := demo.Fixtures(time.Now())
	if len(demo.Alerts) < 200 || len(demo.Orgs) < 2 || len(demo.Projects) < 3 {
		t.Errorf("demo too small: %d alerts", len(demo.Alerts))
	}
	statuses, kinds := map[any]bool{}, map[any]bool{}
	for _, a := range demo.Alerts {
		statuses[a.Status] = true
	}
	for _, c := range demo.AlertConfigs {
		for _, n := range c["notifications"].([]any) {
			kinds[n.(doc)["typeName"]] = true
		}
	}
	if len(statuses) != 4 {
		t.Errorf("demo alert statuses = %v", statuses)
	}
	for _, k := range []string{"EMAIL", "SMS", "ORG", "GROUP", "USER", "TEAM", "WEBHOOK", "CHAT_A", "CHAT_B", "CHAT_C", "MONITORING", "ALERTING", "PAGING", "INCIDENT"} {
		if !kinds[k] {
			t.Errorf("demo lacks notification kind %s", k)
		}
	}
}

func TestResetAndClockControls(t *testing.T) {
	e := newEnv(t)
	e.do("owner", "PATCH", "/groups/"+projA+"/alertConfigs/"+cfgHost, map[string]any{"enabled": false})
	r := e.doRaw("monitor", "POST", "/_omctl/reset", "{}")
	e.expect(r, 401, "USER_UNAUTHORIZED")
	if r := e.doRaw("", "POST", "/_omctl/reset", ""); r.status != 401 {
		t.Errorf("reset without credentials: %d", r.status)
	}
	e.expect(e.doRaw("owner", "POST", "/_omctl/reset", "{}"), 200, "")
	if r := e.do("owner", "GET", "/groups/"+projA+"/alertConfigs", nil); r.get("results", "0", "enabled") != true {
		t.Errorf("reset did not restore: %s", r.raw)
	}
	// The same, in-process.
	e.do("owner", "PATCH", "/groups/"+projA+"/alertConfigs/"+cfgHost, map[string]any{"enabled": false})
	e.s.Reset()
	if r := e.do("owner", "GET", "/groups/"+projA+"/alertConfigs", nil); r.get("results", "0", "enabled") != true {
		t.Errorf("Reset did not restore: %s", r.raw)
	}
	r = e.doRaw("owner", "POST", "/_omctl/clock", `{"advance":"90m"}`)
	if r.str("now") != "2026-01-01T01:30:00Z" {
		t.Errorf("clock = %s", r.raw)
	}
	e.expect(e.doRaw("owner", "POST", "/_omctl/clock", `{"advance":"soon"}`), 400, "INVALID_JSON_ATTRIBUTE")
	if r := e.doRaw("", "GET", "/_omctl/health", ""); r.status != 200 {
		t.Errorf("health: %d", r.status)
	}
}

func TestStateFileKeepsChanges(t *testing.T) {
	e, path, restart := newStateEnv(t)
	e.do("owner", "POST", "/admin/backup/oplog/s3Configs", oplogBody(nil))
	e.do("owner", "POST", "/orgs/"+orgA+"/apiKeys/"+keyListed+"/accessList", []any{map[string]any{"ipAddress": "127.0.0.1"}})
	e.do("listed", "GET", "/globalAlerts", nil)
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("state file: %v %v", err, st)
	}
	restart()
	e.expect(e.do("owner", "GET", "/admin/backup/oplog/s3Configs/oplog2", nil), 200, "")
	r := e.do("owner", "GET", "/orgs/"+orgA+"/apiKeys/"+keyListed+"/accessList", nil)
	if !strings.Contains(string(r.raw), `"ipAddress":"127.0.0.1"`) || !strings.Contains(string(r.raw), `"count":1`) {
		t.Errorf("access list after restart = %s", r.raw)
	}
}

// newStateEnv is newEnv over a state file at path; restart stops using
// that server and serves the same file from a new one, as a restart of
// `omctl server --state` does (with other fixtures, which must be ignored).
func newStateEnv(t *testing.T) (e *env, path string, restart func()) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "state.db")
	f, _ := fixture.ParseFixtures("f", []byte(fixtureJSON))
	sf, err := statelog.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Fixtures: f, State: sf, Clock: store.VirtualClock(start)})
	if err != nil {
		t.Fatal(err)
	}
	e = newEnv(t)
	e.ts.Config.Handler = s
	e.s = s
	restart = func() {
		t.Helper()
		sf.Close()
		again, err := statelog.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { again.Close() })
		s2, err := New(Options{Fixtures: fixture.Default(), State: again, Clock: store.VirtualClock(start)})
		if err != nil {
			t.Fatal(err)
		}
		e.ts.Config.Handler = s2
		e.s = s2
		e.clients = map[string]*http.Client{}
	}
	return e, path, restart
}

func TestManyClientsAtOnce(t *testing.T) {
	e := newEnv(t)
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			c := &http.Client{Transport: client.DigestTransport("owner", "owner-secret", nil)}
			for i := 0; i < 15; i++ {
				method, path, body := "GET", "/groups/"+projA+"/alerts", ""
				if i%3 == 0 {
					method, path, body = "PATCH", "/groups/"+projA+"/alerts/"+alertHost, fmt.Sprintf(`{"acknowledgedUntil":"2026-02-%02dT00:00:00Z"}`, w+1)
				}
				req, _ := http.NewRequest(method, e.base+path, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				res, err := c.Do(req)
				if err != nil {
					errs <- err.Error()
					return
				}
				res.Body.Close()
				if res.StatusCode != 200 {
					errs <- fmt.Sprintf("%s %s: %d", method, path, res.StatusCode)
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestFixtureUsersAndKeysWithoutRoles(t *testing.T) {
	f, err := fixture.ParseFixtures("f", []byte(`{"users":[{"username":"u","apiKey":"k"}],"apiKeys":[{"id":"5f4d00000000000000000001","publicKey":"p","privateKey":"s"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := New(Options{Fixtures: f})
	e := newEnv(t)
	e.ts.Config.Handler = s
	e.clients["u"] = &http.Client{Transport: client.DigestTransport("u", "k", nil)}
	e.expect(e.do("u", "GET", "/globalAlerts", nil), 401, "USER_UNAUTHORIZED")
	if _, err := fixture.ParseFixtures("f", []byte(`{"users":[{"username":"u","apiKey":"k","roles":"GLOBAL_OWNER"}]}`)); err == nil || !strings.Contains(err.Error(), "users[0]: roles must be an array") {
		t.Errorf("err = %v", err)
	}
}

func TestFixtureOrganizationsNamedOnlyByProjectsAndKeysWithoutIDs(t *testing.T) {
	f, err := fixture.ParseFixtures("f", []byte(`{"projects":[{"id":"5e2b00000000000000000001","orgId":"5e1a00000000000000000009"}],
		"apiKeys":[{"publicKey":"p","privateKey":"s","roles":[{"orgId":"5e1a00000000000000000009","roleName":"ORG_OWNER"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Orgs) != 1 || f.Orgs[0]["id"] != "5e1a00000000000000000009" || len(f.APIKeys[0]["id"].(string)) != 24 {
		t.Errorf("orgs %v, key id %v", f.Orgs, f.APIKeys[0]["id"])
	}
	if _, err := fixture.ParseFixtures("f", []byte(`{"projects":[{"id":"5e2b00000000000000000001","orgId":"acme"}]}`)); err == nil || !strings.Contains(err.Error(), "projects[0]: orgId acme must be 24 hexadecimal digits") {
		t.Errorf("err = %v", err)
	}
}

// TestWhichErrorABadBodyGets pins the order of the checks (docs/api.md,
// Request bodies): unknown attributes, then types and values in name
// order, a required attribute sent as null being missing at its place;
// where a value settles the request (acceptedTos false on a store), a
// null is a wrong value, and what is missing comes last.
func TestWhichErrorABadBodyGets(t *testing.T) {
	e := newEnv(t)
	cfg := "/groups/" + projA + "/alertConfigs/" + cfgHost
	for _, c := range []struct {
		method, path string
		body         any
		code, param  string
	}{
		{"PATCH", cfg, `{"enabled": null, "id": "5f2a00000000000000000099"}`, "MISSING_ATTRIBUTE", "enabled"},
		{"POST", "/groups/" + projA + "/alertConfigs", `{"eventTypeName": null, "notifications": 5}`, "MISSING_ATTRIBUTE", "eventTypeName"},
		{"POST", "/admin/backup/oplog/s3Configs", oplogBody(map[string]any{"acceptedTos": false, "uri": "", "s3BucketName": nil}), "CANNOT_CREATE_STORE_WITHOUT_ACCEPTED_TOS", "acceptedTos"},
		{"POST", "/admin/backup/oplog/s3Configs", `{"acceptedTos": false, "uri": null}`, "INVALID_JSON_ATTRIBUTE", "uri"},
		{"POST", "/admin/backup/oplog/s3Configs", `{"acceptedTos": true, "uri": 5}`, "INVALID_JSON_ATTRIBUTE", "uri"},
		{"POST", "/admin/backup/oplog/s3Configs", `{"acceptedTos": true}`, "MISSING_ATTRIBUTE", "id"},
	} {
		r := e.do("owner", c.method, c.path, c.body)
		e.expect(r, 400, c.code)
		if params, _ := r.body["parameters"].([]any); len(params) == 0 || params[0] != c.param {
			t.Errorf("%s %s %v: parameters %v, want %s first", c.method, c.path, c.body, r.body["parameters"], c.param)
		}
	}
}
