package apply

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/omctl/omctl/internal/rules"
)

// secretFields hold credentials: the server's list (internal/rules). The
// server shows those of notifications redacted (docs/api.md,
// Notification): webhook URLs keep their scheme and host, keys their last
// characters, a webhook secret nothing. Store keys come back as stored but
// are never printed.
var secretFields = rules.SecretFields

// looksRedacted says whether a value is the redacted form of a secret.
func looksRedacted(s string) bool { return rules.LooksRedacted(s) }

// couldBe says whether shown, a redacted value, is what the server would
// show for real. When it is, apply cannot tell whether they differ.
func couldBe(shown, real string) bool {
	if strings.Trim(shown, "*") == "" {
		return true // the whole value hidden
	}
	if prefix, ok := strings.CutSuffix(shown, "/****"); ok {
		u, err := url.Parse(real)
		return err == nil && u.Scheme+"://"+u.Host == prefix
	}
	stars := len(shown) - len(strings.TrimLeft(shown, "*"))
	return len(real) == len(shown) && stars > 0 && real[stars:] == shown[stars:]
}

// resolved is a document's value made ready to send and to show.
type resolved struct {
	send any
	// show is what the comparison uses: a secret apply cannot compare
	// shows the server's value, so it never counts as a change.
	show any
	// unknown lists the paths of redacted values that the document does
	// not replace with real ones: they cannot be sent.
	unknown []string
}

// resolve walks a document value d beside the server's value c.
func resolve(key, path string, d, c any) resolved {
	switch dv := d.(type) {
	case map[string]any:
		cm, _ := c.(map[string]any)
		send, show := map[string]any{}, map[string]any{}
		var unknown []string
		for _, k := range sortedKeys(dv) {
			r := resolve(k, rules.JoinPath(path, k), dv[k], cm[k])
			send[k], show[k] = r.send, r.show
			unknown = append(unknown, r.unknown...)
		}
		return resolved{send, show, unknown}
	case []any:
		cl, _ := c.([]any)
		send, show := make([]any, len(dv)), make([]any, len(dv))
		var unknown []string
		for i, e := range dv {
			var ce any
			if i < len(cl) {
				ce = cl[i]
			}
			r := resolve(key, path+"["+strconv.Itoa(i)+"]", e, ce)
			send[i], show[i] = r.send, r.show
			unknown = append(unknown, r.unknown...)
		}
		return resolved{send, show, unknown}
	case string:
		if !secretFields[key] {
			return resolved{send: d, show: d}
		}
		cs, _ := c.(string)
		switch {
		case cs != "" && looksRedacted(cs) && (dv == cs || couldBe(cs, dv) || looksRedacted(dv)):
			// The server hides its value: unknown, never a change.
			if looksRedacted(dv) {
				return resolved{send: dv, show: cs, unknown: []string{path}}
			}
			return resolved{send: dv, show: cs}
		case cs != "" && looksRedacted(dv):
			// The server shows the real value and the document a
			// redacted one (an export): keep the server's.
			return resolved{send: cs, show: cs}
		case looksRedacted(dv):
			return resolved{send: dv, show: dv, unknown: []string{path}}
		}
	}
	return resolved{send: d, show: d}
}
