// Package auth is omctl server's HTTP digest authentication: challenges,
// the nonces it issues with their replay windows, and the limit on failed
// answers by name.
package auth

import (
	"crypto/md5"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Realm is the realm of the challenge, as the real service names it.
const Realm = "MMS Public API"

// Digest is HTTP digest authentication (docs/api.md, Authentication):
// the nonces it issued and the answers failed too often by name.
type Digest struct {
	nonces   *nonces
	failures *authFailures
}

// Options are what a Digest is made with.
type Options struct {
	// NonceTTL is how long a nonce is fresh, measured on Now (the
	// server's clock: a virtual clock ages nonces as it moves).
	NonceTTL time.Duration
	Now      func() time.Time
	// FailureLimit is how many failed answers a name may give in a
	// minute of FailureNow (real time); 0 for no limit.
	FailureLimit int
	FailureNow   func() time.Time
}

// New makes a Digest.
func New(o Options) *Digest {
	d := &Digest{nonces: newNonces(o.NonceTTL, o.Now), failures: newAuthFailures(o.FailureLimit)}
	if d.failures != nil && o.FailureNow != nil {
		d.failures.now = o.FailureNow
	}
	return d
}

// Nonce issues a fresh nonce, as a challenge does.
func (d *Digest) Nonce() string { return d.nonces.issue() }

// challenge writes the 401 of docs/api.md (Authentication), exactly as real clients parse it.
func (d *Digest) challenge(w http.ResponseWriter, stale bool) {
	w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Digest realm="%s", domain="", nonce="%s", algorithm=MD5, qop="auth", stale=%t`,
		Realm, d.nonces.issue(), stale))
	w.Header().Set("Content-Type", "application/json;charset=ISO-8859-1")
	w.WriteHeader(http.StatusUnauthorized)
	w.Write([]byte(`{"error":401,"reason":"Unauthorized","detail":"You are not authorized for this resource."}` + "\n"))
}

// Authenticate checks the digest credentials of r; secretOf gives the
// secret of a user name, false for a name nobody has. It answers the
// challenge (or the refusal of a name guessed at too often) itself and
// returns false when they are missing or wrong.
func (d *Digest) Authenticate(w http.ResponseWriter, r *http.Request, secretOf func(name string) (string, bool)) bool {
	cred, ok := parseDigest(r.Header.Get("Authorization"))
	if !ok || cred.Nonce == "" || cred.Response == "" {
		d.challenge(w, false)
		return false
	}
	if alg := strings.ToUpper(cred.Algorithm); alg != "" && alg != "MD5" {
		d.challenge(w, false)
		return false
	}
	secret, known := secretOf(cred.Username)
	if !known || cred.Realm != Realm || !uriMatches(cred.URI, r) {
		d.challenge(w, false)
		return false
	}
	// A name guessed at too often is refused whatever the answer, right
	// or wrong, until its minute has passed (--auth-failure-limit).
	if blocked, after := d.failures.blocked(cred.Username); blocked {
		d.failures.refuseGuessing(w, cred.Username, after)
		return false
	}
	if !validResponse(cred, r.Method, secret) {
		d.failures.failed(cred.Username)
		d.challenge(w, false)
		return false
	}
	switch d.nonces.use(cred.Nonce, cred.Nc) {
	case nonceFresh:
		return true
	case nonceStale:
		d.challenge(w, true)
	default:
		d.challenge(w, false)
	}
	return false
}

// uriMatches accepts the request URI the client signed: the path with or
// without the query (docs/api.md, Authentication).
func uriMatches(uri string, r *http.Request) bool {
	return uri == r.URL.RequestURI() || uri == r.URL.EscapedPath() || uri == r.URL.Path
}

func validResponse(c *digestCredentials, method, secret string) bool {
	// The challenge offers qop="auth" only; answers without it are refused,
	// since only qop carries the nonce count that stops replays.
	if c.QOP != "auth" {
		return false
	}
	var ha1, ha2, want [32]byte
	md5Hex(ha1[:], c.Username, Realm, secret)
	md5Hex(ha2[:], method, c.URI)
	var nc [8]byte
	hex.Encode(nc[:], []byte{byte(c.Nc >> 24), byte(c.Nc >> 16), byte(c.Nc >> 8), byte(c.Nc)})
	md5Hex(want[:], string(ha1[:]), c.Nonce, string(nc[:]), c.Cnonce, c.QOP, string(ha2[:]))
	got := []byte(c.Response)
	if len(got) != len(want) {
		return false
	}
	for i, b := range got {
		if 'A' <= b && b <= 'F' {
			got[i] = b + 'a' - 'A'
		}
	}
	return subtle.ConstantTimeCompare(want[:], got) == 1
}

// md5Hex writes into dst the hex MD5 of parts joined by colons, as RFC
// 2617 forms HA1, HA2 and the response. Every request computes three, so
// the input is joined in a buffer on the stack.
func md5Hex(dst []byte, parts ...string) {
	var buf [512]byte
	in := buf[:0]
	for i, p := range parts {
		if i > 0 {
			in = append(in, ':')
		}
		in = append(in, p...)
	}
	sum := md5.Sum(in)
	hex.Encode(dst, sum[:])
}
