package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/demo"
	"github.com/omctl/omctl/internal/store/fixture"
)

// allEmptyFixture has what signing in needs and every other key of a
// fixture file present and empty.
const allEmptyFixture = `{
 "orgs": [{"id": "7e1a00000000000000000001", "name": "o"}],
 "projects": [{"id": "7e2b00000000000000000001", "name": "p", "orgId": "7e1a00000000000000000001"}],
 "apiKeys": [{"id": "7f4d00000000000000000001", "desc": "owner", "publicKey": "owner", "privateKey": "owner-secret", "roles": [{"roleName": "GLOBAL_OWNER"}]}],
 "users": [], "clusters": [], "alerts": [], "alertConfigs": [], "globalAlerts": [], "globalAlertConfigs": [],
 "backupConfigs": [], "snapshots": [], "configServerSnapshots": [], "oplogStores": [], "snapshotStores": [],
 "backupJobConfigs": []
}`

// Every GET of the endpoint table, its controls included, answers
// without a server error on a bare server, on the demo, and on fixtures
// whose every section is empty; and on those without data, every list
// answers 200 with totalCount 0 (empty is a normal state).
func TestEveryGetAnswersOnAnyData(t *testing.T) {
	for _, c := range []struct {
		name     string
		fixtures func(t *testing.T) *fixture.Fixtures
		empty    bool // lists of data other than the sign-ins are empty
	}{
		{"bare", func(*testing.T) *fixture.Fixtures { return nil }, true},
		{"all empty", func(t *testing.T) *fixture.Fixtures {
			f, err := fixture.ParseFixtures("all-empty.json", []byte(allEmptyFixture))
			if err != nil {
				t.Fatal(err)
			}
			return f
		}, true},
		{"demo", func(*testing.T) *fixture.Fixtures { return demo.Fixtures(start) }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := New(Options{Fixtures: c.fixtures(t), Clock: store.VirtualClock(start)})
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(s)
			defer ts.Close()
			user, secret, vals := signInAndIDs(t, s)
			walkGets(t, ts.URL, user, secret, vals, c.empty)
		})
	}
}

// signInAndIDs is a GLOBAL_OWNER of the data served, and an id of each
// kind the endpoints' paths name (one that exists where the data has
// one, a well-formed one otherwise).
func signInAndIDs(t *testing.T, s *Server) (user, secret string, vals map[string]string) {
	f := s.Fixtures()
	vals = map[string]string{"project_id": "7e2b0000000000000000ffff", "org_id": "7e1a0000000000000000ffff", "cluster_id": "7e3c0000000000000000ffff",
		"alert_id": "7f1a0000000000000000ffff", "config_id": "7f2a0000000000000000ffff", "snapshot_id": "7f3c0000000000000000ffff",
		"host_id": "cfghost", "store_id": "nostore", "key_id": "7f4d0000000000000000ffff", "entry": "10.0.0.1", "name": "noname",
		"fault_id": "7f5e0000000000000000ffff", "asset...": ""}
	first := func(list []map[string]any, field, into string) {
		if len(list) > 0 {
			if v, ok := list[0][field].(string); ok {
				vals[into] = v
			}
		}
	}
	first(f.Projects, "id", "project_id")
	first(f.Projects, "name", "name")
	first(f.Orgs, "id", "org_id")
	first(f.BackupConfigs, "clusterId", "cluster_id")
	first(f.AlertConfigs, "id", "config_id")
	first(f.Snapshots, "id", "snapshot_id")
	first(f.OplogStores, "id", "store_id")
	first(f.APIKeys, "id", "key_id")
	if len(f.Alerts) > 0 {
		vals["alert_id"] = f.Alerts[0].ID
	}
	for _, k := range f.APIKeys {
		if strings.Contains(fmtJSON(k["roles"]), "GLOBAL_OWNER") {
			user, secret = k["publicKey"].(string), k["privateKey"].(string)
			if k["orgId"] != nil {
				vals["org_id"] = k["orgId"].(string)
			}
			break
		}
	}
	if user == "" {
		t.Fatal("no GLOBAL_OWNER key in the data")
	}
	return user, secret, vals
}

func fmtJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// walkGets sends every GET of the endpoint table and its controls, with
// vals for the placeholders, and fails on any 5xx; with empty, every
// list of data besides the sign-ins answers 200 and totalCount 0.
func walkGets(t *testing.T, root, user, secret string, vals map[string]string, empty bool) {
	t.Helper()
	signIns := map[string]bool{"ListProjects": true, "ListOrgs": true, "ListOrgProjects": true, "ListAPIKeys": true}
	for _, ep := range append(append([]api.Endpoint(nil), api.Endpoints...), api.Controls...) {
		if ep.Method != "GET" {
			continue
		}
		path := ep.Pattern
		for k, v := range vals {
			path = strings.ReplaceAll(path, "{"+k+"}", v)
		}
		if strings.Contains(path, "{") {
			t.Fatalf("%s: no value for a placeholder of %s", ep.Name, ep.Pattern)
		}
		if !strings.HasPrefix(path, api.ControlBase) {
			path = apiBase + path
		}
		queries := []string{""}
		if ep.Name == "ListOplogStores" || ep.Name == "ListSnapshotStores" {
			queries = []string{"", "?assignableOnly=true", "?assignableOnly=false"}
		}
		for _, q := range queries {
			status, body := digestGet(t, root+path+q, user, secret)
			if status >= 500 {
				t.Errorf("GET %s%s (%s) answered %d: %s", path, q, ep.Name, status, body)
				continue
			}
			isList := strings.HasPrefix(ep.Name, "List") && !strings.HasPrefix(path, api.ControlBase)
			if !empty || !isList || signIns[ep.Name] || status == 404 {
				continue
			}
			var list struct {
				TotalCount *int            `json:"totalCount"`
				Results    json.RawMessage `json:"results"`
			}
			if status != 200 || json.Unmarshal(body, &list) != nil || list.TotalCount == nil || *list.TotalCount != 0 || string(list.Results) != "[]" {
				t.Errorf("GET %s%s (%s) on no data answered %d: %s; want 200 with no results and totalCount 0", path, q, ep.Name, status, body)
			}
		}
	}
}

// digestGet sends a GET with digest credentials. Of an event stream,
// which stays open, it reads the status alone.
func digestGet(t *testing.T, url, user, secret string) (int, []byte) {
	t.Helper()
	c := &http.Client{Transport: client.DigestTransport(user, secret, nil), Timeout: 30 * time.Second}
	res, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		return res.StatusCode, nil
	}
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, body
}

// FuzzFixtureSections builds fixture files from the sections of a full
// one, each section missing, empty, as it is, or written twice (the key
// twice in the object, or each item twice), as the input's bits say. A
// file is refused with a message that names it and says what is wrong,
// or it starts, and then every GET answers without a server error.
func FuzzFixtureSections(f *testing.F) {
	var full map[string]json.RawMessage
	if err := json.Unmarshal([]byte(fixtureJSON), &full); err != nil {
		f.Fatal(err)
	}
	keys := []string{"orgs", "projects", "apiKeys", "users", "clusters", "alerts", "alertConfigs", "globalAlerts", "globalAlertConfigs",
		"backupConfigs", "snapshots", "configServerSnapshots", "oplogStores", "snapshotStores", "backupJobConfigs"}
	const (
		missing = iota
		empty
		asIs
		twice
	)
	// Two bits a section, and a bit a section for "items twice" rather
	// than "key twice".
	f.Add(uint32(0), uint16(0))
	f.Add(uint32(0x55555555), uint16(0))       // every section empty
	f.Add(uint32(0xaaaaaaaa), uint16(0))       // every section as it is
	f.Add(uint32(0x0000002a), uint16(0))       // orgs, projects and keys, nothing else
	f.Add(uint32(0x5555556a), uint16(0))       // the sign-ins, every other section empty
	f.Add(uint32(0xaaaaaaaa|3<<10), uint16(0)) // alerts written twice
	f.Add(uint32(0xfffffffe), uint16(0xffff))  // every item twice
	f.Add(uint32(0xaaaaaaaa|3<<24|3<<26), uint16(1<<12|1<<13))
	f.Fuzz(func(t *testing.T, sections uint32, itemsTwice uint16) {
		var b strings.Builder
		b.WriteString("{")
		sep := ""
		write := func(k, v string) {
			b.WriteString(sep + `"` + k + `": ` + v)
			sep = ", "
		}
		for i, k := range keys {
			items := string(full[k])
			if items == "" {
				items = "[]"
			}
			switch sections >> (2 * i) & 3 {
			case empty:
				write(k, "[]")
			case asIs:
				write(k, items)
			case twice:
				if itemsTwice>>i&1 == 1 && items != "[]" {
					write(k, items[:len(items)-1]+", "+items[1:])
				} else {
					write(k, items)
					write(k, items)
				}
			}
		}
		b.WriteString("}")
		fx, err := fixture.ParseFixtures("f.json", []byte(b.String()))
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "f.json: ") || strings.Contains(msg, "goroutine") || strings.Contains(msg, "runtime error") {
				t.Fatalf("refused with %q", msg)
			}
			return
		}
		s, err := New(Options{Fixtures: fx, Clock: store.VirtualClock(start)})
		if err != nil {
			t.Fatalf("accepted fixtures do not start: %v", err)
		}
		owner := false
		for _, k := range fx.APIKeys {
			owner = owner || k["publicKey"] == "owner"
		}
		if !owner {
			return // nobody to ask
		}
		ts := httptest.NewServer(s)
		defer ts.Close()
		_, _, vals := signInAndIDs(t, s)
		walkGets(t, ts.URL, "owner", "owner-secret", vals, false)
	})
}
