package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

func TestWriteRedirectIsAnErrorNotAGet(t *testing.T) {
	for _, status := range []int{301, 302, 303, 307, 308} {
		var mu sync.Mutex
		var got []string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			got = append(got, r.Method+" "+r.URL.Path)
			mu.Unlock()
			if r.URL.Path == "/api/public/v1.0/orgs/o/apiKeys" {
				w.Header().Set("Location", "/api/public/v1.0/elsewhere")
				w.WriteHeader(status)
				return
			}
			io.WriteString(w, `{"results":[],"totalCount":0}`)
		}))
		for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			got = nil
			c, _ := New(Options{BaseURL: srv.URL})
			_, err := c.Send(context.Background(), method, "/orgs/o/apiKeys", map[string]string{"desc": "x"})
			var redir *RedirectError
			if !errors.As(err, &redir) || redir.StatusCode != status || redir.Location != "/api/public/v1.0/elsewhere" {
				t.Errorf("%s answered %d: err = %v, want a RedirectError", method, status, err)
				continue
			}
			msg := err.Error()
			if !strings.Contains(msg, http.StatusText(status)) || !strings.Contains(msg, "Location: /api/public/v1.0/elsewhere") || !strings.Contains(msg, "does not follow redirects of writes") {
				t.Errorf("message %q names neither the status nor the Location", msg)
			}
			if len(got) != 1 {
				t.Errorf("%s answered %d: requests %v, want the write alone", method, status, got)
			}
		}
		srv.Close()
	}
}

func TestGetFollowsRedirectOnTheSameHost(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/public/v1.0/old":
			http.Redirect(w, r, "/api/public/v1.0/new", http.StatusMovedPermanently)
			return
		case "/api/public/v1.0/nowhere":
			w.WriteHeader(http.StatusFound)
			return
		}
		io.WriteString(w, `{"id":"x"}`)
	}))
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL})
	body, err := c.Get(context.Background(), "/old", nil)
	if err != nil || string(body) != `{"id":"x"}` {
		t.Fatalf("body %s, err %v", body, err)
	}
	_, err = c.Get(context.Background(), "/nowhere", nil)
	if err == nil || !strings.Contains(err.Error(), "was answered 302 Found (Location: no Location), a redirect omctl cannot follow") {
		t.Errorf("a redirect without Location: %v", err)
	}
}

// A GET redirected to another host (here another port) is followed without
// credentials: its digest challenge is not answered, and the challenge of
// the base URL's host is not reused there.
func TestNoCredentialsForAnotherHost(t *testing.T) {
	var mu sync.Mutex
	var foreignAuth []string
	foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		foreignAuth = append(foreignAuth, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("WWW-Authenticate", `Digest realm="MMS Public API", nonce="theirs", algorithm=MD5, qop="auth"`)
		w.WriteHeader(401)
	}))
	defer foreign.Close()
	d := &digestServer{user: "pubkey", key: "secret-private-key", seen: map[string]bool{}}
	d.answer = func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/public/v1.0/moved" {
			http.Redirect(w, r, foreign.URL+"/api/public/v1.0/x", http.StatusFound)
			return
		}
		io.WriteString(w, `{"ok":true}`)
	}
	home := httptest.NewServer(d)
	defer home.Close()
	c, _ := New(Options{BaseURL: home.URL, PublicKey: "pubkey", PrivateKey: "secret-private-key"})
	if _, err := c.Get(context.Background(), "/first", nil); err != nil {
		t.Fatal(err) // caches the home challenge
	}
	_, err := c.Get(context.Background(), "/moved", nil)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 401 {
		t.Errorf("err = %v, want the foreign host's 401", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(foreignAuth) != 1 || foreignAuth[0] != "" {
		t.Errorf("the other host received Authorization %q", foreignAuth)
	}
}

func TestBodyLargerThanTheLimitIsRefused(t *testing.T) {
	defer func(old int64) { MaxBodyBytes = old }(MaxBodyBytes)
	MaxBodyBytes = 1 << 20
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := 1 << 20
		if r.URL.Path == "/api/public/v1.0/big" {
			n++
		}
		io.WriteString(w, `"`+strings.Repeat("a", n-2)+`"`)
	}))
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL})
	if body, err := c.Get(context.Background(), "/fits", nil); err != nil || len(body) != 1<<20 {
		t.Fatalf("a body of exactly the limit: %d bytes, %v", len(body), err)
	}
	_, err := c.Get(context.Background(), "/big", nil)
	var tooLarge *BodyTooLargeError
	if !errors.As(err, &tooLarge) || !strings.Contains(err.Error(), "larger than 1 MiB") {
		t.Errorf("err = %v, want one naming the 1 MiB limit", err)
	}
}
