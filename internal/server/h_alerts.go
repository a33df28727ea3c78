package server

import (
	"fmt"
	"time"

	"github.com/omctl/omctl/internal/api"
)

// renderAlert shows an alert as 2.1 says: conditional fields only for
// their event types, resolved only when CLOSED, acknowledgement fields
// only while acknowledged.
func (c *reqCtx) renderAlert(r *alertRec) doc {
	d := r.doc
	event, _ := d["eventTypeName"].(string)
	out := make(doc, len(d)+1)
	for k, v := range d {
		out[k] = v
	}
	for _, f := range conditionalAlertFields {
		if !alertFieldAllowed(f, event) {
			delete(out, f)
		}
	}
	if r.status != statusClosed {
		delete(out, "resolved")
	}
	if !acknowledged(d, c.s.clock.Now()) {
		delete(out, "acknowledgedUntil")
		delete(out, "acknowledgementComment")
		delete(out, "acknowledgingUsername")
	}
	if r.project == "" {
		return withLinks(out, c.resourceHref("globalAlerts", d["id"].(string)))
	}
	return withLinks(out, c.resourceHref("groups", r.project, "alerts", d["id"].(string)))
}

func acknowledged(d doc, now time.Time) bool {
	s, ok := d["acknowledgedUntil"].(string)
	if !ok {
		return false
	}
	t, err := parseTimestamp(s)
	return err == nil && t.After(now)
}

// alertFilter reads status and the date filters of a list request.
func (c *reqCtx) alertFilter(withDates bool) (alertFilter, *apiError) {
	var f alertFilter
	q := c.r.URL.Query()
	if st := q.Get("status"); st != "" {
		if !contains(api.AlertStatusFilters, st) {
			return f, errInvalidQuery("status", st, "status must be one of TRACKING, OPEN, CLOSED")
		}
		f.status = st
	}
	if _, err := c.boolQuery("backupJobsEnabledOnly", true); err != nil {
		return f, err
	}
	if !withDates {
		return f, nil
	}
	for _, b := range []struct {
		name string
		dst  *time.Time
	}{{"createdOnOrAfter", &f.after}, {"createdOnOrBefore", &f.before}} {
		v := q.Get(b.name)
		if v == "" {
			continue
		}
		t, err := parseTimestamp(v)
		if err != nil {
			return f, errInvalidQuery(b.name, v, "want an ISO 8601 date or date-time")
		}
		if len(v) == len("2006-01-02") && b.name == "createdOnOrBefore" {
			// A date alone means the whole of that day.
			t = t.Add(24*time.Hour - time.Nanosecond)
		}
		*b.dst = t
	}
	return f, nil
}

func (c *reqCtx) listAlertSet(set *alertSet, f alertFilter) *apiError {
	p, err := c.page()
	if err != nil {
		return err
	}
	c.s.st.promote(set, c.s.clock.Now())
	var recs []*alertRec
	total := 0
	if set != nil {
		recs, total = set.page(f, p.offset(), p.size)
	}
	items := make([]doc, len(recs))
	for i, r := range recs {
		items[i] = c.renderAlert(r)
	}
	c.list(items, total, p)
	return nil
}

func (s *Server) listAlerts(c *reqCtx) *apiError {
	project, err := c.project(readMonitoring)
	if err != nil {
		return err
	}
	f, err := c.alertFilter(false)
	if err != nil {
		return err
	}
	return c.listAlertSet(s.st.alerts[project], f)
}

func (s *Server) findAlert(c *reqCtx, need access) (*alertRec, *apiError) {
	project, err := c.project(need)
	if err != nil {
		return nil, err
	}
	id := c.r.PathValue("alert_id")
	if !api.IsObjectID(id) {
		return nil, errNotFound("INVALID_ALERT_ID", fmt.Sprintf("An invalid alert ID %s was specified.", id), id)
	}
	r := s.st.alertByID[id]
	if r == nil || r.project != project {
		return nil, errNotFound("ALERT_NOT_FOUND", fmt.Sprintf("No alert with ID %s exists in group %s.", id, project), id, project)
	}
	s.st.promote(s.st.alerts[project], s.clock.Now())
	return r, nil
}

func (s *Server) getAlert(c *reqCtx) *apiError {
	r, err := s.findAlert(c, readMonitoring)
	if err != nil {
		return err
	}
	c.ok(c.renderAlert(r))
	return nil
}

// patchAlert acknowledges (acknowledgedUntil given) or unacknowledges
// (acknowledgedUntil left out or null) an alert.
func (s *Server) patchAlert(c *reqCtx) *apiError {
	r, err := s.findAlert(c, writeMonitoring)
	if err != nil {
		return err
	}
	body, err := c.readObject()
	if err != nil {
		return err
	}
	if err := checkPathIDs(body, map[string]string{"id": r.doc["id"].(string), "groupId": r.project}); err != nil {
		return err
	}
	sch := schema{
		"acknowledgedUntil":      timestamp().orNull(),
		"acknowledgementComment": str().orNull(),
		"links":                  ignored(),
	}
	// Other fields of an alert may be sent back unchanged (a GET, edited).
	for k := range body {
		if _, known := sch[k]; !known && r.doc[k] != nil {
			sch[k] = readOnly()
		}
	}
	if err := sch.check(body, "", r.doc); err != nil {
		return err
	}
	now := s.clock.Now()
	if until, ok := body["acknowledgedUntil"].(string); ok {
		if t, _ := parseTimestamp(until); !t.After(now) {
			return errBadRequest("INVALID_JSON_ATTRIBUTE",
				fmt.Sprintf("acknowledgedUntil %s is not later than the server's time %s; to end an acknowledgement, send acknowledgedUntil null.", until, formatTime(now)),
				"acknowledgedUntil")
		}
		r.doc["acknowledgedUntil"] = until
		r.doc["acknowledgingUsername"] = c.caller.name
		if comment, ok := body["acknowledgementComment"].(string); ok && comment != "" {
			r.doc["acknowledgementComment"] = comment
		} else {
			delete(r.doc, "acknowledgementComment")
		}
	} else {
		delete(r.doc, "acknowledgedUntil")
		delete(r.doc, "acknowledgementComment")
		delete(r.doc, "acknowledgingUsername")
	}
	r.doc["updated"] = formatTime(now)
	s.st.touch("alerts", r.doc)
	c.ok(c.renderAlert(r))
	return nil
}

func (s *Server) listGlobalAlerts(c *reqCtx) *apiError {
	if err := c.global(readGlobalAlerts); err != nil {
		return err
	}
	f, err := c.alertFilter(true)
	if err != nil {
		return err
	}
	return c.listAlertSet(s.st.globalAlerts, f)
}
