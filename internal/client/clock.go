package client

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"
)

// serverClock is what the client knows of the server's time: the offset
// of the Date header of the last answer from the machine's clock when it
// came. Times the user gives relative to now (--until 4h) and checks that
// a time is in the future count from the server's clock, which may be
// virtual (omctl server --clock) or simply not the machine's.
type serverClock struct {
	offset atomic.Int64 // nanoseconds; meaningful once known is set
	known  atomic.Bool
}

func (c *serverClock) now() time.Time {
	if !c.known.Load() {
		return time.Now()
	}
	return time.Now().Add(time.Duration(c.offset.Load()))
}

// dateTransport notes the Date of every answer, the 401 challenge included.
type dateTransport struct {
	next  http.RoundTripper
	clock *serverClock
}

func (t *dateTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := t.next.RoundTrip(req)
	if err == nil {
		if d, perr := http.ParseTime(res.Header.Get("Date")); perr == nil {
			t.clock.offset.Store(int64(time.Until(d)))
			t.clock.known.Store(true)
		}
	}
	return res, err
}

// Now is the server's time as the answers so far tell it, the machine's
// when none has come yet.
func (c *Client) Now() time.Time { return c.clock.now() }

// SyncClock makes sure Now is the server's time: when no answer has come
// yet, it asks for the digest challenge the first request would have met
// anyway (an unauthenticated HEAD of the base URL, whose 401 carries the
// server's Date). A server that cannot be reached leaves the machine's
// clock in use; the request that follows will say what is wrong.
func (c *Client) SyncClock(ctx context.Context) {
	if c.clock.known.Load() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, c.base.String(), nil)
	if err != nil {
		return
	}
	if res, err := c.plain.RoundTrip(req); err == nil {
		res.Body.Close()
	}
}
