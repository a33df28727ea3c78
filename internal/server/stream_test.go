package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/server/faults"
	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/fixture"
)

// sse is one event of the stream, as a client reads it.
type sse struct {
	kind string
	data map[string]any
	raw  string
}

// eventStream reads GET /_omctl/stream as a digest client does.
type eventStream struct {
	res    *http.Response
	events chan sse
	ended  chan error // the read's end: io.EOF when the server closed it
	cancel context.CancelFunc
}

// openStream opens the stream of base (a server's root URL) as user.
func openStream(t *testing.T, base, user string) *eventStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/_omctl/stream", nil)
	c := &http.Client{Transport: client.DigestTransport(user, secrets[user], nil)}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/event-stream" {
		body, _ := io.ReadAll(res.Body)
		t.Fatalf("GET stream: %d %s %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	s := &eventStream{res: res, events: make(chan sse, 10000), ended: make(chan error, 1), cancel: cancel}
	go s.read()
	return s
}

func (s *eventStream) read() {
	br := bufio.NewReader(s.res.Body)
	var ev sse
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			s.ended <- err
			close(s.events)
			return
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			if ev.kind != "" {
				s.events <- ev
			}
			ev = sse{}
		case strings.HasPrefix(line, "event: "):
			ev.kind = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			ev.raw = line[len("data: "):]
			if json.Unmarshal([]byte(ev.raw), &ev.data) != nil {
				ev.data = map[string]any{"unreadable": ev.raw}
			}
		}
	}
}

// next is the next event, failing after a while without one.
func (s *eventStream) next(t *testing.T) sse {
	t.Helper()
	select {
	case ev, ok := <-s.events:
		if !ok {
			t.Fatal("the stream ended")
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event in 10 s")
	}
	return sse{}
}

// until reads events up to the first of kind that keep accepts, and
// returns every event read.
func (s *eventStream) until(t *testing.T, kind string, keep func(sse) bool) []sse {
	t.Helper()
	var seen []sse
	for {
		ev := s.next(t)
		seen = append(seen, ev)
		if ev.kind == kind && (keep == nil || keep(ev)) {
			return seen
		}
	}
}

func kinds(evs []sse) []string {
	var out []string
	for _, ev := range evs {
		out = append(out, ev.kind)
	}
	return out
}

// TestTheStreamSendsAnAlertRaisedWhileItListens: a digest client on the
// stream gets the alert a condition raises, as GET returns it, then each
// notification it recorded, then the webhook's delivery once finished.
func TestTheStreamSendsAnAlertRaisedWhileItListens(t *testing.T) {
	e := newEnv(t)
	st := openStream(t, e.ts.URL, "owner")
	r := e.doRaw("owner", "POST", "/_omctl/events",
		`{"groupId": "`+projA+`", "eventTypeName": "HOST_DOWN", "target": {"hostnameAndPort": "db9:27017"}}`)
	e.expect(r, 200, "")
	id := r.str("alerts", "0", "id")
	evs := st.until(t, "delivery", nil)
	got := e.do("owner", "GET", "/groups/"+projA+"/alerts/"+id, nil)
	if evs[0].kind != "alert" || !reflect.DeepEqual(evs[0].data, got.body) {
		t.Fatalf("first event: %s %s\nGET: %s", evs[0].kind, evs[0].raw, got.raw)
	}
	// The configuration's targets due at once: CHAT_A, and the WEBHOOK
	// whose host is not allowed, FAILED at once.
	if k := kinds(evs); !reflect.DeepEqual(k, []string{"alert", "notification", "notification", "delivery"}) {
		t.Fatalf("events %v", k)
	}
	var types []string
	for _, ev := range evs[1:3] {
		if ev.data["alertId"] != id || ev.data["event"] != "alert.open" {
			t.Errorf("notification %s", ev.raw)
		}
		types = append(types, ev.data["typeName"].(string))
	}
	if !reflect.DeepEqual(types, []string{"CHAT_A", "WEBHOOK"}) {
		t.Errorf("notifications to %v", types)
	}
	d := evs[3].data
	delivery, _ := d["delivery"].(map[string]any)
	if d["id"] != evs[2].data["id"] || delivery["status"] != "FAILED" || !strings.Contains(fmt.Sprint(delivery["lastError"]), "not allowed") {
		t.Errorf("delivery %s", evs[3].raw)
	}
	if strings.Contains(evs[2].raw+evs[3].raw, "s3cret") || strings.Contains(evs[2].raw, "/path/secret") {
		t.Errorf("the stream shows a webhook's secret: %s %s", evs[2].raw, evs[3].raw)
	}
}

// TestTheStreamKeepsTheOrderOfChanges: acknowledging, unacknowledging,
// an API request's journal entry and a clock move come in the order they
// were made, the journal's entry of a request after what it changed.
func TestTheStreamKeepsTheOrderOfChanges(t *testing.T) {
	e := newEnv(t)
	st := openStream(t, e.ts.URL, "owner")
	path := "/groups/" + projA + "/alerts/" + alertHost
	e.expect(e.do("owner", "PATCH", path, map[string]any{"acknowledgedUntil": "2026-02-01T00:00:00Z", "acknowledgementComment": "mine"}), 200, "")
	e.expect(e.do("owner", "PATCH", path, map[string]any{}), 200, "")
	e.expect(e.doRaw("owner", "POST", "/_omctl/clock", `{"advance": "1h"}`), 200, "")
	evs := st.until(t, "clock", nil)
	var order []string
	for _, ev := range evs {
		switch ev.kind {
		case "alert":
			if ev.data["id"] != alertHost {
				continue // the move opened the fixture's TRACKING alert
			}
			order = append(order, fmt.Sprintf("alert acked=%v", ev.data["acknowledgedUntil"] != nil))
		case "request":
			order = append(order, fmt.Sprintf("request %v %v", ev.data["method"], ev.data["status"]))
		case "clock":
			order = append(order, "clock "+ev.data["now"].(string))
		}
	}
	// The digest client's first request is answered the challenge.
	want := []string{"request PATCH 401", "alert acked=true", "request PATCH 200", "alert acked=false", "request PATCH 200", "clock 2026-01-01T01:00:00Z"}
	if !reflect.DeepEqual(order, want) {
		t.Fatalf("order %q, want %q", order, want)
	}
	// A request's entry is the journal's, redacted as it is.
	journal := e.doRaw("owner", "GET", "/_omctl/requests", "")
	first, _ := json.Marshal(journal.get("results", "0"))
	var viaStream, viaJournal any
	json.Unmarshal([]byte(evs[0].raw), &viaStream)
	json.Unmarshal(first, &viaJournal)
	if !reflect.DeepEqual(viaStream, viaJournal) {
		t.Errorf("the stream's entry %s, the journal's %s", evs[0].raw, first)
	}
	// A reset says so, and what was listed before is gone.
	e.expect(e.doRaw("owner", "POST", "/_omctl/reset", "{}"), 200, "")
	if ev := st.next(t); ev.kind != "reset" || ev.data["now"] != "2026-01-01T01:00:00Z" {
		t.Errorf("after a reset: %s %s", ev.kind, ev.raw)
	}
}

// TestAWriteSendsEachAlertItChangedOnce: a condition raised and cleared
// in one request is one event of the alert as the write left it.
func TestAWriteSendsEachAlertItChangedOnce(t *testing.T) {
	e := newEnv(t)
	st := openStream(t, e.ts.URL, "owner")
	r := e.doRaw("owner", "POST", "/_omctl/events", `[
	 {"groupId": "`+projA+`", "eventTypeName": "HOST_DOWN", "target": {"hostnameAndPort": "db7:27017"}},
	 {"groupId": "`+projA+`", "eventTypeName": "HOST_DOWN", "target": {"hostnameAndPort": "db7:27017"}, "resolved": true}]`)
	e.expect(r, 200, "")
	id := r.str("alerts", "0", "id")
	e.expect(e.doRaw("owner", "POST", "/_omctl/clock", `{"advance": "1m"}`), 200, "")
	evs := st.until(t, "clock", nil)
	var alerts []string
	for _, ev := range evs {
		if ev.kind == "alert" && ev.data["id"] == id {
			alerts = append(alerts, ev.data["status"].(string))
		}
	}
	if !reflect.DeepEqual(alerts, []string{"CLOSED"}) {
		t.Fatalf("alert events %v (%v)", alerts, kinds(evs))
	}
}

// expectChallenge checks that url without credentials is the digest
// challenge a browser asks for a key with.
func expectChallenge(t *testing.T, url string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 401 || !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Digest ") {
		t.Fatalf("%s without credentials: %d %q", url, res.StatusCode, res.Header.Get("WWW-Authenticate"))
	}
}

// TestTheStreamNeedsTheOwnersCredentials: 401 with a challenge without
// credentials, 401 USER_UNAUTHORIZED for another key, a bad query 400.
func TestTheStreamNeedsTheOwnersCredentials(t *testing.T) {
	e := newEnv(t)
	expectChallenge(t, e.ts.URL+"/_omctl/stream")
	e.expect(e.doRaw("reader", "GET", "/_omctl/stream", ""), 401, "USER_UNAUTHORIZED")
	e.expect(e.doRaw("owner", "GET", "/_omctl/stream?since=1", ""), 400, "INVALID_QUERY_PARAMETER")
	if n := e.s.streams.count.Load(); n != 0 {
		t.Errorf("%d readers after refused requests", n)
	}
}

// TestASlowReaderIsDropped: a reader with no room for a write's events is
// disconnected, not buffered for; the others and later readers go on.
func TestASlowReaderIsDropped(t *testing.T) {
	f, err := fixture.ParseFixtures("fixture", []byte(fixtureJSON))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Fixtures: f, Clock: store.VirtualClock(start), StreamQueue: 4})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnvOn(t, s)
	st := openStream(t, e.ts.URL, "owner")
	var items []string
	const raised = 100 // in one write: 100 alert events and 200 notifications
	for i := range raised {
		items = append(items, fmt.Sprintf(`{"groupId": %q, "eventTypeName": "HOST_DOWN", "target": {"hostnameAndPort": "db%d:1"}}`, projA, i))
	}
	e.expect(e.doRaw("owner", "POST", "/_omctl/events", "["+strings.Join(items, ",")+"]"), 200, "")
	n := 0
	for range st.events {
		n++
	}
	if err := <-st.ended; !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("the stream ended with %v", err)
	}
	// The reader takes events while the write hands them over, so some
	// more than 4 may reach it; never all of them.
	if n >= 3*raised {
		t.Errorf("all %d events reached a reader that had room for 4", n)
	}
	waitFor(t, func() bool { return s.streams.count.Load() == 0 })
	// The server goes on, and a new reader gets what follows.
	next := openStream(t, e.ts.URL, "owner")
	e.expect(e.doRaw("owner", "POST", "/_omctl/clock", `{"advance": "1m"}`), 200, "")
	next.until(t, "clock", nil)
}

// newEnvOn is s served, with clients for fixtureJSON's credentials.
func newEnvOn(t *testing.T, s *Server) *env {
	t.Helper()
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return &env{t: t, s: s, ts: ts, base: ts.URL + apiBase, clients: map[string]*http.Client{}}
}

// TestStreamsCountAsConnections: --max-connections counts each open
// stream, and a stream that ends gives its connection back.
func TestStreamsCountAsConnections(t *testing.T) {
	s := newEnv(t).s
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := NewHTTPServer(s)
	go hs.Serve(faults.LimitConnections(ln, 2, nil))
	defer hs.Close()
	base := "http://" + ln.Addr().String()
	one := openStream(t, base, "owner")
	openStream(t, base, "owner")
	health := func() int {
		res, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Get(base + "/_omctl/health")
		if err != nil {
			return 0
		}
		res.Body.Close()
		return res.StatusCode
	}
	if got := health(); got != 503 {
		t.Fatalf("a third connection beside two streams: %d, want 503", got)
	}
	one.cancel()
	waitFor(t, func() bool { return health() == 200 })
}

// TestStreamsEndWhenTheServerStops: Shutdown does not wait for streams,
// which end at once, and no reader is left behind; the stream outlives
// the server's read timeout meanwhile.
func TestStreamsEndWhenTheServerStops(t *testing.T) {
	e := newEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := NewHTTPServer(e.s)
	hs.ReadTimeout = 200 * time.Millisecond
	go hs.Serve(ln)
	base := "http://" + ln.Addr().String()
	st := openStream(t, base, "owner")
	time.Sleep(3 * hs.ReadTimeout)
	e.expect(e.doRaw("owner", "POST", "/_omctl/clock", `{"advance": "1m"}`), 200, "")
	st.until(t, "clock", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	began := time.Now()
	if err := hs.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v after %s", err, time.Since(began))
	}
	if err := <-st.ended; !errors.Is(err, io.EOF) {
		t.Errorf("the stream ended with %v", err)
	}
	if n := e.s.streams.count.Load(); n != 0 {
		t.Errorf("%d readers after Shutdown", n)
	}
	// Close ends those of a server served otherwise (httptest), and
	// refuses new ones.
	e = newEnv(t)
	other := openStream(t, e.ts.URL, "owner")
	e.s.Close()
	if err := <-other.ended; !errors.Is(err, io.EOF) {
		t.Errorf("after Close the stream ended with %v", err)
	}
	e.expect(e.doRaw("owner", "GET", "/_omctl/stream", ""), 503, "SERVICE_UNAVAILABLE")
}

// TestStreamEventsAreOneLineEach: an alert whose fixture JSON spans
// lines still goes out on one data: line.
func TestStreamEventsAreOneLineEach(t *testing.T) {
	ev := streamEvent{kind: eventClock, now: "2026-01-01T00:00:00Z"}
	got := string(ev.appendTo(nil, ""))
	if got != "event: clock\ndata: {\"now\":\"2026-01-01T00:00:00Z\"}\n\n" {
		t.Fatalf("%q", got)
	}
	a := alert.NewDoc(map[string]any{"id": "x", "note": "two\nlines", "groupId": projA})
	a.Raw = bytes.ReplaceAll(a.Raw, []byte(","), []byte(",\n"))
	out := (&streamEvent{kind: eventAlert, alert: alert.Rec{Cur: a, Project: projA}}).appendTo(nil, "http://h/api/public/v1.0")
	if lines := strings.Split(strings.TrimSuffix(string(out), "\n\n"), "\n"); len(lines) != 2 || !json.Valid([]byte(strings.TrimPrefix(lines[1], "data: "))) {
		t.Fatalf("%q", out)
	}
}
