package jsonlex_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/jsonlex"
	"github.com/omctl/omctl/internal/rules"
)

func TestAppendStringMatchesEncodeJSON(t *testing.T) {
	for _, s := range []string{"http://h/a?b=c&d=<e>", "quote\" back\\slash", "tab\tnl\n\x01", "é\u2028ü", "bad\xffutf8", "bs\bff\f\r"} {
		if got, want := string(jsonlex.AppendString(nil, s)), string(rules.EncodeJSON(s)); got != want {
			t.Errorf("%q: got %s want %s", s, got, want)
		}
	}
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"http://h/api/public/v1.0/groups/5f/alerts/6a", `a"b\c`, "tab\there", "é", "\u2028", string([]byte{0xff})} {
		want, _ := json.Marshal(s)
		if got := jsonlex.AppendString(nil, s); string(got) != strings.ReplaceAll(strings.ReplaceAll(string(want), `\u003c`, "<"), `\u003e`, ">") {
			t.Errorf("%q: %s, want %s", s, got, want)
		}
	}
}
