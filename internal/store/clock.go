package store

import (
	"fmt"
	"sync"
	"time"

	"github.com/omctl/omctl/internal/rules"
)

// Clock is the server's sense of now. A virtual clock stands still except
// when advanced, so tests decide when TRACKING alerts open; the real clock
// can be advanced too, by an offset.
type Clock struct {
	mu      sync.Mutex
	virtual bool
	now     time.Time     // a virtual clock's time
	offset  time.Duration // how far a real clock is ahead
}

// The times a clock may show: what timestamps in the API can carry.
var (
	earliestTime = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	latestTime   = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
)

// RealClock follows the system time.
func RealClock() *Clock { return &Clock{} }

// RealClockAhead follows the system time, ahead of it by offset: a real
// clock advanced before a restart.
func RealClockAhead(offset time.Duration) *Clock { return &Clock{offset: offset} }

// Offset is how far a real clock was advanced; 0 for a virtual one.
func (c *Clock) Offset() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.offset
}

// VirtualClock starts at t and moves only when advanced.
func VirtualClock(t time.Time) *Clock { return &Clock{virtual: true, now: t.UTC()} }

// Virtual reports whether the clock stands still until moved.
func (c *Clock) Virtual() bool { return c.virtual }

// Now returns the current time of the clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked()
}

func (c *Clock) nowLocked() time.Time {
	if c.virtual {
		return c.now
	}
	return time.Now().UTC().Add(c.offset)
}

// CheckTime says why a clock cannot show t, or nil when it can.
func CheckTime(t time.Time) error {
	if t.Before(earliestTime) || t.After(latestTime) {
		return fmt.Errorf("%s is outside the times the server can show (%s to %s)",
			t.UTC().Format(time.RFC3339), earliestTime.Format(time.RFC3339), latestTime.Format(time.RFC3339))
	}
	return nil
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.setLocked(c.nowLocked().Add(d))
}

// Set moves the clock to t, never backwards.
func (c *Clock) Set(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now := c.nowLocked(); t.Before(now) {
		return fmt.Errorf("%s is before the clock's time %s: the clock only moves forward", t.UTC().Format(time.RFC3339), rules.FormatTime(now))
	}
	return c.setLocked(t)
}

// Target is where Advance(d) (or, with d 0, Set(at)) would move the clock
// to, or why it cannot: a long move is made in steps, each a Set, once
// the whole move is known to be allowed.
func (c *Clock) Target(d time.Duration, at time.Time) (time.Time, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.nowLocked()
	t := now.Add(d)
	if d == 0 {
		if at.Before(now) {
			return time.Time{}, fmt.Errorf("%s is before the clock's time %s: the clock only moves forward", at.UTC().Format(time.RFC3339), rules.FormatTime(now))
		}
		t = at
	}
	return t, c.check(t)
}

func (c *Clock) setLocked(t time.Time) error {
	if err := c.check(t); err != nil {
		return err
	}
	if c.virtual {
		c.now = t.UTC()
		return nil
	}
	c.offset = time.Until(t)
	return nil
}

// check says why the clock cannot show t.
func (c *Clock) check(t time.Time) error {
	if err := CheckTime(t); err != nil {
		return err
	}
	if c.virtual {
		return nil
	}
	// A real clock keeps an offset, which a Duration bounds to 292 years.
	ahead := time.Until(t)
	if ahead >= 290*365*24*time.Hour {
		return fmt.Errorf("%s is too far ahead of the real time: the real clock moves at most 290 years; start the server with --clock for more",
			t.UTC().Format(time.RFC3339))
	}
	return nil
}

// clockMark is where a clock was, to go back there when a change that
// moved it could not be saved.
type clockMark struct {
	now    time.Time
	offset time.Duration
}

func (c *Clock) mark() clockMark {
	c.mu.Lock()
	defer c.mu.Unlock()
	return clockMark{c.now, c.offset}
}

func (c *Clock) restore(m clockMark) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now, c.offset = m.now, m.offset
}
