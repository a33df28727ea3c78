package server

import (
	"sync"
	"time"
)

// Clock is the server's sense of now. A virtual clock stands still except
// when advanced, so tests decide when TRACKING alerts open; the real clock
// can be advanced too, by an offset.
type Clock struct {
	mu      sync.Mutex
	virtual bool
	base    time.Time
	offset  time.Duration
}

// RealClock follows the system time.
func RealClock() *Clock { return &Clock{} }

// VirtualClock starts at t and moves only when advanced.
func VirtualClock(t time.Time) *Clock { return &Clock{virtual: true, base: t.UTC()} }

// Now returns the current time of the clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.virtual {
		return c.base.Add(c.offset)
	}
	return time.Now().UTC().Add(c.offset)
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}

// Set moves a virtual clock to t (a real clock is offset to it).
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.virtual {
		c.base, c.offset = t.UTC(), 0
		return
	}
	c.offset = time.Until(t)
}
