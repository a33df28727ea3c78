package server

import (
	"sync"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/server/faults"
)

// fakeTime is a real-time stand-in the test moves by hand.
type fakeTime struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeTime) now() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.t }

func (f *fakeTime) add(d time.Duration) {
	f.mu.Lock()
	f.t = f.t.Add(d)
	f.mu.Unlock()
}

func TestRateLimitPerCallerWithRetryAfter(t *testing.T) {
	e := newEnvOpts(t, func(o *Options) { o.RateLimit = 2 })
	clock := &fakeTime{t: time.Unix(1e9, 0)}
	e.s.limiter = faults.NewRateLimiter(2, clock.now)
	// Requests without valid credentials are not counted.
	for range 5 {
		if r := e.do("", "GET", "/globalAlerts", nil); r.status != 401 {
			t.Fatalf("without credentials: %d", r.status)
		}
	}
	e.expect(e.do("owner", "GET", "/globalAlerts", nil), 200, "")
	e.expect(e.do("owner", "GET", "/globalAlerts", nil), 200, "")
	r := e.do("owner", "GET", "/globalAlerts", nil)
	e.expect(r, 429, "RATE_LIMITED")
	if r.header.Get("Retry-After") != "1" {
		t.Errorf("Retry-After = %q, want 1", r.header.Get("Retry-After"))
	}
	// Another key has its own allowance; controls are not limited.
	e.expect(e.do("reader", "GET", "/groups/"+projA+"/alerts", nil), 200, "")
	for range 5 {
		e.expect(e.doRaw("owner", "GET", "/_omctl/faults", ""), 200, "")
	}
	// The virtual clock does not refill it; real time does.
	e.expect(e.doRaw("owner", "POST", "/_omctl/clock", `{"advance": "1h"}`), 200, "")
	e.expect(e.do("owner", "GET", "/globalAlerts", nil), 429, "RATE_LIMITED")
	clock.add(500 * time.Millisecond)
	e.expect(e.do("owner", "GET", "/globalAlerts", nil), 200, "")
	e.expect(e.do("owner", "GET", "/globalAlerts", nil), 429, "RATE_LIMITED")
	_, got := e.journalOf("?status=429")
	if len(got) != 3 || got[0]["errorCode"] != "RATE_LIMITED" || got[0]["caller"] != "owner" {
		t.Errorf("limited requests in the journal: %v", got)
	}
}
