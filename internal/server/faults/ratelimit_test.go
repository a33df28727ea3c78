package faults

import (
	"testing"
	"time"
)

func TestRetryAfterIsWholeSecondsAtLeastOne(t *testing.T) {
	at := time.Unix(1e9, 0)
	l := NewRateLimiter(1, func() time.Time { return at })
	if ok, _ := l.Allow("k"); !ok {
		t.Fatal("first request refused")
	}
	ok, after := l.Allow("k")
	if ok || after != 1 {
		t.Errorf("second: %v, Retry-After %d", ok, after)
	}
	if NewRateLimiter(0, time.Now) != nil {
		t.Error("a limit of 0 limits")
	}
}
