package handlers

import (
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/jsonlex"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/httpx"
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

// alertFilter reads status and the date filters of a list request.
func (c *Ctx) alertFilter(withDates bool) (alert.Filter, error) {
	var f alert.Filter
	q := c.R.URL.Query()
	if st := q.Get("status"); st != "" {
		if !slices.Contains(api.AlertStatusFilters, st) {
			return f, httpx.InvalidQuery("status", st, "status must be one of TRACKING, OPEN, CLOSED")
		}
		f.Status = st
	}
	if _, err := c.BoolQuery("backupJobsEnabledOnly", true); err != nil {
		return f, err
	}
	if !withDates {
		return f, nil
	}
	for _, b := range []struct {
		name string
		dst  *time.Time
	}{{"createdOnOrAfter", &f.After}, {"createdOnOrBefore", &f.Before}} {
		v := q.Get(b.name)
		if v == "" {
			continue
		}
		t, err := rules.ParseTimestamp(v)
		if err != nil {
			return f, httpx.InvalidQuery(b.name, v, "want an ISO 8601 date or date-time")
		}
		if len(v) == len("2006-01-02") && b.name == "createdOnOrBefore" {
			// A date alone means the whole of that day.
			t = t.Add(24*time.Hour - time.Nanosecond)
		}
		*b.dst = t
	}
	return f, nil
}

func (c *Ctx) listAlertSet(set *alert.Set, f alert.Filter) error {
	p, err := c.Page()
	if err != nil {
		return err
	}
	var recs []*alert.Rec
	total := 0
	if set != nil {
		recs, total = set.Page(f, p.Offset(), p.Size)
	}
	base, now := c.BaseURL(), c.s.now()
	// The alerts of a set share their project, so their links' prefix.
	var project string
	var prefix []byte
	prefixOf := func(r *alert.Rec) []byte {
		if prefix == nil || r.Project != project {
			project, prefix = r.Project, appendAlertLinkPrefix(nil, base, r.Project)
		}
		return prefix
	}
	size := 0
	for _, r := range recs {
		size += len(r.Cur.Raw) + len(prefixOf(r)) + len(r.Cur.ID) + 40
	}
	c.listAppend(len(recs), size, total, p, func(b []byte, i int) []byte {
		return appendAlert(b, recs[i], prefixOf(recs[i]), now)
	})
	return nil
}

func (s *Handlers) listAlerts(c *Ctx) error {
	project, err := c.project(readMonitoring)
	if err != nil {
		return err
	}
	f, err := c.alertFilter(false)
	if err != nil {
		return err
	}
	return c.listAlertSet(c.St.ProjectAlerts(project), f)
}

func (s *Handlers) findAlert(c *Ctx, need access) (*alert.Rec, error) {
	project, err := c.project(need)
	if err != nil {
		return nil, err
	}
	id := c.R.PathValue("alert_id")
	if !api.IsObjectID(id) {
		return nil, httpx.NotFound("INVALID_ALERT_ID", fmt.Sprintf("An invalid alert ID %s was specified.", id), id)
	}
	r := c.St.Alert(id)
	if r == nil || r.Project != project {
		return nil, httpx.NotFound("ALERT_NOT_FOUND", fmt.Sprintf("No alert with ID %s exists in group %s.", id, project), id, project)
	}
	return r, nil
}

func (s *Handlers) getAlert(c *Ctx) error {
	r, err := s.findAlert(c, readMonitoring)
	if err != nil {
		return err
	}
	c.okRaw(c.RenderAlert(r))
	return nil
}

// ackAlert acknowledges (acknowledgedUntil given) or unacknowledges
// (acknowledgedUntil left out or null) an alert.
func (s *Handlers) ackAlert(c *Ctx) error {
	r, err := s.findAlert(c, writeMonitoring)
	if err != nil {
		return err
	}
	body, err := c.ReadObject()
	if err != nil {
		return err
	}
	if err := c.St.Acknowledge(r, body, c.Caller.Name, s.now()); err != nil {
		return err
	}
	c.okRaw(c.RenderAlert(r))
	return nil
}

func (s *Handlers) listGlobalAlerts(c *Ctx) error {
	if err := c.global(readGlobalAlerts); err != nil {
		return err
	}
	f, err := c.alertFilter(true)
	if err != nil {
		return err
	}
	return c.listAlertSet(c.St.GlobalAlertSet(), f)
}
