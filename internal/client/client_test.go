package client

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/icholy/digest"
)

func TestNormalizeBaseURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://om.example.com:8443":                       "https://om.example.com:8443/api/public/v1.0",
		"https://om.example.com:8443/":                      "https://om.example.com:8443/api/public/v1.0",
		"http://127.0.0.1:8080/api/public/v1.0/":            "http://127.0.0.1:8080/api/public/v1.0",
		"https://gw.example.com/opsmanager/api/public/v1.0": "https://gw.example.com/opsmanager/api/public/v1.0",
	} {
		got, err := NormalizeBaseURL(in)
		if err != nil || got != want {
			t.Errorf("NormalizeBaseURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "om.example.com", "ftp://om", "https://om?x=1"} {
		if _, err := NormalizeBaseURL(bad); err == nil {
			t.Errorf("NormalizeBaseURL(%q) accepted", bad)
		}
	}
}

func TestAPIErrorCarriesStatusCodeAndDetail(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/public/v1.0/json":
			w.WriteHeader(400)
			io.WriteString(w, `{"detail":"Invalid attribute foo specified.","error":400,"errorCode":"INVALID_ATTRIBUTE","parameters":["foo"],"reason":"Bad Request"}`)
		case "/api/public/v1.0/ratelimited":
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(429)
			io.WriteString(w, `{"detail":"Too many requests.","error":429,"errorCode":"RATE_LIMITED","reason":"Too Many Requests"}`)
		default:
			w.WriteHeader(502)
			io.WriteString(w, "<html><head><title>502 Bad Gateway</title></head><body>nginx, with a long page</body></html>")
		}
	}))
	defer srv.Close()
	none := 0
	c, _ := New(Options{BaseURL: srv.URL, Retries: &none})
	for path, want := range map[string]string{
		"/json":        "400 INVALID_ATTRIBUTE: Invalid attribute foo specified.",
		"/ratelimited": "429 RATE_LIMITED: Too many requests. (retry after 7s)",
		"/proxy":       `502 BAD_GATEWAY: an HTML page titled "502 Bad Gateway"`,
	} {
		_, err := c.Get(context.Background(), path, nil)
		var apiErr *APIError
		if !errors.As(err, &apiErr) || err.Error() != want {
			t.Errorf("%s: err = %v, want %q", path, err, want)
		}
	}
}

func TestPagesFollowsNextUntilEverythingArrived(t *testing.T) {
	var pages []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := r.URL.Query().Get("pageNum")
		pages = append(pages, n)
		switch n {
		case "1":
			io.WriteString(w, `{"results":[{"i":1},{"i":2}],"totalCount":5,"links":[{"rel":"next","href":"x2"}]}`)
		case "2":
			io.WriteString(w, `{"results":[{"i":3},{"i":4}],"totalCount":5,"links":[{"rel":"next","href":"x3"}]}`)
		default:
			io.WriteString(w, `{"results":[{"i":5}],"totalCount":5,"links":[]}`)
		}
	}))
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL})
	var items []string
	for item, err := range c.Items(context.Background(), "/x", ListOptions{PageNum: 1, ItemsPerPage: 2, All: true, Parallel: 1}) {
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, string(item))
	}
	if strings.Join(pages, ",") != "1,2,3" || len(items) != 5 || items[4] != `{"i":5}` {
		t.Errorf("pages %v, items %v", pages, items)
	}
	// Without All, one page only; stopping early fetches no more.
	pages = nil
	for range c.Items(context.Background(), "/x", ListOptions{PageNum: 1, ItemsPerPage: 2, All: true}) {
		break
	}
	if len(pages) != 1 {
		t.Errorf("breaking out after one item fetched pages %v", pages)
	}
}

func TestPagesStopsOnEmptyPageEvenIfTotalSaysMore(t *testing.T) {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		if calls == 1 {
			io.WriteString(w, `{"results":[{"i":1}],"totalCount":10}`)
			return
		}
		io.WriteString(w, `{"results":[],"totalCount":10}`)
	}))
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL})
	n := 0
	for _, err := range c.Items(context.Background(), "/x", ListOptions{All: true}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 1 || calls != 2 {
		t.Errorf("items %d, calls %d", n, calls)
	}
}

// digestServer checks RFC 2617 digest credentials the way the API does and
// records the nonce counts it saw, issuing stale=true when told to.
type digestServer struct {
	mu         sync.Mutex
	user, key  string
	nonce      string
	staleOnce  bool
	challenges int
	seen       map[string]bool
	ncs        []int
	auth       []string
	// answer, when set, writes the answer to an authenticated request.
	answer http.HandlerFunc
}

func (d *digestServer) challenge(w http.ResponseWriter, stale bool) {
	d.challenges++
	d.nonce = fmt.Sprintf("nonce%d", d.challenges)
	w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Digest realm="MMS Public API", domain="", nonce="%s", algorithm=MD5, qop="auth", stale=%v`, d.nonce, stale))
	w.WriteHeader(401)
	io.WriteString(w, `{"error":401,"reason":"Unauthorized","detail":"You are not authorized for this resource."}`)
}

func (d *digestServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.auth = append(d.auth, r.Header.Get("Authorization"))
	cred, err := digest.ParseCredentials(r.Header.Get("Authorization"))
	if err != nil || cred.Nonce != d.nonce {
		d.challenge(w, err == nil && cred.Username == d.user)
		return
	}
	h := func(s string) string { x := md5.Sum([]byte(s)); return hex.EncodeToString(x[:]) }
	ha1 := h(d.user + ":MMS Public API:" + d.key)
	want := h(fmt.Sprintf("%s:%s:%08x:%s:auth:%s", ha1, cred.Nonce, cred.Nc, cred.Cnonce, h(r.Method+":"+cred.URI)))
	key := fmt.Sprintf("%s/%d", cred.Nonce, cred.Nc)
	if cred.Username != d.user || cred.Response != want || d.seen[key] {
		d.challenge(w, false)
		return
	}
	if d.staleOnce {
		d.staleOnce = false
		d.challenge(w, true)
		return
	}
	d.seen[key] = true
	d.ncs = append(d.ncs, cred.Nc)
	if d.answer != nil {
		d.answer(w, r)
		return
	}
	io.WriteString(w, `{"ok":true}`)
}

func TestDigestReusesOneChallengeWithIncreasingNonceCount(t *testing.T) {
	d := &digestServer{user: "pubkey", key: "secret-private-key", seen: map[string]bool{}}
	srv := httptest.NewServer(d)
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL, PublicKey: "pubkey", PrivateKey: "secret-private-key"})
	for i := 0; i < 3; i++ {
		if _, err := c.Get(context.Background(), "/groups/x/alerts", nil); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if d.challenges != 1 || fmt.Sprint(d.ncs) != "[1 2 3]" {
		t.Errorf("challenges %d, nonce counts %v", d.challenges, d.ncs)
	}
	// A write's body survives the challenge round trip.
	if _, err := c.Send(context.Background(), http.MethodPatch, "/x", map[string]bool{"enabled": true}); err != nil {
		t.Fatal(err)
	}
}

func TestDigestRepeatsOnceOnStaleNonce(t *testing.T) {
	d := &digestServer{user: "pubkey", key: "k", seen: map[string]bool{}}
	srv := httptest.NewServer(d)
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL, PublicKey: "pubkey", PrivateKey: "k"})
	if _, err := c.Get(context.Background(), "/a", nil); err != nil {
		t.Fatal(err)
	}
	d.mu.Lock()
	d.staleOnce = true
	d.mu.Unlock()
	if _, err := c.Get(context.Background(), "/a", nil); err != nil {
		t.Fatalf("request after stale nonce failed: %v", err)
	}
	if d.challenges != 2 {
		t.Errorf("challenges = %d, want 2 (first contact, then stale)", d.challenges)
	}
}

func TestWrongKeyIsAuthError(t *testing.T) {
	d := &digestServer{user: "pubkey", key: "right", seen: map[string]bool{}}
	srv := httptest.NewServer(d)
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL, PublicKey: "pubkey", PrivateKey: "wrong"})
	_, err := c.Get(context.Background(), "/a", nil)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 401 {
		t.Fatalf("err = %v", err)
	}
}

func TestDebugTraceRedactsCredentialsAndBodies(t *testing.T) {
	d := &digestServer{user: "pubkey", key: "secret-private-key", seen: map[string]bool{}}
	srv := httptest.NewServer(d)
	defer srv.Close()
	var trace bytes.Buffer
	c, _ := New(Options{BaseURL: srv.URL, PublicKey: "pubkey", PrivateKey: "secret-private-key", Debug: &trace})
	if _, err := c.Send(context.Background(), http.MethodPost, "/stores", map[string]string{"cloudSecretKey": "s3-secret"}); err != nil {
		t.Fatal(err)
	}
	out := trace.String()
	if !strings.Contains(out, "> POST "+srv.URL+"/api/public/v1.0/stores") || !strings.Contains(out, "< HTTP/1.1 401") || !strings.Contains(out, "< HTTP/1.1 200") {
		t.Errorf("trace lacks the exchange:\n%s", out)
	}
	if !strings.Contains(out, `Authorization: Digest username="pubkey", [REDACTED]`) {
		t.Errorf("trace lacks redacted auth:\n%s", out)
	}
	sent := d.auth[len(d.auth)-1]
	response := sent[strings.Index(sent, "response="):]
	for _, secret := range []string{"secret-private-key", "s3-secret", response[10:30]} {
		if strings.Contains(out, secret) {
			t.Errorf("trace shows %q:\n%s", secret, out)
		}
	}
}

func TestUserAgentAndEnvelopeQuery(t *testing.T) {
	var ua, query string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua, query = r.UserAgent(), r.URL.RawQuery
		io.WriteString(w, `{"status":200,"content":{"id":"x"}}`)
	}))
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL, Envelope: true, Pretty: true})
	body, err := c.Get(context.Background(), "/a", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ua, "omctl/") || !strings.Contains(ua, "; ") {
		t.Errorf("User-Agent = %q", ua)
	}
	if query != "envelope=true&pretty=true" {
		t.Errorf("query = %q", query)
	}
	if string(c.Content(body)) != `{"id":"x"}` {
		t.Errorf("content = %s", c.Content(body))
	}
}

func TestCACertMustHoldAPEM(t *testing.T) {
	path := t.TempDir() + "/ca.pem"
	if err := writeFile(path, "not a certificate"); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{BaseURL: "https://x", CACertFile: path}); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
		t.Errorf("err = %v", err)
	}
}

func TestUnauthorizedWithoutChallengeKeepsItsErrorBody(t *testing.T) {
	d := &digestServer{user: "pubkey", key: "k", seen: map[string]bool{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			d.ServeHTTP(w, r)
			return
		}
		w.WriteHeader(401)
		io.WriteString(w, `{"detail":"Current user is not authorized to perform this action.","error":401,"errorCode":"USER_UNAUTHORIZED","reason":"Unauthorized"}`)
	}))
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL, PublicKey: "pubkey", PrivateKey: "k"})
	_, err := c.Get(context.Background(), "/globalAlerts", nil)
	if err == nil || err.Error() != "401 USER_UNAUTHORIZED: Current user is not authorized to perform this action." {
		t.Fatalf("err = %v", err)
	}
}
