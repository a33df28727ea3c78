package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// The client's time is the server's, from the Date of its answers; before
// any answer, SyncClock asks for one (the challenge a HEAD meets).
func TestNowIsTheServersClock(t *testing.T) {
	serverNow := time.Date(2031, 6, 1, 12, 0, 0, 0, time.UTC)
	var heads int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			heads++
		}
		w.Header().Set("Date", serverNow.Format(http.TimeFormat))
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer srv.Close()
	c, err := New(Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(c.Now()); d < -time.Minute || d > time.Minute {
		t.Fatalf("before any answer Now is %s, want the machine's time", c.Now())
	}
	c.SyncClock(context.Background())
	c.SyncClock(context.Background())
	if d := c.Now().Sub(serverNow); d < 0 || d > time.Minute {
		t.Errorf("Now = %s, want about %s", c.Now(), serverNow)
	}
	if heads != 1 {
		t.Errorf("%d HEAD requests, want 1: a known clock needs no question", heads)
	}
}
