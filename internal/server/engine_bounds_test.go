package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/fixture"
)

// newEnvOptions is newEnvWith with options of the test's own.
func newEnvOptions(t *testing.T, data string, opts Options) *env {
	t.Helper()
	f, err := fixture.ParseFixtures("fixture", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	opts.Fixtures, opts.Clock = f, store.VirtualClock(start)
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return &env{t: t, s: s, ts: ts, base: ts.URL + apiBase, clients: map[string]*http.Client{}}
}

// controls is e for the /_omctl controls, safe to use from several
// goroutines at once (doRaw is not): its owner client is made first.
func (e *env) controls() *env {
	c := *e
	c.base = e.ts.URL
	c.client("owner")
	return &c
}

// everyMinute is a project whose HOST_DOWN configuration notifies every
// minute, by email, or by webhook to hook when it is set.
func everyMinute(hook string) string {
	notification := `{"typeName": "EMAIL", "emailAddress": "ops@example.com", "delayMin": 0, "intervalMin": 1}`
	if hook != "" {
		notification = fmt.Sprintf(`{"typeName": "WEBHOOK", "webhookUrl": %q, "delayMin": 0, "intervalMin": 1}`, hook)
	}
	return fmt.Sprintf(`{
	 "orgs": [{"id": %q}], "projects": [{"id": %q, "orgId": %q}],
	 "apiKeys": [{"id": "5f4d00000000000000000001", "publicKey": "owner", "privateKey": "owner-secret", "roles": [{"roleName": "GLOBAL_OWNER"}]}],
	 "alertConfigs": [{"id": %q, "groupId": %q, "eventTypeName": "HOST_DOWN", "enabled": true, "notifications": [%s]}]
	}`, orgA, projA, orgA, cfgDown, projA, notification)
}

// A long clock move is made in slices: requests sent meanwhile are
// answered before it ends, seeing the clock where the engine's work has
// reached; the log keeps its last entries in time order and counts the
// others, and the move answers once everything due is recorded.
func TestALongClockMoveLetsOtherRequestsIn(t *testing.T) {
	e := newEnvOptions(t, everyMinute(""), Options{NotificationLogSize: 1000})
	var hosts []string
	for i := range 3 {
		hosts = append(hosts, hostDown(fmt.Sprintf("db%d.example.com:27017", i), false))
	}
	e.expect(e.events("["+strings.Join(hosts, ",")+"]"), 200, "")
	const days = 10
	target := start.Add(days * 24 * time.Hour)
	moved := make(chan response, 1)
	ctl := e.controls()
	go func() { moved <- ctl.do("owner", "POST", "/_omctl/clock", fmt.Sprintf(`{"advance": "%dh"}`, days*24)) }()
	var between []string
	for done := false; !done; {
		select {
		case r := <-moved:
			e.expect(r, 200, "")
			done = true
		default:
			now := ctl.do("owner", "GET", "/_omctl/clock", nil).str("now")
			if now != "" && now != "2026-01-01T00:00:00Z" && now != target.Format(time.RFC3339) {
				between = append(between, now)
			}
		}
	}
	if len(between) == 0 {
		t.Error("no request was answered while the clock moved: the move held the data throughout")
	}
	log := e.doRaw("owner", "GET", "/_omctl/notifications?itemsPerPage=500&pageNum=2", "")
	sent := 3 * (days*24*60 + 1)
	if total, dropped := fmt.Sprint(log.get("totalCount")), fmt.Sprint(log.get("dropped")); total != "1000" || dropped != fmt.Sprint(sent-1000) {
		t.Fatalf("the log holds %s entries and dropped %s, want 1000 and %d", total, dropped, sent-1000)
	}
	results, _ := log.get("results").([]any)
	last := ""
	for i := range results {
		at := log.str("results", fmt.Sprint(i), "sentAt")
		if at < last {
			t.Fatalf("entry %d sent at %s after one sent at %s", i, at, last)
		}
		last = at
	}
	if last != target.Format(time.RFC3339) {
		t.Errorf("the last notification was sent at %s, want the move's end %s", last, target.Format(time.RFC3339))
	}
	a := e.do("owner", "GET", "/groups/"+projA+"/alerts?status=OPEN", nil)
	if a.str("results", "0", "lastNotified") != target.Format(time.RFC3339) {
		t.Errorf("an alert's lastNotified after the move: %s", a.raw)
	}
	e.expect(e.doRaw("owner", "POST", "/_omctl/reset", ""), 200, "")
	if log := e.doRaw("owner", "GET", "/_omctl/notifications", ""); fmt.Sprint(log.get("totalCount")) != "0" || fmt.Sprint(log.get("dropped")) != "0" {
		t.Errorf("the log after a reset: %s", log.raw)
	}
}

// Beyond the workers and the queue, a webhook delivery is FAILED at once,
// with no attempt and a message that says so; the events call that
// raised them waits only for those it could queue.
func TestAFullWebhookQueueFailsDeliveriesAtOnce(t *testing.T) {
	hook := newReceiver(t)
	hold := make(chan struct{})
	hook.hold = hold
	e := newEnvOptions(t, everyMinute(hook.URL+"/hook"), Options{WebhookConcurrency: 1, WebhookQueue: 1})
	var hosts []string
	for i := range 5 {
		hosts = append(hosts, hostDown(fmt.Sprintf("db%d.example.com:27017", i), false))
	}
	raised := make(chan response, 1)
	ctl := e.controls()
	go func() { raised <- ctl.do("owner", "POST", "/_omctl/events", "["+strings.Join(hosts, ",")+"]") }()
	failed := func() (n int) {
		log := ctl.do("owner", "GET", "/_omctl/notifications", nil)
		for i := range 5 {
			if log.str("results", fmt.Sprint(i), "delivery", "status") == "FAILED" {
				n++
				if d := log.get("results", fmt.Sprint(i), "delivery"); !strings.Contains(fmt.Sprint(d), "queue was full") || !strings.Contains(fmt.Sprint(d), "attempts:0") {
					t.Errorf("a delivery refused by a full queue: %v", d)
				}
			}
		}
		return n
	}
	// One in flight (held by the receiver), one waiting, three refused; or
	// four refused, when the worker had not yet taken the first.
	waitFor(t, func() bool { return failed() >= 3 })
	select {
	case r := <-raised:
		t.Fatalf("the events call answered before the first attempts of its queued deliveries: %s", r.raw)
	default:
	}
	close(hold)
	e.expect(<-raised, 200, "")
	n := failed()
	if n != 3 && n != 4 {
		t.Fatalf("%d deliveries failed, want those the queue refused (3, or 4)", n)
	}
	waitFor(t, func() bool { return len(hook.events()) == 5-n })
}
