package server

import (
	"net/http"
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
