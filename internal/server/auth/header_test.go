package auth

import (
	"crypto/md5"
	"encoding/hex"
	"strings"
	"testing"
)

func TestParseDigest(t *testing.T) {
	h := `Digest username="owner", realm="MMS Public API", nonce="abc", uri="/api/public/v1.0/x?a=1", qop=auth, nc=0000000a, cnonce="c\"1", response="0f", algorithm="MD5"`
	c, ok := parseDigest(h)
	if !ok {
		t.Fatal("not parsed")
	}
	want := digestCredentials{Username: "owner", Realm: "MMS Public API", Nonce: "abc", URI: "/api/public/v1.0/x?a=1", Response: "0f",
		Algorithm: "MD5", Cnonce: `c"1`, QOP: "auth", Nc: 10}
	if *c != want {
		t.Errorf("got %+v\nwant %+v", *c, want)
	}
	for _, bad := range []string{"", "Basic abc", `Digest username="x`, `Digest username`, `Digest nc=zz`, `Digest a="b" c="d"`} {
		if _, ok := parseDigest(bad); ok {
			t.Errorf("%q parsed", bad)
		}
	}
	if c, ok := parseDigest(`digest  username=owner ,realm="r"`); !ok || c.Username != "owner" || c.Realm != "r" {
		t.Errorf("lenient spacing: %+v %v", c, ok)
	}
}

// TestValidResponse computes RFC 2617's response (qop=auth) the long way
// and checks the server's faster one agrees, whatever the case of the hex.
func TestValidResponse(t *testing.T) {
	h := func(s string) string { sum := md5.Sum([]byte(s)); return hex.EncodeToString(sum[:]) }
	c := &digestCredentials{Username: "pub", Realm: Realm, Nonce: "n0nce", URI: "/api/public/v1.0/groups", QOP: "auth", Nc: 0x2a, Cnonce: "c"}
	long := strings.Repeat("u", 700) // beyond the stack buffer
	for _, tc := range []struct {
		user, uri string
	}{{"pub", c.URI}, {long, "/" + long}} {
		cred := *c
		cred.Username, cred.URI = tc.user, tc.uri
		want := h(h(tc.user+":"+Realm+":secret") + ":n0nce:0000002a:c:auth:" + h("GET:"+tc.uri))
		cred.Response = want
		if !validResponse(&cred, "GET", "secret") {
			t.Errorf("the right response was refused (user of %d bytes)", len(tc.user))
		}
		cred.Response = strings.ToUpper(want)
		if !validResponse(&cred, "GET", "secret") {
			t.Error("the right response in upper case was refused")
		}
		if validResponse(&cred, "GET", "other") || validResponse(&cred, "PUT", "secret") {
			t.Error("a wrong secret or method was taken")
		}
	}
	cred := *c
	cred.QOP = ""
	cred.Response = h(h("pub:"+Realm+":secret") + ":n0nce:" + h("GET:"+c.URI))
	if validResponse(&cred, "GET", "secret") {
		t.Error("an answer without qop was taken")
	}
}
