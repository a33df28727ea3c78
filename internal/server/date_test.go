package server

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// Every answer, the 401 challenge first, dates itself on the server's
// (virtual) clock, which a client reads to learn the server's time.
func TestDateHeaderIsTheServersClock(t *testing.T) {
	e := newEnv(t)
	res, err := http.Get(e.base + "/groups/" + projA + "/alerts")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized || res.Header.Get("Date") != start.Format(http.TimeFormat) {
		t.Errorf("challenge: %d, Date %q; want 401 and %q", res.StatusCode, res.Header.Get("Date"), start.Format(http.TimeFormat))
	}
	if err := e.s.Clock().Advance(90 * time.Minute); err != nil {
		t.Fatal(err)
	}
	r := e.do("owner", "GET", "/groups/"+projA+"/alerts", nil)
	if want := start.Add(90 * time.Minute).Format(http.TimeFormat); r.header.Get("Date") != want {
		t.Errorf("answer's Date %q, want %q", r.header.Get("Date"), want)
	}
}

// The answer to a clock move is dated after the move: a client counting
// relative times from it sees the new time as now.
func TestDateOfAClockMoveIsTheNewTime(t *testing.T) {
	e := newEnv(t)
	req, _ := http.NewRequest("POST", e.ts.URL+"/_omctl/clock", strings.NewReader(`{"advance": "5m"}`))
	res, err := e.client("owner").Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if d, err := http.ParseTime(res.Header.Get("Date")); err != nil || !d.Equal(e.s.Clock().Now().Truncate(time.Second)) {
		t.Errorf("Date %q after the move, clock %s", res.Header.Get("Date"), e.s.Clock().Now())
	}
}
