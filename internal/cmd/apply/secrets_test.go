package apply

import (
	"testing"
)

func TestResolveSecrets(t *testing.T) {
	for _, tt := range []struct {
		name          string
		key, doc, cur string
		send, show    string
		unknown       bool
	}{
		{"plain field", "uri", "a", "b", "a", "a", false},
		{"same secret", "cloudSecretKey", "s", "s", "s", "s", false},
		{"new store key", "cloudSecretKey", "new", "old", "new", "new", false},
		{"exported store key keeps the server's", "cloudSecretKey", "********", "old", "old", "old", false},
		{"webhook secret is never a change", "webhookSecret", "other", "******", "other", "******", false},
		{"redacted secret sent back is unknown", "webhookSecret", "******", "******", "******", "******", true},
		{"url with the shown host could be it", "webhookUrl", "https://h.example.com/x", "https://h.example.com/****", "https://h.example.com/x", "https://h.example.com/****", false},
		{"url of another host is a change", "webhookUrl", "https://other.example.com/x", "https://h.example.com/****", "https://other.example.com/x", "https://other.example.com/x", false},
		{"key with the shown end could be it", "serviceKey", "abcd1234", "****1234", "abcd1234", "****1234", false},
		{"key with another end is a change", "serviceKey", "abcd9999", "****1234", "abcd9999", "abcd9999", false},
		{"redacted and new", "serviceKey", "****1234", "", "****1234", "****1234", true},
	} {
		var cur any
		if tt.cur != "" {
			cur = tt.cur
		}
		r := resolve(tt.key, tt.key, tt.doc, cur)
		if r.send != tt.send || r.show != tt.show || (len(r.unknown) > 0) != tt.unknown {
			t.Errorf("%s: send %v show %v unknown %v, want %v %v %v", tt.name, r.send, r.show, r.unknown, tt.send, tt.show, tt.unknown)
		}
	}
}
