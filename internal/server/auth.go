package server

import (
	"crypto/md5"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"

	"github.com/omctl/omctl/internal/store/model"
)

// challenge writes the 401 of docs/api.md (Authentication), exactly as real clients parse it.
func (s *Server) challenge(w http.ResponseWriter, stale bool) {
	w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Digest realm="%s", domain="", nonce="%s", algorithm=MD5, qop="auth", stale=%t`,
		realm, s.nonces.issue(), stale))
	w.Header().Set("Content-Type", "application/json;charset=ISO-8859-1")
	w.WriteHeader(http.StatusUnauthorized)
	w.Write([]byte(`{"error":401,"reason":"Unauthorized","detail":"You are not authorized for this resource."}` + "\n"))
}

// authenticate checks the digest credentials of r. It answers the
// challenge itself and returns nil when they are missing or wrong.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) *model.Principal {
	header := r.Header.Get("Authorization")
	cred, ok := parseDigest(header)
	if !ok || cred.Nonce == "" || cred.Response == "" {
		s.challenge(w, false)
		return nil
	}
	if alg := strings.ToUpper(cred.Algorithm); alg != "" && alg != "MD5" {
		s.challenge(w, false)
		return nil
	}
	in, _ := s.store.SignIn(cred.Username)
	p, secret := in.Principal, in.Secret
	if p == nil || cred.Realm != realm || !s.uriMatches(cred.URI, r) {
		s.challenge(w, false)
		return nil
	}
	// A name guessed at too often is refused whatever the answer, right
	// or wrong, until its minute has passed (--auth-failure-limit).
	if blocked, after := s.authFailures.blocked(cred.Username); blocked {
		s.authFailures.refuseGuessing(w, cred.Username, after)
		return nil
	}
	if !validResponse(cred, r.Method, secret) {
		s.authFailures.failed(cred.Username)
		s.challenge(w, false)
		return nil
	}
	switch s.nonces.use(cred.Nonce, cred.Nc) {
	case nonceFresh:
		return p
	case nonceStale:
		s.challenge(w, true)
	default:
		s.challenge(w, false)
	}
	return nil
}

// uriMatches accepts the request URI the client signed: the path with or
// without the query (docs/api.md, Authentication).
func (s *Server) uriMatches(uri string, r *http.Request) bool {
	return uri == r.URL.RequestURI() || uri == r.URL.EscapedPath() || uri == r.URL.Path
}

func validResponse(c *digestCredentials, method, secret string) bool {
	// The challenge offers qop="auth" only; answers without it are refused,
	// since only qop carries the nonce count that stops replays.
	if c.QOP != "auth" {
		return false
	}
	var ha1, ha2, want [32]byte
	md5Hex(ha1[:], c.Username, realm, secret)
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
