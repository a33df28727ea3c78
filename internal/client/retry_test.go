package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// flaky answers each request with the next status of statuses, then 200.
func flaky(t *testing.T, statuses ...int) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		if i < len(statuses) {
			if statuses[i] == 429 {
				w.Header().Set("Retry-After", "1")
			}
			if statuses[i] == -1 { // drop the connection without an answer
				conn, _, _ := w.(http.Hijacker).Hijack()
				conn.Close()
				return
			}
			w.WriteHeader(statuses[i])
			w.Write([]byte(`{"error":` + http.StatusText(statuses[i]) + `}`))
			return
		}
		w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func newRetryClient(t *testing.T, base string, retries *int, seen *[]Retry) *Client {
	t.Helper()
	c, err := New(Options{BaseURL: base, Retries: retries, Timeout: 10 * time.Second,
		OnRetry: func(r Retry) { *seen = append(*seen, r) }})
	if err != nil {
		t.Fatal(err)
	}
	// Tests do not wait the real backoff; what is waited is checked instead.
	c.http.Transport.(*retryTransport).newWait = func() backoff.BackOff { return backoffZero{} }
	return c
}

func TestAGetIsRetriedThroughUnavailability(t *testing.T) {
	srv, n := flaky(t, 503, 502, 504)
	var seen []Retry
	c := newRetryClient(t, srv.URL, nil, &seen)
	body, err := c.Get(context.Background(), "/x", nil)
	if err != nil || !strings.Contains(string(body), "ok") {
		t.Fatalf("%v %s", err, body)
	}
	if n.Load() != 4 || len(seen) != 3 || seen[0].Reason != "503 Service Unavailable" || seen[2].Attempt != 4 {
		t.Errorf("requests %d, retries %+v", n.Load(), seen)
	}
}

func TestRetriesGiveUpAfterTheirNumber(t *testing.T) {
	srv, n := flaky(t, 503, 503, 503, 503, 503)
	var seen []Retry
	c := newRetryClient(t, srv.URL, nil, &seen)
	_, err := c.Get(context.Background(), "/x", nil)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || n.Load() != 1+DefaultRetries {
		t.Errorf("err %v after %d requests", err, n.Load())
	}
}

func TestA429WaitsItsRetryAfter(t *testing.T) {
	srv, n := flaky(t, 429)
	var seen []Retry
	c := newRetryClient(t, srv.URL, nil, &seen)
	if _, err := c.Get(context.Background(), "/x", nil); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 2 || len(seen) != 1 || seen[0].Wait != time.Second {
		t.Errorf("requests %d, retries %+v", n.Load(), seen)
	}
}

func TestWritesThatAreNotRepeatableAreNotRetried(t *testing.T) {
	for _, method := range []string{"POST", "DELETE"} {
		srv, n := flaky(t, 503)
		var seen []Retry
		c := newRetryClient(t, srv.URL, nil, &seen)
		_, err := c.Do(context.Background(), method, "/x", nil, map[string]any{"a": 1})
		if err == nil || n.Load() != 1 || len(seen) != 0 {
			t.Errorf("%s: err %v, %d requests", method, err, n.Load())
		}
	}
	// PUT and PATCH set absolute values: repeating them is safe.
	srv, n := flaky(t, 503)
	var seen []Retry
	c := newRetryClient(t, srv.URL, nil, &seen)
	if _, err := c.Do(context.Background(), "PATCH", "/x", nil, map[string]any{"enabled": false}); err != nil || n.Load() != 2 {
		t.Errorf("PATCH: err %v, %d requests", err, n.Load())
	}
}

func TestNoRetriesWithZero(t *testing.T) {
	srv, n := flaky(t, 503)
	var seen []Retry
	zero := 0
	c := newRetryClient(t, srv.URL, &zero, &seen)
	if _, err := c.Get(context.Background(), "/x", nil); err == nil || n.Load() != 1 {
		t.Errorf("err %v, %d requests", err, n.Load())
	}
}

func TestALostConnectionIsRetried(t *testing.T) {
	srv, n := flaky(t, -1)
	var seen []Retry
	c := newRetryClient(t, srv.URL, nil, &seen)
	if _, err := c.Get(context.Background(), "/x", nil); err != nil || n.Load() != 2 || seen[0].Reason != "the connection failed" {
		t.Errorf("err %v, %d requests, %+v", err, n.Load(), seen)
	}
}

type backoffZero struct{}

func (backoffZero) NextBackOff() time.Duration { return 0 }
func (backoffZero) Reset()                     {}

func TestFailuresSayWhatToDo(t *testing.T) {
	// A port nobody listens on.
	ln := httptest.NewServer(http.NotFoundHandler())
	addr := ln.URL
	ln.Close()
	none := 0
	c, _ := New(Options{BaseURL: addr, Retries: &none})
	_, err := c.Get(context.Background(), "/x", nil)
	if err == nil || !strings.Contains(err.Error(), "is the server running") || !strings.Contains(err.Error(), addr) {
		t.Errorf("refused: %v", err)
	}
	tlsSrv := httptest.NewTLSServer(http.NotFoundHandler())
	defer tlsSrv.Close()
	c, _ = New(Options{BaseURL: tlsSrv.URL, Retries: &none})
	_, err = c.Get(context.Background(), "/x", nil)
	if err == nil || !strings.Contains(err.Error(), "--ca-cert") || !strings.Contains(err.Error(), "--insecure") {
		t.Errorf("unknown authority: %v", err)
	}
	// A server that is not the API: 404 for everything, no API error body.
	plain := httptest.NewServer(http.NotFoundHandler())
	defer plain.Close()
	c, _ = New(Options{BaseURL: plain.URL, Retries: &none})
	_, err = c.Get(context.Background(), "/groups", nil)
	if err == nil || !strings.Contains(err.Error(), "is the base URL the API's") {
		t.Errorf("not the API: %v", err)
	}
}

func TestEscapedPathsAreNotEscapedTwice(t *testing.T) {
	c, err := New(Options{BaseURL: "http://h"})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.URL("/admin/backup/oplog/s3Configs/a%20b%2Fc", nil); got != "http://h/api/public/v1.0/admin/backup/oplog/s3Configs/a%20b%2Fc" {
		t.Errorf("URL = %s", got)
	}
}
