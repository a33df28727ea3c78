package server

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/icholy/digest"
	"github.com/omctl/omctl/internal/server/auth"
	"github.com/omctl/omctl/internal/store/fixture"
)

var challengeShape = regexp.MustCompile(`^Digest realm="MMS Public API", domain="", nonce="[A-Za-z0-9_-]+", algorithm=MD5, qop="auth", stale=(true|false)$`)

func TestChallengeIsExactlyAsCompatSays(t *testing.T) {
	e := newEnv(t)
	r := e.do("", "GET", "/groups/"+projA+"/alerts", nil)
	if r.status != 401 {
		t.Fatalf("status %d", r.status)
	}
	if got := r.header.Values("WWW-Authenticate"); len(got) != 1 || !challengeShape.MatchString(got[0]) || !strings.HasSuffix(got[0], "stale=false") {
		t.Errorf("challenge = %q", got)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json;charset=ISO-8859-1" {
		t.Errorf("Content-Type = %q", ct)
	}
	if r.body["error"] != 401.0 || r.str("reason") != "Unauthorized" || r.str("detail") != "You are not authorized for this resource." {
		t.Errorf("body = %s", r.raw)
	}
}

func TestAuthenticationComesFirst(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/admin/backup/oplog/s3Configs", ""},
		{"PATCH", "/groups/" + projA + "/alerts/" + alertHost, "{not json"},
		{"GET", "/no/such/path", ""},
		{"DELETE", "/globalAlerts", ""},
	} {
		if r := e.do("", c.method, c.path, c.body); r.status != 401 {
			t.Errorf("%s %s without credentials: %d", c.method, c.path, r.status)
		}
	}
}

func TestBothCredentialKindsAndSuccessHeaders(t *testing.T) {
	e := newEnv(t)
	for _, user := range []string{"owner", "admin@example.com"} {
		r := e.do(user, "GET", "/globalAlerts", nil)
		e.expect(r, 200, "")
		if r.header.Get("Strict-Transport-Security") != "max-age=300" || r.header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s: headers %v", user, r.header)
		}
		for _, h := range []string{"X-Vendor-Service-Version", "X-MongoDB-Service-Version"} {
			if v := r.header.Get(h); !regexp.MustCompile(`^gitHash=\S+; versionString=\S+$`).MatchString(v) {
				t.Errorf("%s = %q", h, v)
			}
		}
	}
}

func TestWrongSecretIsRefused(t *testing.T) {
	e := newEnv(t)
	c := &http.Client{Transport: &digest.Transport{Username: "owner", Password: "wrong"}}
	res, err := c.Get(e.base + "/globalAlerts")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 401 {
		t.Errorf("status %d", res.StatusCode)
	}
}

// signed builds a digest Authorization header by hand.
func signed(user, secret, method, uri, nonce string, nc int) string {
	h := func(s string) string { x := md5.Sum([]byte(s)); return hex.EncodeToString(x[:]) }
	ha1 := h(user + ":" + auth.Realm + ":" + secret)
	resp := h(fmt.Sprintf("%s:%s:%08x:%s:auth:%s", ha1, nonce, nc, "cnonce1", h(method+":"+uri)))
	return fmt.Sprintf(`Digest username="%s", realm="%s", nonce="%s", uri="%s", qop=auth, nc=%08x, cnonce="cnonce1", response="%s", algorithm="MD5"`,
		user, auth.Realm, nonce, uri, nc, resp)
}

func nonceOf(t *testing.T, e *env) string {
	res, err := http.Get(e.base + "/globalAlerts")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	ch, err := digest.ParseChallenge(res.Header.Get("WWW-Authenticate"))
	if err != nil {
		t.Fatal(err)
	}
	return ch.Nonce
}

func get(t *testing.T, url, auth string) *http.Response {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", auth)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res
}

func TestNonceCountReplayIsRefused(t *testing.T) {
	e := newEnv(t)
	nonce := nonceOf(t, e)
	uri := apiBase + "/globalAlerts"
	if res := get(t, e.ts.URL+uri, signed("owner", "owner-secret", "GET", uri, nonce, 1)); res.StatusCode != 200 {
		t.Fatalf("first use: %d", res.StatusCode)
	}
	if res := get(t, e.ts.URL+uri, signed("owner", "owner-secret", "GET", uri, nonce, 1)); res.StatusCode != 401 {
		t.Errorf("replayed nc accepted: %d", res.StatusCode)
	}
	// Counts may arrive out of order, each once.
	for _, nc := range []int{3, 2} {
		if res := get(t, e.ts.URL+uri, signed("owner", "owner-secret", "GET", uri, nonce, nc)); res.StatusCode != 200 {
			t.Errorf("nc %d: %d", nc, res.StatusCode)
		}
	}
	// The URI may be the path alone, without the query.
	q := uri + "?pageNum=1"
	if res := get(t, e.ts.URL+q, signed("owner", "owner-secret", "GET", uri, nonce, 4)); res.StatusCode != 200 {
		t.Errorf("uri without query: %d", res.StatusCode)
	}
	if res := get(t, e.ts.URL+q, signed("owner", "owner-secret", "GET", q, nonce, 5)); res.StatusCode != 200 {
		t.Errorf("uri with query: %d", res.StatusCode)
	}
}

func TestExpiredNonceIsStaleAndClientsRecover(t *testing.T) {
	f, _ := fixture.ParseFixtures("f", []byte(fixtureJSON))
	s, _ := New(Options{Fixtures: f, NonceTTL: 50 * time.Millisecond})
	e := newEnv(t)
	e.ts.Config.Handler = s
	nonce := nonceOf(t, e)
	time.Sleep(80 * time.Millisecond)
	uri := apiBase + "/globalAlerts"
	res := get(t, e.ts.URL+uri, signed("owner", "owner-secret", "GET", uri, nonce, 1))
	if res.StatusCode != 401 || !strings.HasSuffix(res.Header.Get("WWW-Authenticate"), "stale=true") {
		t.Errorf("expired nonce: %d %q", res.StatusCode, res.Header.Get("WWW-Authenticate"))
	}
	// Wrong credentials with an expired nonce are not stale: they are wrong.
	res = get(t, e.ts.URL+uri, signed("owner", "nope", "GET", uri, nonce, 2))
	if !strings.HasSuffix(res.Header.Get("WWW-Authenticate"), "stale=false") {
		t.Errorf("wrong secret answered %q", res.Header.Get("WWW-Authenticate"))
	}
	// A digest client that cached the old challenge retries once and succeeds.
	c := e.client("owner")
	e.do("owner", "GET", "/globalAlerts", nil)
	time.Sleep(80 * time.Millisecond)
	res2, err := c.Get(e.base + "/globalAlerts")
	if err != nil || res2.StatusCode != 200 {
		t.Errorf("client after stale: %v %v", err, res2.StatusCode)
	}
}

func TestRolesAndMembership(t *testing.T) {
	e := newEnv(t)
	ack := map[string]any{"acknowledgedUntil": "2026-02-01T00:00:00Z"}
	e.expect(e.do("reader", "GET", "/groups/"+projA+"/alerts", nil), 200, "")
	e.expect(e.do("reader", "PATCH", "/groups/"+projA+"/alerts/"+alertHost, ack), 401, "USER_UNAUTHORIZED")
	e.expect(e.do("monitor", "PATCH", "/groups/"+projA+"/alerts/"+alertHost, ack), 200, "")
	e.expect(e.do("monitor", "GET", "/groups/"+projB+"/alerts", nil), 401, "NOT_IN_GROUP")
	e.expect(e.do("reader", "GET", "/globalAlerts", nil), 401, "USER_UNAUTHORIZED")
	e.expect(e.do("admin@example.com", "GET", "/groups/"+projB+"/alerts", nil), 200, "")
	e.expect(e.do("admin@example.com", "PUT", "/globalAlertConfigs/"+gcfg, map[string]any{"enabled": false}), 401, "USER_UNAUTHORIZED")
	e.expect(e.do("monitor", "PATCH", "/groups/"+projA+"/clusters/"+clusterA+"/snapshots/"+snapOK, map[string]any{"doNotDelete": true}), 401, "USER_UNAUTHORIZED")
	e.expect(e.do("monitor", "GET", "/admin/backup/oplog/s3Configs/oplog1", nil), 401, "USER_UNAUTHORIZED")
	e.expect(e.do("admin@example.com", "GET", "/admin/backup/oplog/s3Configs/oplog1", nil), 200, "")
	e.expect(e.do("admin@example.com", "POST", "/admin/backup/oplog/s3Configs", map[string]any{}), 401, "USER_UNAUTHORIZED")
	e.expect(e.do("monitor", "POST", "/groups/"+projA+"/apiKeys", map[string]any{"desc": "x", "roles": []string{"GROUP_READ_ONLY"}}), 401, "USER_UNAUTHORIZED")
	e.expect(e.do("orgowner", "POST", "/orgs/"+orgA+"/apiKeys/"+keyListed+"/accessList", []any{map[string]any{"ipAddress": "10.1.1.1"}}), 200, "")
	e.expect(e.do("monitor", "POST", "/orgs/"+orgA+"/apiKeys/"+keyListed+"/accessList", []any{map[string]any{"ipAddress": "10.1.1.1"}}), 401, "USER_UNAUTHORIZED")
}

func TestAccessListIsEnforcedAndCounted(t *testing.T) {
	e := newEnv(t)
	e.expect(e.do("listed", "GET", "/groups/"+projA+"/alerts", nil), 403, "IP_ADDRESS_NOT_ON_ACCESS_LIST")
	r := e.do("owner", "POST", "/orgs/"+orgA+"/apiKeys/"+keyListed+"/accessList", []any{map[string]any{"ipAddress": "127.0.0.1"}})
	e.expect(r, 200, "")
	for i := 0; i < 2; i++ {
		e.expect(e.do("listed", "GET", "/groups/"+projA+"/alerts", nil), 200, "")
	}
	r = e.do("owner", "GET", "/orgs/"+orgA+"/apiKeys/"+keyListed+"/accessList", nil)
	var entry map[string]any
	for _, it := range r.get("results").([]any) {
		if m := it.(map[string]any); m["ipAddress"] == "127.0.0.1" {
			entry = m
		}
	}
	if entry == nil || entry["count"] != 2.0 || entry["lastUsedAddress"] != "127.0.0.1" || entry["lastUsed"] != "2026-01-01T00:00:00Z" {
		t.Errorf("entry = %v", entry)
	}
}

func TestAdvancingTheVirtualClockAgesNonces(t *testing.T) {
	e := newEnv(t)
	nonce := nonceOf(t, e)
	uri := apiBase + "/globalAlerts"
	if res := get(t, e.ts.URL+uri, signed("owner", "owner-secret", "GET", uri, nonce, 1)); res.StatusCode != 200 {
		t.Fatalf("fresh nonce: %d", res.StatusCode)
	}
	e.s.Clock().Advance(6 * time.Minute)
	res := get(t, e.ts.URL+uri, signed("owner", "owner-secret", "GET", uri, nonce, 2))
	if res.StatusCode != 401 || !strings.HasSuffix(res.Header.Get("WWW-Authenticate"), "stale=true") {
		t.Errorf("after 6 virtual minutes: %d %q", res.StatusCode, res.Header.Get("WWW-Authenticate"))
	}
	// A digest client recovers by itself.
	e.expect(e.do("owner", "GET", "/globalAlerts", nil), 200, "")
}
