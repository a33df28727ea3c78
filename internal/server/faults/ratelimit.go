package faults

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// RateLimiter gives each API key or user n requests a second, with a
// burst of n, on real time whatever the server's clock (docs/server.md,
// Rate limits).
type RateLimiter struct {
	n   int
	now func() time.Time

	mu  sync.Mutex
	per map[string]*rate.Limiter
}

// NewRateLimiter limits each caller to n requests a second, on the clock
// now; nil for n of 0 or less (no limit).
func NewRateLimiter(n int, now func() time.Time) *RateLimiter {
	if n <= 0 {
		return nil
	}
	return &RateLimiter{n: n, now: now, per: map[string]*rate.Limiter{}}
}

// Allow counts one request of caller; when it is one too many it returns
// false and the whole seconds to wait, at least 1.
func (l *RateLimiter) Allow(caller string) (bool, int) {
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

// PerSecond is how many requests a second a caller may make.
func (l *RateLimiter) PerSecond() int { return l.n }
