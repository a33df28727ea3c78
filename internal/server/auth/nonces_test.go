package auth

import (
	"testing"
	"time"
)

func TestNonceMemoryIsBounded(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	n := newNonces(5*time.Minute, func() time.Time { return now })
	n.limit = 100
	var first string
	for i := 0; i < 1000; i++ {
		nonce := n.issue()
		if i == 0 {
			first = nonce
		}
		if got := n.use(nonce, 1); got != nonceFresh {
			t.Fatalf("nonce %d: %v", i, got)
		}
	}
	if len(n.seen) > 100 || len(n.order)-n.head > 100 {
		t.Errorf("remembers %d nonces (%d queued), limit 100", len(n.seen), len(n.order)-n.head)
	}
	// A forgotten nonce can never be replayed: it is stale now.
	if got := n.use(first, 1); got != nonceStale {
		t.Errorf("forgotten nonce replayed: %v", got)
	}
	if got := n.use(first, 2); got != nonceStale {
		t.Errorf("forgotten nonce with a new count: %v", got)
	}
	// Expired nonces are dropped as time passes.
	now = now.Add(6 * time.Minute)
	n.use(n.issue(), 1)
	if len(n.seen) != 1 {
		t.Errorf("after expiry it remembers %d nonces", len(n.seen))
	}
}
