package server

import (
	"testing"

	"github.com/omctl/omctl/internal/rules"
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

func TestAppendJSONStringMatchesEncodeJSON(t *testing.T) {
	for _, s := range []string{"http://h/a?b=c&d=<e>", "quote\" back\\slash", "tab\tnl\n\x01", "é\u2028ü", "bad\xffutf8", "bs\bff\f\r"} {
		if got, want := string(appendJSONString(nil, s)), string(rules.EncodeJSON(s)); got != want {
			t.Errorf("%q: got %s want %s", s, got, want)
		}
	}
}
