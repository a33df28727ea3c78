package consumer_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/omctl/omctl/omtest"
)

var start = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

// Two servers at once, each a whole story of a program under test: they
// share nothing, and the race detector watches both.
func TestTwoServersInParallel(t *testing.T) {
	for _, name := range []string{"first", "second"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			story(t, name)
		})
	}
}

func story(t *testing.T, name string) {
	srv := omtest.NewServer(t, omtest.WithDemo(), omtest.WithClock(start))
	client := srv.Client()
	alerts := srv.URL() + "/groups/" + srv.ProjectID() + "/alerts"

	// The demo data, read and acknowledged through plain net/http.
	var open struct {
		Results []struct{ ID string }
	}
	if status := do(t, client, "GET", alerts+"?status=OPEN", "", &open); status != 200 || len(open.Results) == 0 {
		t.Fatalf("open alerts: %d, %d of them", status, len(open.Results))
	}
	id := open.Results[0].ID
	comment := "acknowledged by the " + name + " story"
	var acked struct{ AcknowledgementComment, AcknowledgingUsername string }
	if status := do(t, client, "PATCH", alerts+"/"+id,
		`{"acknowledgedUntil": "2026-06-01T04:00:00Z", "acknowledgementComment": "`+comment+`"}`, &acked); status != 200 || acked.AcknowledgementComment != comment {
		t.Fatalf("acknowledgement: %d %+v", status, acked)
	}

	// The journal shows it, and only this server's requests.
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("journal of %d requests, want this story's 2: %+v", len(reqs), reqs)
	}
	ack := reqs[1]
	var body map[string]any
	json.Unmarshal(ack.Body, &body)
	if ack.Method != "PATCH" || ack.Path != "/groups/"+srv.ProjectID()+"/alerts/"+id || ack.Status != 200 ||
		ack.Caller != srv.PublicKey() || body["acknowledgementComment"] != comment || !ack.Time.Equal(start) {
		t.Errorf("journaled acknowledgement %+v", ack)
	}

	// A one-time 503.
	srv.AddFault(omtest.Fault{Method: "GET", Path: "/groups/*/alerts", Status: 503, Times: 1})
	if status := do(t, client, "GET", alerts, "", nil); status != 503 {
		t.Errorf("with the fault: %d, want 503", status)
	}
	if status := do(t, client, "GET", alerts, "", nil); status != 200 {
		t.Errorf("after the fault: %d, want 200", status)
	}

	// A configuration of our own, and a condition reported: the webhook
	// is delivered before Report returns; the group's notification after
	// its delay, which Advance makes pass.
	hooks := &receiver{}
	hook := httptest.NewServer(hooks)
	defer hook.Close()
	var cfg struct{ ID string }
	if status := do(t, client, "POST", srv.URL()+"/groups/"+srv.ProjectID()+"/alertConfigs", `{
	  "eventTypeName": "HOST_DOWN", "enabled": true,
	  "matchers": [{"fieldName": "HOSTNAME", "operator": "EQUALS", "value": "consumer.example.com"}],
	  "notifications": [{"typeName": "WEBHOOK", "webhookUrl": "`+hook.URL+`/hook", "webhookSecret": "s3cret", "delayMin": 0},
	                    {"typeName": "GROUP", "delayMin": 10, "emailEnabled": true}]}`, &cfg); status != 200 || cfg.ID == "" {
		t.Fatalf("configuration: %d %+v", status, cfg)
	}
	srv.Report(omtest.Event{EventTypeName: "HOST_DOWN", Target: omtest.Target{HostnameAndPort: "consumer.example.com:27017"}})
	if got := hooks.events(); len(got) != 1 || got[0] != "alert.open" {
		t.Errorf("the receiver got %v", got)
	}
	if got := ours(srv.Notifications(), cfg.ID); got != "alert.open WEBHOOK DELIVERED 00:00" {
		t.Errorf("notifications after Report: %q", got)
	}
	srv.Advance(10 * time.Minute)
	if !srv.Now().Equal(start.Add(10 * time.Minute)) {
		t.Errorf("Now %s after Advance", srv.Now())
	}
	if got := ours(srv.Notifications(), cfg.ID); got != "alert.open WEBHOOK DELIVERED 00:00, alert.open GROUP RECORDED 00:10" {
		t.Errorf("notifications after Advance: %q", got)
	}

	// Without the key: 401, with a digest challenge.
	res, err := http.Get(srv.URL() + "/groups")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 401 || !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Digest ") {
		t.Errorf("without the key: %s %v", res.Status, res.Header)
	}
}

// do sends a request with client, decoding a JSON answer into out.
func do(t *testing.T, client *http.Client, method, url, body string, out any) int {
	t.Helper()
	var payload io.Reader
	if body != "" {
		payload = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, payload)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	if out != nil && res.StatusCode < 300 {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatalf("%s %s: %v", method, url, err)
		}
	}
	return res.StatusCode
}

// ours lists the notifications of one configuration, "event kind status
// time" each.
func ours(notes []omtest.Notification, configID string) string {
	var out []string
	for _, n := range notes {
		if n.AlertConfigID == configID {
			out = append(out, fmt.Sprintf("%s %s %s %s", n.Event, n.TypeName, n.Delivery.Status, n.SentAt.Format("15:04")))
		}
	}
	return strings.Join(out, ", ")
}

type receiver struct {
	mu  sync.Mutex
	got []string
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	io.Copy(io.Discard, req.Body)
	r.mu.Lock()
	r.got = append(r.got, req.Header.Get("X-MMS-Event"))
	r.mu.Unlock()
}

func (r *receiver) events() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}
