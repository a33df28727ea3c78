package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/handlers"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/engine"
)

// reportEvents reports conditions to the alert engine (api.ReportEvents)
// and answers every alert they opened, changed or closed.
func (s *Server) reportEvents(c *handlers.Ctx) error {
	body, err := c.ReadBody()
	if err != nil {
		return err
	}
	conds, err := parseConditions(body)
	if err != nil {
		return err
	}
	for _, cond := range conds {
		if c.St.Project(cond.Project) == nil {
			return httpx.NotFound("GROUP_NOT_FOUND", fmt.Sprintf("Item %d: no group with ID %s exists.", cond.Index, cond.Project), cond.Index, cond.Project)
		}
	}
	c.LastBase()
	now := s.clock.Now()
	var changed []*alert.Rec
	seen := map[*alert.Rec]bool{}
	for _, cond := range conds {
		for _, r := range c.Tx.Apply(cond, now) {
			if !seen[r] {
				seen[r] = true
				changed = append(changed, r)
			}
		}
	}
	// What is due at once (a delay of 0) is sent before the answer.
	c.Tx.RunUntil(now)
	items := make([][]byte, len(changed))
	for i, r := range changed {
		items[i] = c.RenderAlert(r)
	}
	out := []byte(`{"alerts":[`)
	for i, it := range items {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, it...)
	}
	c.WriteRaw(http.StatusOK, append(out, "]}"...))
	return nil
}

// listNotifications lists the notification log, oldest first
// (api.ListNotifications).
func (s *Server) listNotifications(c *handlers.Ctx) error {
	q := c.R.URL.Query()
	for k := range q {
		switch k {
		case "alertId", "groupId", "typeName", "event", "payloads", "pageNum", "itemsPerPage", "pretty", "envelope":
		default:
			return httpx.InvalidQuery(k, q.Get(k), "the filters are alertId, groupId, typeName and event (and payloads=true adds what webhooks sent)")
		}
	}
	p, err := c.Page()
	if err != nil {
		return err
	}
	payloads, err := c.BoolQuery("payloads", false)
	if err != nil {
		return err
	}
	filters := map[string]func(*engine.Notification) string{
		"alertId": func(n *engine.Notification) string { return n.AlertID }, "groupId": func(n *engine.Notification) string { return n.GroupID },
		"typeName": func(n *engine.Notification) string { return n.TypeName }, "event": func(n *engine.Notification) string { return n.Event },
	}
	var keep func(*engine.Notification) bool
	for k, get := range filters {
		if v := q.Get(k); v != "" {
			prev := keep
			keep = func(n *engine.Notification) bool { return get(n) == v && (prev == nil || prev(n)) }
		}
	}
	page, total, dropped := s.notes.Page(keep, p.Offset(), p.Size)
	items := make([][]byte, len(page))
	for i := range page {
		if payloads {
			s.notes.Sent().Show(&page[i])
		}
		items[i] = rules.EncodeJSON(&page[i])
	}
	c.ListRaw(items, total, p)
	c.Out = withDropped(c.Out, dropped, c.Pretty)
	return nil
}

// withDropped adds to a list answer how many entries the log dropped.
func withDropped(list []byte, dropped int, pretty bool) []byte {
	list = bytes.TrimRight(list, "}\n")
	if pretty {
		return fmt.Appendf(list, ",\n  \"dropped\": %d\n}\n", dropped)
	}
	return fmt.Appendf(list, `,"dropped":%d}`+"\n", dropped)
}

// parseConditions checks the body of ReportEvents: one object or
// an array of them. A bad item refuses the whole body, naming its index.
func parseConditions(v any) ([]engine.Condition, error) {
	items, isList := v.([]any)
	if !isList {
		if _, isObj := v.(map[string]any); !isObj {
			return nil, httpx.BadRequest("INVALID_JSON", "Received JSON is malformed: the body must be a condition object or an array of them.")
		}
		items = []any{v}
	}
	out := make([]engine.Condition, 0, len(items))
	for i, it := range items {
		prefix := ""
		if isList {
			prefix = fmt.Sprintf("[%d].", i)
		}
		m, ok := it.(map[string]any)
		if !ok {
			return nil, httpx.BadRequest("INVALID_JSON", fmt.Sprintf("Received JSON is malformed: item %d must be an object.", i), i)
		}
		c, err := parseCondition(m, prefix)
		if err != nil {
			return nil, err
		}
		c.Index = i
		out = append(out, c)
	}
	return out, nil
}

func parseCondition(m map[string]any, prefix string) (engine.Condition, error) {
	var c engine.Condition
	_, isEvent := m["eventTypeName"]
	_, isSample := m["metricName"]
	if isEvent && isSample {
		return c, httpx.BadRequest("INVALID_ATTRIBUTE",
			fmt.Sprintf("Invalid attribute %smetricName specified: an item is an event (eventTypeName) or a metric sample (metricName), not both.", prefix), prefix+"metricName")
	}
	sch := rules.Schema{"groupId": rules.Str().Req(), "target": rules.Object(nil)}
	if isSample {
		sch["metricName"] = rules.Str(api.MetricNames...).Req()
		sch["value"] = rules.Number().Req()
		sch["units"] = rules.Str(api.Units...)
	} else {
		sch["eventTypeName"] = rules.Str().Req()
		sch["resolved"] = rules.Bool()
	}
	if _, has := m["resolved"]; has && isSample {
		return c, httpx.BadRequest("INVALID_ATTRIBUTE",
			fmt.Sprintf("Invalid attribute %sresolved specified: a metric sample clears its condition by its value.", prefix), prefix+"resolved")
	}
	// The number is compared as sent: keep it before the schema normalizes it.
	raw, _ := m["value"].(json.Number)
	if err := sch.Check(m, prefix, nil); err != nil {
		return c, err
	}
	c.Project, _ = m["groupId"].(string)
	if !api.IsObjectID(c.Project) {
		return c, httpx.BadRequest("INVALID_JSON_ATTRIBUTE",
			fmt.Sprintf("%sgroupId %s is not a project id (24 hexadecimal digits).", prefix, c.Project), prefix+"groupId")
	}
	if t, ok := m["target"].(map[string]any); ok {
		for _, k := range rules.SortedKeys(t) {
			f := c.Target.Field(k)
			if f == nil {
				return c, httpx.BadRequest("INVALID_ATTRIBUTE",
					fmt.Sprintf("Invalid attribute %starget.%s specified; a target has %s.", prefix, k, strings.Join(alert.TargetFields, ", ")), prefix+"target."+k)
			}
			s, isStr := t[k].(string)
			if !isStr {
				return c, httpx.BadRequest("INVALID_JSON_ATTRIBUTE",
					fmt.Sprintf("Received JSON for the %starget.%s attribute does not match expected format: want a string.", prefix, k), prefix+"target."+k)
			}
			*f = s
		}
	}
	if isSample {
		c.Event = api.EventOutsideMetricThreshold
		c.Metric, _ = m["metricName"].(string)
		c.Value = raw
		c.Units, _ = m["units"].(string)
		return c, nil
	}
	c.Event, _ = m["eventTypeName"].(string)
	if !api.OneOf(c.Event, api.NamedEventTypes) {
		return c, httpx.BadRequest("INVALID_ENUM_VALUE",
			fmt.Sprintf("An invalid enumeration value %s was specified for %seventTypeName; allowed values are %s.", c.Event, prefix, strings.Join(api.NamedEventTypes, ", ")),
			c.Event, prefix+"eventTypeName")
	}
	c.Resolved, _ = m["resolved"].(bool)
	return c, nil
}

// dumpFixtures answers the data being served as a fixture file
// (api.DumpFixtures): secrets included, as a state file holds them, which
// is why only a GLOBAL_OWNER may ask. The data is copied under the lock
// and encoded after it.
func (s *Server) dumpFixtures(c *handlers.Ctx) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := s.Fixtures().Encode(&buf); err != nil {
		s.logf("encoding the fixtures: %v", err)
		return httpx.BadRequest("UNEXPECTED_ERROR", "The data could not be written as fixtures.")
	}
	c.Header.Set("Content-Type", "application/json")
	c.Status, c.Out = http.StatusOK, buf.Bytes()
	return nil
}
