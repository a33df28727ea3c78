package handlers

import (
	"fmt"
	"slices"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/store/alert"
)

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
