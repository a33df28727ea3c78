package server

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/server/journal"
	"golang.org/x/time/rate"
)

// rateLimiter gives each API key or user n requests a second, with a
// burst of n, on real time whatever the server's clock (docs/server.md,
// Rate limits).
type rateLimiter struct {
	n   int
	now func() time.Time

	mu  sync.Mutex
	per map[string]*rate.Limiter
}

func newRateLimiter(n int) *rateLimiter {
	if n <= 0 {
		return nil
	}
	return &rateLimiter{n: n, now: time.Now, per: map[string]*rate.Limiter{}}
}

// allow counts one request of caller; when it is one too many it returns
// false and the whole seconds to wait, at least 1.
func (l *rateLimiter) allow(caller string) (bool, int) {
	l.mu.Lock()
	lim := l.per[caller]
	if lim == nil {
		lim = rate.NewLimiter(rate.Limit(l.n), l.n)
		l.per[caller] = lim
	}
	l.mu.Unlock()
	now := l.now()
	r := lim.ReserveN(now, 1)
	wait := r.DelayFrom(now)
	if wait == 0 {
		return true, 0
	}
	r.CancelAt(now)
	return false, max(1, int(math.Ceil(wait.Seconds())))
}

// admit notes the caller of an authenticated API request in the journal
// and applies --rate-limit to it. It returns false when c holds the
// answer: 429 RATE_LIMITED with Retry-After.
func (s *Server) admit(c *reqCtx) bool {
	journal.NoteCaller(c.r, c.caller.Name)
	if s.limiter == nil || !api.IsAPIPath(c.r.URL.Path) {
		return true
	}
	ok, after := s.limiter.allow(c.caller.Name)
	if ok {
		return true
	}
	c.header.Set("Retry-After", strconv.Itoa(after))
	c.fail(httpx.New(http.StatusTooManyRequests, "RATE_LIMITED",
		fmt.Sprintf("Too many requests: %s may send %d a second; retry after %d s.", c.caller.Name, s.limiter.n, after),
		c.caller.Name, s.limiter.n))
	return false
}
