package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// DefaultRetries is how many times a request that may be repeated is
// tried again when the service is briefly unable to answer it.
const DefaultRetries = 3

// MaxRetryAfter caps how long a 429's or 503's Retry-After is waited for.
const MaxRetryAfter = 30 * time.Second

// Retry says that a request is about to be tried again, and why.
type Retry struct {
	Method, URL string
	Attempt     int // the attempt about to be made, from 2
	Wait        time.Duration
	Reason      string
}

// retryTransport tries again, with exponential backoff and jitter, a
// request whose repetition is safe: GET and HEAD, and PUT and PATCH, which
// in this API set absolute values. POST and DELETE are never repeated.
// It retries on a connection error, on 429 (after its Retry-After), and
// on 502, 503 and 504, within the request's deadline.
type retryTransport struct {
	next    http.RoundTripper
	retries int
	notify  func(Retry)
	newWait func() backoff.BackOff
}

func newRetryTransport(next http.RoundTripper, retries int, notify func(Retry)) *retryTransport {
	return &retryTransport{next: next, retries: retries, notify: notify, newWait: func() backoff.BackOff {
		b := backoff.NewExponentialBackOff()
		b.InitialInterval = 200 * time.Millisecond
		b.MaxInterval = 5 * time.Second
		b.MaxElapsedTime = 0 // the request's deadline bounds it
		b.Reset()
		return b
	}}
}

func repeatable(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodPatch:
		return true
	}
	return false
}

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.retries <= 0 || !repeatable(req.Method) {
		return t.next.RoundTrip(req)
	}
	waits := t.newWait()
	tries, _ := req.Context().Value(attemptsKey{}).(*attempts)
	for attempt := 1; ; attempt++ {
		if tries != nil {
			tries.n = attempt
		}
		try := req
		if attempt > 1 {
			try = req.Clone(req.Context())
			if req.GetBody != nil {
				body, err := req.GetBody()
				if err != nil {
					return nil, err
				}
				try.Body = body
			}
		}
		res, err := t.next.RoundTrip(try)
		if tries != nil && err != nil && lostConnection(err) {
			tries.lost = true // this attempt may have reached the server
		}
		reason, wait, again := retryable(res, err, waits)
		if !again || attempt > t.retries {
			return res, err
		}
		if deadline, ok := req.Context().Deadline(); ok && time.Until(deadline) < wait {
			return res, err // no time left to wait for it
		}
		if res != nil {
			io.Copy(io.Discard, io.LimitReader(res.Body, 1<<16))
			res.Body.Close()
		}
		if t.notify != nil {
			t.notify(Retry{Method: req.Method, URL: req.URL.Redacted(), Attempt: attempt + 1, Wait: wait, Reason: reason})
		}
		timer := time.NewTimer(wait)
		select {
		case <-req.Context().Done():
			timer.Stop()
			return nil, req.Context().Err()
		case <-timer.C:
		}
	}
}

// retryable says whether an answer is worth another attempt, why, and
// after how long.
func retryable(res *http.Response, err error, waits backoff.BackOff) (string, time.Duration, bool) {
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return "", 0, false
		}
		if !connectionError(err) {
			return "", 0, false
		}
		return "the connection failed", waits.NextBackOff(), true
	}
	switch res.StatusCode {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		// Both say when to come back (RFC 9110, Retry-After); the server
		// knows better than a backoff does.
		wait := waits.NextBackOff()
		if after, ok := retryAfter(res.Header.Get("Retry-After")); ok {
			wait = min(after, MaxRetryAfter)
		}
		return fmt.Sprintf("%d %s", res.StatusCode, http.StatusText(res.StatusCode)), wait, true
	case http.StatusBadGateway, http.StatusGatewayTimeout:
		return fmt.Sprintf("%d %s", res.StatusCode, http.StatusText(res.StatusCode)), waits.NextBackOff(), true
	}
	return "", 0, false
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date.
func retryAfter(v string) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0), true
	}
	return 0, false
}

// connectionError is an error of the connection itself (refused, reset,
// closed without an answer), not of TLS or of the request.
func connectionError(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// lostConnection is a connection that failed once the request could have
// been sent (reset, closed without an answer), unlike one refused or never
// made: the server may have received the request.
func lostConnection(err error) bool {
	var op *net.OpError
	if errors.Is(err, syscall.ECONNREFUSED) || (errors.As(err, &op) && op.Op == "dial") {
		return false
	}
	return connectionError(err)
}

// isWrite says a method may change what the server holds.
func isWrite(method string) bool {
	return method != http.MethodGet && method != http.MethodHead
}

// attempts is how many times the retry transport tried one request, for
// the error that ends it, and whether any attempt lost its connection
// after it could have been sent.
type attempts struct {
	n    int
	lost bool
}

type attemptsKey struct{}

// retriedError says how many attempts a request took, and over how long,
// when it failed after more than one.
type retriedError struct {
	err      error
	attempts int
	elapsed  time.Duration
}

func (e *retriedError) Error() string {
	return fmt.Sprintf("%v (after %d attempts over %s)", e.err, e.attempts, e.elapsed.Round(10*time.Millisecond))
}
func (e *retriedError) Unwrap() error { return e.err }

// withAttempts wraps err with the attempts it took, when there were several.
func withAttempts(err error, tries *attempts, start time.Time) error {
	if err == nil || tries.n < 2 {
		return err
	}
	return &retriedError{err: err, attempts: tries.n, elapsed: time.Since(start)}
}
