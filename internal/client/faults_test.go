package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/omctl/omctl/internal/server"
	"github.com/omctl/omctl/internal/store/fixture"
)

// The client against omctl server with faults injected, in-process.

const faultProject = "5e2b00000000000000000001"

func faultServer(t *testing.T) string {
	t.Helper()
	f, err := fixture.ParseFixtures("faults", []byte(`{"orgs": [{"id": "5e1a00000000000000000001"}],
	 "projects": [{"id": "`+faultProject+`", "orgId": "5e1a00000000000000000001"}],
	 "apiKeys": [{"id": "5f4d00000000000000000001", "publicKey": "owner", "privateKey": "owner-secret", "roles": [{"roleName": "GLOBAL_OWNER"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	s, err := server.New(server.Options{Fixtures: f})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts.URL
}

func faultClient(t *testing.T, base string, retries *int, timeout time.Duration, seen *[]Retry) *Client {
	t.Helper()
	c, err := New(Options{BaseURL: base, PublicKey: "owner", PrivateKey: "owner-secret", Retries: retries, Timeout: timeout,
		OnRetry: func(r Retry) { *seen = append(*seen, r) }})
	if err != nil {
		t.Fatal(err)
	}
	c.http.Transport.(*retryTransport).newWait = func() backoff.BackOff { return backoffZero{} }
	return c
}

func addFault(t *testing.T, c *Client, fault string) {
	t.Helper()
	if _, err := c.Do(context.Background(), "POST", ControlPrefix+"faults", nil, json.RawMessage(fault)); err != nil {
		t.Fatal(err)
	}
}

// journal lists the statuses the server answered for method and path.
func journal(t *testing.T, c *Client, method, path string) []int {
	t.Helper()
	res, err := c.Do(context.Background(), "GET", ControlPrefix+"requests", map[string][]string{"method": {method}, "path": {path}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Results []struct {
			Status int `json:"status"`
		} `json:"results"`
	}
	json.Unmarshal(res.Body, &body)
	var out []int
	for _, r := range body.Results {
		out = append(out, r.Status)
	}
	return out
}

func TestClientRidesOutInjectedFaults(t *testing.T) {
	base := faultServer(t)
	var seen []Retry
	c := faultClient(t, base, nil, 10*time.Second, &seen)
	alerts := "/groups/" + faultProject + "/alerts"

	addFault(t, c, `{"method": "GET", "path": "/groups/*/alerts", "status": 503, "times": 2}`)
	if _, err := c.Get(context.Background(), alerts, nil); err != nil {
		t.Fatalf("a GET through two 503s: %v", err)
	}
	if got := journal(t, c, "GET", alerts); fmt.Sprint(got) != "[401 503 503 200]" && fmt.Sprint(got) != "[503 503 200]" {
		t.Errorf("journal of the GET: %v", got)
	}

	seen = nil
	addFault(t, c, `{"method": "GET", "path": "/groups/*/alerts", "status": 429, "retryAfter": 1, "times": 1}`)
	if _, err := c.Get(context.Background(), alerts, nil); err != nil {
		t.Fatalf("a GET through a 429: %v", err)
	}
	if len(seen) != 1 || seen[0].Wait != time.Second {
		t.Errorf("the 429's Retry-After was not waited: %+v", seen)
	}

	addFault(t, c, `{"method": "POST", "path": "/groups/*/apiKeys", "status": 503, "times": 1}`)
	_, err := c.Do(context.Background(), "POST", "/groups/"+faultProject+"/apiKeys", nil, map[string]any{"desc": "ci", "roles": []string{"GROUP_READ_ONLY"}})
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 {
		t.Errorf("POST through a 503: %v", err)
	}
	if got := journal(t, c, "POST", "/groups/"+faultProject+"/apiKeys"); fmt.Sprint(got) != "[503]" {
		t.Errorf("a POST was repeated: %v", got)
	}

	addFault(t, c, `{"method": "GET", "path": "/groups/*/alerts", "reset": true, "times": 1}`)
	if _, err := c.Get(context.Background(), alerts, nil); err != nil {
		t.Errorf("a GET through a reset connection: %v", err)
	}
}

func TestNoRetriesAgainstAFault(t *testing.T) {
	base := faultServer(t)
	var seen []Retry
	none := 0
	c := faultClient(t, base, &none, 10*time.Second, &seen)
	addFault(t, c, `{"path": "/groups/*/alerts", "status": 503, "times": 1}`)
	if _, err := c.Get(context.Background(), "/groups/"+faultProject+"/alerts", nil); err == nil || len(seen) != 0 {
		t.Errorf("--retries 0: err %v, retries %v", err, seen)
	}
}

func TestADelayLongerThanTheTimeoutIsATimeout(t *testing.T) {
	base := faultServer(t)
	var seen []Retry
	c := faultClient(t, base, nil, 10*time.Second, &seen)
	addFault(t, c, `{"path": "/groups/*/alerts", "delay": "3s"}`)
	short := faultClient(t, base, nil, 300*time.Millisecond, &seen)
	_, err := short.Get(context.Background(), "/groups/"+faultProject+"/alerts", nil)
	var te interface{ Timeout() bool }
	if err == nil || !(errors.Is(err, context.DeadlineExceeded) || errors.As(err, &te) && te.Timeout()) {
		t.Errorf("err = %v, want a timeout", err)
	}
	if err != nil && strings.Contains(err.Error(), "owner-secret") {
		t.Errorf("the error shows the secret: %v", err)
	}
}

// A 503 with Retry-After: 2 is tried again after 2 s, as a 429 is: the
// journal shows the second attempt at least 2 s after the first.
func TestRetryAfterOn503IsWaited(t *testing.T) {
	base := faultServer(t)
	var seen []Retry
	c := faultClient(t, base, nil, 10*time.Second, &seen)
	alerts := "/groups/" + faultProject + "/alerts"
	addFault(t, c, `{"method": "GET", "path": "/groups/*/alerts", "status": 503, "retryAfter": 2, "times": 1}`)
	if _, err := c.Get(context.Background(), alerts, nil); err != nil {
		t.Fatalf("a GET through a 503: %v", err)
	}
	res, err := c.Do(context.Background(), "GET", ControlPrefix+"requests", map[string][]string{"method": {"GET"}, "path": {alerts}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Results []struct {
			Status int       `json:"status"`
			Time   time.Time `json:"time"`
		} `json:"results"`
	}
	if err := json.Unmarshal(res.Body, &body); err != nil {
		t.Fatal(err)
	}
	var at503, at200 time.Time
	for _, r := range body.Results {
		switch r.Status {
		case 503:
			at503 = r.Time
		case 200:
			at200 = r.Time
		}
	}
	// The journal's times are whole seconds: a wait of 2 s or more shows
	// as 2 s or more, a backoff's (zero here) as 0 or 1 s.
	if at503.IsZero() || at200.Sub(at503) < 2*time.Second {
		t.Errorf("the retry came %s after the 503, want 2s or more (journal %+v)", at200.Sub(at503), body.Results)
	}
	if len(seen) != 1 || seen[0].Wait != 2*time.Second {
		t.Errorf("retries %+v, want one after 2s", seen)
	}
}

// The last error of a request that was retried says how many attempts
// it took and over how long.
func TestLastErrorCountsTheAttempts(t *testing.T) {
	base := faultServer(t)
	var seen []Retry
	c := faultClient(t, base, nil, 10*time.Second, &seen)
	addFault(t, c, `{"method": "GET", "path": "/groups/*/alerts", "status": 502}`)
	_, err := c.Get(context.Background(), "/groups/"+faultProject+"/alerts", nil)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 502 || !regexp.MustCompile(`\(after 4 attempts over \d`).MatchString(err.Error()) {
		t.Errorf("err = %v, want the 502 after 4 attempts", err)
	}
}

// A POST whose connection is lost says it may or may not have been
// applied, and how to find out, not a bare EOF.
func TestLostPostMayHaveBeenApplied(t *testing.T) {
	base := faultServer(t)
	var seen []Retry
	c := faultClient(t, base, nil, 10*time.Second, &seen)
	addFault(t, c, `{"method": "POST", "path": "/groups/*/apiKeys", "reset": true, "times": 1}`)
	_, err := c.Do(context.Background(), "POST", "/groups/"+faultProject+"/apiKeys", nil, map[string]any{"desc": "ci", "roles": []string{"GROUP_READ_ONLY"}})
	if err == nil || !strings.Contains(err.Error(), "may or may not have been applied") || !strings.Contains(err.Error(), "describe") || strings.HasSuffix(err.Error(), "EOF") {
		t.Errorf("err = %v", err)
	}
}

// A write whose connection is lost once sent has an unknown outcome, a
// PUT retried until its attempts ran out included; one whose connection
// was refused was never sent, and says so rather than "may or may not".
func TestOnlyAWriteThatMayHaveBeenSentHasAnUnknownOutcome(t *testing.T) {
	base := faultServer(t)
	var seen []Retry
	c := faultClient(t, base, nil, 10*time.Second, &seen)
	addFault(t, c, `{"method": "POST", "path": "/groups/*/apiKeys", "reset": true, "times": 1}`)
	_, err := c.Do(context.Background(), "POST", "/groups/"+faultProject+"/apiKeys", nil, map[string]any{"desc": "ci", "roles": []string{"GROUP_READ_ONLY"}})
	if !errors.Is(err, ErrOutcomeUnknown) {
		t.Errorf("lost POST: %v is not unknown", err)
	}
	addFault(t, c, `{"method": "PUT", "path": "/admin/backup/groups/*", "reset": true}`)
	_, err = c.Do(context.Background(), "PUT", "/admin/backup/groups/"+faultProject, nil, map[string]any{"labelFilter": []string{"x"}})
	if !errors.Is(err, ErrOutcomeUnknown) || !strings.Contains(err.Error(), "may or may not have been applied") || !strings.Contains(err.Error(), "attempts") {
		t.Errorf("lost PUT: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	none := 0
	c = faultClient(t, closed, &none, 10*time.Second, &seen)
	_, err = c.Do(context.Background(), "POST", "/groups/"+faultProject+"/apiKeys", nil, map[string]any{"desc": "ci"})
	if err == nil || errors.Is(err, ErrOutcomeUnknown) || strings.Contains(err.Error(), "may or may not") || !strings.Contains(err.Error(), "refused") {
		t.Errorf("refused POST: %v", err)
	}
}
