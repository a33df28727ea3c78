package server

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/icholy/digest"
	"github.com/omctl/omctl/internal/server/auth"
)

func TestAuthFailureLimitSlowsGuessingOneName(t *testing.T) {
	e := newEnvOpts(t, func(o *Options) { o.AuthFailureLimit = 3 })
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	e.s.digest = auth.New(auth.Options{NonceTTL: e.s.opts.NonceTTL, Now: e.s.nonceClock, FailureLimit: 3,
		FailureNow: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }})
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	get := func(user, password string) *http.Response { t.Helper(); return getWithSecret(t, e, user, password) }
	for i := range 3 {
		if r := get("owner", "wrong"); r.StatusCode != 401 {
			t.Fatalf("wrong answer %d: %d", i, r.StatusCode)
		}
		advance(10 * time.Second)
	}
	// 30 s after the first failure: the minute has not passed.
	if r := get("owner", "wrong"); r.StatusCode != 429 || r.Header.Get("Retry-After") != "30" {
		t.Errorf("a fourth guess: %d, Retry-After %q", r.StatusCode, r.Header.Get("Retry-After"))
	}
	if r := get("owner", secrets["owner"]); r.StatusCode != 429 {
		t.Errorf("the right secret while refused: %d", r.StatusCode)
	}
	if r := get("reader", secrets["reader"]); r.StatusCode != 200 {
		t.Errorf("another key: %d", r.StatusCode)
	}
	res, err := http.Get(e.base + "/globalAlerts")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 401 || res.Header.Get("WWW-Authenticate") == "" {
		t.Errorf("a request without credentials: %d", res.StatusCode)
	}
	advance(30 * time.Second)
	if r := get("owner", secrets["owner"]); r.StatusCode != 200 {
		t.Errorf("once the minute has passed: %d", r.StatusCode)
	}
	// Failures spread wider than a minute never add up to the limit.
	for range 6 {
		get("reader", "wrong")
		advance(31 * time.Second)
	}
	if r := get("reader", secrets["reader"]); r.StatusCode != 200 {
		t.Errorf("after failures a minute apart: %d", r.StatusCode)
	}
}

// getWithSecret lists a project's alerts as user with password, and
// checks that a 429 carries its error body and Retry-After.
func getWithSecret(t *testing.T, e *env, user, password string) *http.Response {
	t.Helper()
	c := &http.Client{Transport: &digest.Transport{Username: user, Password: password}}
	res, err := c.Get(e.base + "/groups/" + projA + "/alerts")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	json.NewDecoder(res.Body).Decode(&body)
	if res.StatusCode == 429 && (body["errorCode"] != "RATE_LIMITED" || res.Header.Get("Retry-After") == "") {
		t.Errorf("429 without its error body or Retry-After: %v %v", res.Header, body)
	}
	return res
}

func TestAuthFailuresAreNotCountedWithoutTheLimit(t *testing.T) {
	e := newEnv(t)
	for range 20 {
		if r := getWithSecret(t, e, "owner", "wrong"); r.StatusCode != 401 {
			t.Fatalf("status %d", r.StatusCode)
		}
	}
	if e.do("owner", "GET", "/globalAlerts", nil).status != 200 {
		t.Error("the right secret was refused")
	}
}
