package handlers

import (
	"net/url"
	"time"

	"github.com/omctl/omctl/internal/jsonlex"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/alert"
)

// RenderAlert shows an alert as docs/api.md (Alert) says, with its self
// link.
func (c *Ctx) RenderAlert(r *alert.Rec) []byte {
	return AlertJSON(r, c.BaseURL(), c.s.now())
}

// AlertJSON is an alert as GET shows it under base at now.
func AlertJSON(r *alert.Rec, base string, now time.Time) []byte {
	var link [256]byte // the prefix is copied into the answer: it may stay on the stack
	prefix := appendAlertLinkPrefix(link[:0], base, r.Project)
	// Room for the answer's closing newline too: one allocation a GET.
	dst := make([]byte, 0, len(r.Cur.Raw)+len(prefix)+len(r.Cur.ID)+48)
	return appendAlert(dst, r, prefix, now)
}

// appendAlertLinkPrefix appends what the self links of a project's
// alerts (of the global alerts for "") share: all but the alert's id,
// escaped for JSON and opened with its quote, ready for appendAlert.
func appendAlertLinkPrefix(dst []byte, base, project string) []byte {
	dst = jsonlex.AppendString(dst, base)
	dst = dst[:len(dst)-1] // the link goes on
	if project == "" {
		return append(dst, "/globalAlerts/"...)
	}
	// What PathEscape writes is plain JSON: it escapes quotes, backslashes
	// and every byte that is not printable ASCII.
	dst = append(dst, "/groups/"...)
	dst = append(dst, url.PathEscape(project)...)
	return append(dst, "/alerts/"...)
}

// appendAlert appends the alert as GET shows it at now, its self link
// starting with linkPrefix (appendAlertLinkPrefix of its project). The
// stored JSON is already that but for the link and an acknowledgement that
// has run out, whose fields are left out. A page writes its alerts
// straight into its answer this way, allocating nothing per alert: garbage
// in proportion to the page made the collector run every thousand pages or
// so among a million alerts, each run a large share of a second of CPU
// (docs/performance.md).
func appendAlert(dst []byte, r *alert.Rec, linkPrefix []byte, now time.Time) []byte {
	raw := r.Cur.Raw
	if a := r.Cur.AcknowledgedUntil; !a.IsZero() && !a.After(now) {
		d := r.Cur.Doc()
		delete(d, "acknowledgedUntil")
		delete(d, "acknowledgementComment")
		delete(d, "acknowledgingUsername")
		raw = rules.EncodeJSON(d)
	}
	dst = append(openSelfLink(dst, raw), linkPrefix...)
	dst = append(dst, url.PathEscape(r.Cur.ID)...)
	return append(dst, `"`+closeSelfLink...)
}

// withLinks returns a shallow copy of d with a self link (and extra links).
func withLinks(d doc, self string, extra ...map[string]any) doc {
	out := make(doc, len(d)+1)
	for k, v := range d {
		out[k] = v
	}
	links := []any{link(self, "self")}
	for _, l := range extra {
		links = append(links, l)
	}
	out["links"] = links
	return out
}

// appendWithSelfLink appends an encoded object with a self link added.
func appendWithSelfLink(dst, raw []byte, self string) []byte {
	dst = jsonlex.AppendString(openSelfLink(dst, raw), self)
	return append(dst, closeSelfLink...)
}

// openSelfLink appends an encoded object but its closing brace, then its
// self link up to the href's value: the caller appends the href as a JSON
// string, then closeSelfLink.
func openSelfLink(dst, raw []byte) []byte {
	dst = append(dst, raw[:len(raw)-1]...)
	if len(raw) > 2 {
		dst = append(dst, ',')
	}
	return append(dst, `"links":[{"href":`...)
}

// closeSelfLink ends what openSelfLink began, after the href.
const closeSelfLink = `,"rel":"self"}]}`
