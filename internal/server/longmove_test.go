package server

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/statelog"
)

// A clock move that works longer than the server's write timeout still
// gets its answer: a year's move of a busy engine took more than a minute
// and its client saw the connection closed instead (docs/server.md, Clock).
func TestAMoveLongerThanTheWriteTimeoutIsAnswered(t *testing.T) {
	f, err := fixture.ParseFixtures("fixture", []byte(everyMinute("")))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Fixtures: f, Clock: store.VirtualClock(start)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	ts := httptest.NewUnstartedServer(s)
	ts.Config.WriteTimeout = 50 * time.Millisecond
	ts.Start()
	t.Cleanup(ts.Close)
	e := &env{t: t, s: s, ts: ts, base: ts.URL + apiBase, clients: map[string]*http.Client{}}
	for _, h := range []string{"db1.example.com:27017", "db2.example.com:27017"} {
		e.expect(e.doRaw("owner", "POST", "/_omctl/events", "["+hostDown(h, false)+"]"), 200, "")
	}
	began := time.Now()
	r := e.doRaw("owner", "POST", "/_omctl/clock", `{"advance": "720h"}`)
	took := time.Since(began)
	e.expect(r, 200, "")
	if took < 50*time.Millisecond {
		t.Skipf("the move took %v, within the write timeout: nothing was tested", took)
	}
	if r.str("now") != start.Add(720*time.Hour).Format(time.RFC3339) {
		t.Errorf("the clock after the move: %s", r.raw)
	}
}

// A move whose slice cannot be saved stops there: the slices before it
// are saved and seen already, and the answer says where the clock is and
// what finishes the move (docs/server.md, Clock).
func TestAMoveThatCannotBeSavedSaysWhereItStopped(t *testing.T) {
	e, log := newFaultyEnv(t, everyMinute(""))
	for _, h := range []string{"db1.example.com:27017", "db2.example.com:27017"} {
		e.expect(e.doRaw("owner", "POST", "/_omctl/events", "["+hostDown(h, false)+"]"), 200, "")
	}
	var commits atomic.Int64
	log.FailCommits(func(*statelog.Batch) error {
		if commits.Add(1) > 2 {
			return errors.New("disk full")
		}
		return nil
	})
	target := start.Add(720 * time.Hour).Format(time.RFC3339)
	r := e.doRaw("owner", "POST", "/_omctl/clock", `{"advance": "720h"}`)
	if r.status == 200 {
		t.Skip("the move was saved in two slices: nothing was tested")
	}
	e.expect(r, 500, "UNEXPECTED_ERROR")
	log.FailCommits(nil)
	now := e.doRaw("owner", "GET", "/_omctl/clock", "").str("now")
	if now <= start.Format(time.RFC3339) || now >= target {
		t.Fatalf("after the failed move the clock is at %s: want past the two saved slices, short of %s", now, target)
	}
	if want := `The clock move stopped at ` + now + `, short of ` + target; !strings.HasPrefix(r.str("detail"), want) ||
		!strings.Contains(r.str("detail"), `{"set": "`+target+`"}`) ||
		!strings.Contains(r.str("detail"), "could not be saved to the state file") {
		t.Errorf("the answer says %q", r.str("detail"))
	}
	e.expect(e.doRaw("owner", "POST", "/_omctl/clock", `{"set": "`+target+`"}`), 200, "")
	if now := e.doRaw("owner", "GET", "/_omctl/clock", "").str("now"); now != target {
		t.Errorf("after set the clock is at %s, want %s", now, target)
	}
}
