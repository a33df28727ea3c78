package omtest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/omctl/omctl/omtest"
)

// Every test and example of the package leaves no goroutine behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

var start = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

var objectID = regexp.MustCompile(`^[0-9a-f]{24}$`)

// A bare server: one organization, one project, one GLOBAL_OWNER key
// with fresh credentials, served at an API base on loopback, and a 401
// for a request without them.
func TestNewServerWithoutOptionsServesTheDefaultData(t *testing.T) {
	t.Parallel()
	srv := omtest.NewServer(t)
	if !strings.HasPrefix(srv.URL(), "http://127.0.0.1:") || !strings.HasSuffix(srv.URL(), "/api/public/v1.0") {
		t.Errorf("URL %q", srv.URL())
	}
	if !objectID.MatchString(srv.ProjectID()) || !objectID.MatchString(srv.OrgID()) {
		t.Errorf("ProjectID %q, OrgID %q", srv.ProjectID(), srv.OrgID())
	}
	if srv.PublicKey() == "" || srv.PrivateKey() == "" || srv.PublicKey() == srv.PrivateKey() {
		t.Errorf("keys %q / %q", srv.PublicKey(), srv.PrivateKey())
	}
	project := must(t, srv.Client(), 200, "GET", srv.URL()+"/groups/"+srv.ProjectID(), "")
	if project.body["orgId"] != srv.OrgID() || project.body["name"] != "Default Project" {
		t.Errorf("project %s", project.raw)
	}
	must(t, srv.Client(), 200, "GET", srv.URL()+"/globalAlerts", "") // a global owner's
	if got := call(t, http.DefaultClient, "GET", srv.URL()+"/groups", ""); got.status != 401 {
		t.Errorf("without credentials: %d %s", got.status, got.raw)
	}
	// The real clock, unless WithClock.
	if d := time.Since(srv.Now()); d < -time.Second || d > time.Second {
		t.Errorf("Now %s is not the system's time", srv.Now())
	}
}

func TestWithDemoServesTheDemoDataAsItsOwner(t *testing.T) {
	t.Parallel()
	srv := omtest.NewServer(t, omtest.WithDemo(), omtest.WithClock(start))
	// The demo's first project, organization and GLOBAL_OWNER key, as
	// docs/server.md and the README name them.
	if srv.ProjectID() != "5e2b0c2e8f9d4b0012340001" || srv.OrgID() != "5e1a0c2e8f9d4b0012340001" || srv.PublicKey() != "demoowner" {
		t.Errorf("project %s, org %s, key %s", srv.ProjectID(), srv.OrgID(), srv.PublicKey())
	}
	open := must(t, srv.Client(), 200, "GET", srv.URL()+"/groups/"+srv.ProjectID()+"/alerts?status=OPEN", "")
	if n, _ := open.body["totalCount"].(float64); n < 1 {
		t.Errorf("no open alert in the demo data: %s", open.raw)
	}
	projects := must(t, srv.Client(), 200, "GET", srv.URL()+"/groups", "")
	if n, _ := projects.body["totalCount"].(float64); n < 2 {
		t.Errorf("the demo has several projects: %s", projects.raw)
	}
}

func TestWithFixturesLoadsTheFileAndAddsAnOwnerWhenItHasNone(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "fixtures.json")
	writeFile(t, file, `{
	  "orgs": [{"id": "aaaaaaaaaaaaaaaaaaaaaaa1", "name": "Acme"}],
	  "projects": [{"id": "bbbbbbbbbbbbbbbbbbbbbbb1", "name": "shop", "orgId": "aaaaaaaaaaaaaaaaaaaaaaa1"}],
	  "apiKeys": [{"id": "ccccccccccccccccccccccc1", "desc": "reader", "publicKey": "readerkey", "privateKey": "reader-secret",
	               "roles": [{"orgId": "aaaaaaaaaaaaaaaaaaaaaaa1", "roleName": "ORG_READ_ONLY"}]}]}`)
	srv := omtest.NewServer(t, omtest.WithFixtures(file))
	if srv.ProjectID() != "bbbbbbbbbbbbbbbbbbbbbbb1" || srv.OrgID() != "aaaaaaaaaaaaaaaaaaaaaaa1" {
		t.Errorf("project %s, org %s", srv.ProjectID(), srv.OrgID())
	}
	if srv.PublicKey() == "readerkey" {
		t.Fatal("the read-only key cannot run the controls")
	}
	keys := must(t, srv.Client(), 200, "GET", srv.URL()+"/orgs/"+srv.OrgID()+"/apiKeys", "")
	if !strings.Contains(keys.raw, `"readerkey"`) {
		t.Errorf("the file's key is missing: %s", keys.raw)
	}
	srv.Advance(time.Minute) // a control, as the added owner
	reader := omtest.NewServer(t, omtest.WithFixtures(file), omtest.WithKey("ownerkey", "owner-secret"))
	if reader.PublicKey() != "ownerkey" || reader.PrivateKey() != "owner-secret" {
		t.Errorf("WithKey gave %s / %s", reader.PublicKey(), reader.PrivateKey())
	}
	must(t, reader.Client(), 200, "GET", reader.URL()+"/globalAlerts", "") // global owners only
}

func TestWithKeyAddsAGlobalOwnerBesidesTheDemoKeys(t *testing.T) {
	t.Parallel()
	srv := omtest.NewServer(t, omtest.WithDemo(), omtest.WithKey("ciowner", "11111111-2222-4333-8444-555555555555"))
	if srv.PublicKey() != "ciowner" {
		t.Fatalf("PublicKey %q", srv.PublicKey())
	}
	must(t, srv.Client(), 200, "GET", srv.URL()+"/globalAlerts", "")
	srv.Advance(time.Minute) // the controls too
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Caller != "ciowner" || reqs[0].Status != 200 {
		t.Errorf("journal %+v", reqs)
	}
}

func TestAdvanceMovesTheVirtualClockAndSendsWhatFallsDue(t *testing.T) {
	t.Parallel()
	srv := omtest.NewServer(t, omtest.WithClock(start))
	if !srv.Now().Equal(start) {
		t.Fatalf("Now %s, want %s", srv.Now(), start)
	}
	hooks := newReceiver(t)
	cfg := must(t, srv.Client(), 200, "POST", srv.URL()+"/groups/"+srv.ProjectID()+"/alertConfigs", `{
	  "eventTypeName": "HOST_DOWN", "enabled": true,
	  "notifications": [{"typeName": "WEBHOOK", "webhookUrl": "`+hooks.URL+`/hook", "webhookSecret": "s3cret", "delayMin": 5, "intervalMin": 10},
	                    {"typeName": "GROUP", "delayMin": 5, "emailEnabled": true}]}`)
	srv.Report(omtest.Event{EventTypeName: "HOST_DOWN", Target: omtest.Target{HostnameAndPort: "db1.example.com:27017", ReplicaSetName: "rs0"}})
	alerts := must(t, srv.Client(), 200, "GET", srv.URL()+"/groups/"+srv.ProjectID()+"/alerts", "")
	if !strings.Contains(alerts.raw, `"status":"TRACKING"`) || len(srv.Notifications()) != 0 {
		t.Fatalf("before the delay: %s, %d notifications", alerts.raw, len(srv.Notifications()))
	}

	srv.Advance(5 * time.Minute)
	if want := start.Add(5 * time.Minute); !srv.Now().Equal(want) {
		t.Errorf("Now %s, want %s", srv.Now(), want)
	}
	// Sent before Advance returned, the webhook delivered: no waiting.
	notes := srv.Notifications()
	if len(notes) != 2 {
		t.Fatalf("%d notifications, want the webhook and the group's: %+v", len(notes), notes)
	}
	hook := notes[0]
	if hook.TypeName != "WEBHOOK" {
		hook = notes[1]
	}
	if hook.Event != "alert.open" || !hook.SentAt.Equal(start.Add(5*time.Minute)) || hook.AlertConfigID != cfg.body["id"] ||
		hook.GroupID != srv.ProjectID() || hook.Delivery.Status != "DELIVERED" || hook.Delivery.Attempts != 1 ||
		hook.Delivery.LastResponseCode != 200 || !objectID.MatchString(hook.AlertID) {
		t.Errorf("webhook notification %+v", hook)
	}
	if hook.Target["webhookSecret"] == "s3cret" || hook.Target["typeName"] != "WEBHOOK" {
		t.Errorf("target %v: the secret must be redacted", hook.Target)
	}
	if got := hooks.events(); len(got) != 1 || got[0] != "alert.open" {
		t.Errorf("the receiver got %v", got)
	}

	// Ten minutes on, the webhook's repeat; then the host comes back.
	srv.Advance(10 * time.Minute)
	srv.Report(omtest.Event{EventTypeName: "HOST_DOWN", Target: omtest.Target{HostnameAndPort: "db1.example.com:27017"}, Resolved: true})
	if got := hooks.events(); strings.Join(got, " ") != "alert.open alert.update alert.close" {
		t.Errorf("the receiver got %v", got)
	}
	closed := must(t, srv.Client(), 200, "GET", srv.URL()+"/groups/"+srv.ProjectID()+"/alerts/"+hook.AlertID, "")
	if closed.body["status"] != "CLOSED" {
		t.Errorf("alert %s", closed.raw)
	}
}

func TestReportRaisesAlertsFromMetricSamples(t *testing.T) {
	t.Parallel()
	srv := omtest.NewServer(t, omtest.WithClock(start))
	must(t, srv.Client(), 200, "POST", srv.URL()+"/groups/"+srv.ProjectID()+"/alertConfigs", `{
	  "eventTypeName": "OUTSIDE_METRIC_THRESHOLD", "enabled": true,
	  "metricThreshold": {"metricName": "ASSERT_REGULAR", "operator": "GREATER_THAN", "threshold": 10, "units": "RAW", "mode": "AVERAGE"},
	  "notifications": [{"typeName": "GROUP", "delayMin": 0, "emailEnabled": true}]}`)
	host := omtest.Target{HostID: "h1", HostnameAndPort: "db1.example.com:27017"}
	srv.Report(omtest.Event{MetricName: "ASSERT_REGULAR", Value: 5, Target: host})
	if n := len(srv.Notifications()); n != 0 {
		t.Fatalf("below the threshold: %d notifications", n)
	}
	srv.Report(omtest.Event{MetricName: "ASSERT_REGULAR", Value: 12.5, Target: host})
	notes := srv.Notifications()
	if len(notes) != 1 || notes[0].Event != "alert.open" || notes[0].Delivery.Status != "RECORDED" {
		t.Fatalf("notifications %+v", notes)
	}
	alert := must(t, srv.Client(), 200, "GET", srv.URL()+"/groups/"+srv.ProjectID()+"/alerts/"+notes[0].AlertID, "")
	if cur, _ := alert.body["currentValue"].(map[string]any); alert.body["status"] != "OPEN" || cur["number"] != 12.5 {
		t.Errorf("alert %s", alert.raw)
	}
}

func TestRequestsIsTheJournalWithSecretsRedacted(t *testing.T) {
	t.Parallel()
	srv := omtest.NewServer(t, omtest.WithDemo(), omtest.WithClock(start))
	before := srv.Now()
	open := must(t, srv.Client(), 200, "GET", srv.URL()+"/groups/"+srv.ProjectID()+"/alerts?status=OPEN&itemsPerPage=1", "")
	id := open.body["results"].([]any)[0].(map[string]any)["id"].(string)
	must(t, srv.Client(), 200, "PATCH", srv.URL()+"/groups/"+srv.ProjectID()+"/alerts/"+id,
		`{"acknowledgedUntil": "2026-06-01T04:00:00Z", "acknowledgementComment": "on it"}`)
	must(t, srv.Client(), 200, "POST", srv.URL()+"/groups/"+srv.ProjectID()+"/alertConfigs",
		`{"eventTypeName": "HOST_DOWN", "enabled": true, "notifications": [{"typeName": "WEBHOOK", "webhookUrl": "http://127.0.0.1:9/secret-token", "webhookSecret": "s3cret", "delayMin": 0}]}`)
	call(t, http.DefaultClient, "GET", srv.URL()+"/groups", "")
	srv.Advance(time.Hour) // controls are not journaled

	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4: %+v", len(reqs), reqs)
	}
	get, ack, create, anonymous := reqs[0], reqs[1], reqs[2], reqs[3]
	if get.Method != "GET" || get.Path != "/groups/"+srv.ProjectID()+"/alerts" || get.Query != "status=OPEN&itemsPerPage=1" ||
		get.Status != 200 || get.Caller != "demoowner" || get.Body != nil || !get.Time.Equal(before) {
		t.Errorf("GET %+v", get)
	}
	var body map[string]any
	if err := json.Unmarshal(ack.Body, &body); err != nil || ack.Method != "PATCH" || ack.Path != "/groups/"+srv.ProjectID()+"/alerts/"+id ||
		ack.Status != 200 || body["acknowledgementComment"] != "on it" {
		t.Errorf("acknowledgement %+v (%v)", ack, err)
	}
	if strings.Contains(string(create.Body), "s3cret") || strings.Contains(string(create.Body), "secret-token") ||
		strings.Count(string(create.Body), "<redacted>") != 2 || create.Status != 200 {
		t.Errorf("the secrets of %s are not redacted", create.Body)
	}
	if anonymous.Status != 401 || anonymous.Caller != "" || anonymous.Path != "/groups" {
		t.Errorf("without credentials %+v", anonymous)
	}
}

func TestAddFaultFailsTheRequestsItMatches(t *testing.T) {
	t.Parallel()
	srv := omtest.NewServer(t)
	alerts := srv.URL() + "/groups/" + srv.ProjectID() + "/alerts"
	id := srv.AddFault(omtest.Fault{Method: "GET", Path: "/groups/*/alerts", Status: 503, RetryAfter: 2 * time.Second, Times: 1})
	if !objectID.MatchString(id) && id == "" {
		t.Errorf("fault id %q", id)
	}
	first := call(t, srv.Client(), "GET", alerts, "")
	if first.status != 503 || first.body["errorCode"] != "SERVICE_UNAVAILABLE" || first.header.Get("Retry-After") != "2" {
		t.Errorf("faulted: %d %v %s", first.status, first.header, first.raw)
	}
	must(t, srv.Client(), 200, "GET", alerts, "") // once only

	// Another method is not matched; a removed fault fails nothing more.
	conflict := srv.AddFault(omtest.Fault{Method: "POST", Path: "/groups/**", Status: 409, Delay: 50 * time.Millisecond})
	must(t, srv.Client(), 200, "GET", alerts, "")
	began := time.Now()
	got := call(t, srv.Client(), "POST", srv.URL()+"/groups/"+srv.ProjectID()+"/alertConfigs", `{"eventTypeName": "HOST_DOWN"}`)
	if got.status != 409 || got.body["errorCode"] != "CONFLICT" || time.Since(began) < 50*time.Millisecond {
		t.Errorf("409 fault after its delay: %d %s after %s", got.status, got.raw, time.Since(began))
	}
	srv.RemoveFault(conflict)
	must(t, srv.Client(), 200, "POST", srv.URL()+"/groups/"+srv.ProjectID()+"/alertConfigs",
		`{"eventTypeName": "HOST_DOWN", "enabled": true, "notifications": [{"typeName": "GROUP", "delayMin": 0, "emailEnabled": true}]}`)

	// Reset closes the connection without an answer, and the journal
	// says so. (net/http sends a GET again on a new connection by itself.)
	srv.AddFault(omtest.Fault{Method: "POST", Path: "/groups/*/alertConfigs", Reset: true, Times: 1})
	if res, err := srv.Client().Post(srv.URL()+"/groups/"+srv.ProjectID()+"/alertConfigs", "application/json", strings.NewReader(`{}`)); err == nil {
		res.Body.Close()
		t.Fatalf("a reset fault answered %s", res.Status)
	}
	reqs := srv.Requests()
	if last := reqs[len(reqs)-1]; last.Method != "POST" || last.Status != 0 {
		t.Errorf("the journal shows %+v", last)
	}
}

func TestResetGoesBackToTheLoadedData(t *testing.T) {
	t.Parallel()
	srv := omtest.NewServer(t, omtest.WithClock(start))
	configs := srv.URL() + "/groups/" + srv.ProjectID() + "/alertConfigs"
	must(t, srv.Client(), 200, "POST", configs, `{"eventTypeName": "HOST_DOWN", "enabled": true, "notifications": [{"typeName": "GROUP", "delayMin": 0, "emailEnabled": true}]}`)
	srv.Report(omtest.Event{EventTypeName: "HOST_DOWN", Target: omtest.Target{HostnameAndPort: "db1:27017"}})
	srv.AddFault(omtest.Fault{Path: "/orgs", Status: 500})
	srv.Advance(time.Hour)
	srv.Reset()
	if list := must(t, srv.Client(), 200, "GET", configs, ""); list.body["totalCount"] != 0.0 {
		t.Errorf("after Reset: %s", list.raw)
	}
	must(t, srv.Client(), 200, "GET", srv.URL()+"/orgs", "") // the fault is gone
	if reqs, notes := srv.Requests(), srv.Notifications(); len(reqs) != 2 || len(notes) != 0 {
		t.Errorf("after Reset: %d requests (want the two since), %d notifications", len(reqs), len(notes))
	}
	if want := start.Add(time.Hour); !srv.Now().Equal(want) {
		t.Errorf("Reset moved the clock to %s", srv.Now())
	}
}

// Two servers of one test share nothing: data, keys, clock, journal and
// faults are each their own, while both work at once.
func TestTwoServersAreIndependent(t *testing.T) {
	t.Parallel()
	a := omtest.NewServer(t, omtest.WithDemo(), omtest.WithClock(start))
	b := omtest.NewServer(t, omtest.WithClock(start))
	if a.URL() == b.URL() || a.PublicKey() == b.PublicKey() || a.ProjectID() == b.ProjectID() {
		t.Fatalf("the servers share %s / %s", a.URL(), b.URL())
	}
	b.AddFault(omtest.Fault{Path: "/**", Status: 503})
	var wg sync.WaitGroup
	for _, srv := range []*omtest.Server{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				call(t, srv.Client(), "GET", srv.URL()+"/groups/"+srv.ProjectID()+"/alerts", "")
			}
		}()
	}
	wg.Wait()
	a.Advance(time.Hour)
	if !b.Now().Equal(start) || !a.Now().Equal(start.Add(time.Hour)) {
		t.Errorf("clocks %s and %s", a.Now(), b.Now())
	}
	for name, srv := range map[string]*omtest.Server{"a": a, "b": b} {
		want := map[string]int{"a": 200, "b": 503}[name]
		reqs := srv.Requests()
		if len(reqs) != 20 {
			t.Errorf("server %s journaled %d requests, want its own 20", name, len(reqs))
		}
		for _, r := range reqs {
			if r.Status != want || r.Caller != srv.PublicKey() {
				t.Errorf("server %s journaled %+v", name, r)
				break
			}
		}
	}
	if call(t, b.Client(), "GET", a.URL()+"/groups", "").status != 401 {
		t.Error("a key of one server signs in to the other")
	}
}

// A setup the server cannot start with, or a control it refuses, fails
// the test with a message that says what was wrong.
func TestMistakesFailTheTestSayingWhatWasWrong(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	writeFile(t, bad, `{"alerts": [{"id": "5e2b0c2e8f9d4b00123400aa", "groupId": "5e2b0c2e8f9d4b0012340001", "status": "SNOOZED"}]}`)
	setups := map[string]struct {
		opts []omtest.Option
		want string
	}{
		"demo and fixtures":  {[]omtest.Option{omtest.WithDemo(), omtest.WithFixtures(bad)}, "WithDemo and WithFixtures(\"" + bad + "\") both give the data"},
		"missing file":       {[]omtest.Option{omtest.WithFixtures(filepath.Join(dir, "none.json"))}, "WithFixtures: fixture file " + filepath.Join(dir, "none.json")},
		"a rule broken":      {[]omtest.Option{omtest.WithFixtures(bad)}, "WithFixtures: " + bad},
		"the zero time":      {[]omtest.Option{omtest.WithClock(time.Time{})}, "WithClock: 0001-01-01T00:00:00Z is outside the times the server can show"},
		"an empty key":       {[]omtest.Option{omtest.WithKey("", "secret")}, "WithKey: the public key and the private key must not be empty"},
		"a key used already": {[]omtest.Option{omtest.WithDemo(), omtest.WithKey("demoowner", "x")}, `WithKey("demoowner", ...): `},
		"a nil option":       {[]omtest.Option{omtest.WithDemo(), nil}, "option 1 is nil"},
	}
	for name, c := range setups {
		t.Run(name, func(t *testing.T) {
			got := failure(t, func(tb testing.TB) { omtest.NewServer(tb, c.opts...) })
			if !strings.HasPrefix(got, "omtest.NewServer: ") || !strings.Contains(got, c.want) {
				t.Errorf("failed with %q, want it to say %q", got, c.want)
			}
		})
	}
	if got := failure(t, func(tb testing.TB) { omtest.NewServer(tb, omtest.WithDemo(), omtest.WithKey("demoowner", "x")) }); !strings.Contains(got, "apiKeys[0] of the data has that public key already") {
		t.Errorf("a key used twice: %q", got)
	}

	controls := map[string]struct {
		do   func(*omtest.Server)
		want string
	}{
		"a negative advance": {func(s *omtest.Server) { s.Advance(-time.Minute) }, "omtest: Advance(-1m0s): POST /_omctl/clock answered 400 INVALID_JSON_ATTRIBUTE: "},
		"an unknown event":   {func(s *omtest.Server) { s.Report(omtest.Event{EventTypeName: "HOST_ON_FIRE"}) }, "omtest: Report: POST /_omctl/events answered 400 INVALID_ENUM_VALUE: An invalid enumeration value HOST_ON_FIRE"},
		"an empty event":     {func(s *omtest.Server) { s.Report(omtest.Event{}) }, "omtest: Report: POST /_omctl/events answered 400 MISSING_ATTRIBUTE"},
		"a project unknown": {func(s *omtest.Server) {
			s.Report(omtest.Event{EventTypeName: "HOST_DOWN"}, omtest.Event{GroupID: "0123456789abcdef01234567", EventTypeName: "HOST_DOWN"})
		}, "404 GROUP_NOT_FOUND: Item 1"},
		"a 200 fault":          {func(s *omtest.Server) { s.AddFault(omtest.Fault{Path: "/orgs", Status: 200}) }, "omtest: AddFault(/orgs): POST /_omctl/faults answered 400 INVALID_JSON_ATTRIBUTE"},
		"a fault without path": {func(s *omtest.Server) { s.AddFault(omtest.Fault{Status: 503}) }, `omtest: AddFault(): POST /_omctl/faults answered 400 INVALID_JSON_ATTRIBUTE: path ""`},
		"half a second": {func(s *omtest.Server) {
			s.AddFault(omtest.Fault{Path: "/orgs", Status: 503, RetryAfter: 1500 * time.Millisecond})
		}, "RetryAfter 1.5s is not a whole number of seconds"},
		"an unknown fault": {func(s *omtest.Server) { s.RemoveFault("0123456789abcdef01234567") }, `omtest: RemoveFault("0123456789abcdef01234567"): DELETE /_omctl/faults/0123456789abcdef01234567 answered 404 RESOURCE_NOT_FOUND`},
		"after Close":      {func(s *omtest.Server) { s.Close(); s.Reset() }, "omtest: Reset: the server is closed"},
	}
	for name, c := range controls {
		t.Run(name, func(t *testing.T) {
			got := failure(t, func(tb testing.TB) { c.do(omtest.NewServer(tb, omtest.WithClock(start))) })
			if !strings.Contains(got, c.want) {
				t.Errorf("failed with %q, want it to say %q", got, c.want)
			}
		})
	}
}

// After the test's Cleanup, nothing of a server runs: not the engine's
// loop on the real clock, not a webhook delivery in flight, not the
// connections its deliveries and its clients kept.
func TestNoGoroutineOutlivesCleanup(t *testing.T) {
	// The receiver outlives the test's server, as one shared by many
	// tests would: it holds the acknowledgement's delivery until the
	// server lets go of it.
	held := make(chan struct{}, 1)
	hooks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if r.Header.Get("X-MMS-Event") == "alert.acknowledge" {
			held <- struct{}{}
			select {
			case <-r.Context().Done():
			case <-time.After(time.Minute):
			}
		}
	}))
	defer hooks.Close()
	before := goleak.IgnoreCurrent()
	t.Run("server", func(t *testing.T) {
		srv := omtest.NewServer(t) // the real clock: the engine's loop runs
		must(t, srv.Client(), 200, "POST", srv.URL()+"/groups/"+srv.ProjectID()+"/alertConfigs", `{
		  "eventTypeName": "HOST_DOWN", "enabled": true,
		  "notifications": [{"typeName": "WEBHOOK", "webhookUrl": "`+hooks.URL+`", "delayMin": 0},
		                    {"typeName": "GROUP", "delayMin": 60, "emailEnabled": true}]}`)
		srv.Report(omtest.Event{EventTypeName: "HOST_DOWN", Target: omtest.Target{HostnameAndPort: "db1:27017"}})
		id := srv.Notifications()[0].AlertID
		must(t, srv.Client(), 200, "PATCH", srv.URL()+"/groups/"+srv.ProjectID()+"/alerts/"+id,
			`{"acknowledgedUntil": "`+srv.Now().Add(time.Hour).Format(time.RFC3339)+`"}`)
		select {
		case <-held:
		case <-time.After(10 * time.Second):
			t.Fatal("the acknowledgement's webhook never came")
		}
	})
	goleak.VerifyNone(t, before)
}

// receiver is a webhook receiver that records the events it was sent.
type receiver struct {
	*httptest.Server
	mu  sync.Mutex
	got []string
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body)
		r.mu.Lock()
		r.got = append(r.got, req.Header.Get("X-MMS-Event"))
		r.mu.Unlock()
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) events() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}
