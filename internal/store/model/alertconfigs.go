package model

import (
	"encoding/json"
	"net"
	"regexp"
	"strings"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/fixture"
)

// AlertConfig is an alert configuration of a project, or a global one
// (GroupID ""): what the alert engine raises alerts by.
type AlertConfig struct {
	members
	ID, GroupID, EventTypeName string
	Enabled                    bool
	// A global configuration covers every project, or those of GroupIDs.
	ForAllGroups    bool
	GroupIDs        []string
	Matchers        []Matcher
	MetricThreshold *MetricThreshold // nil when it has none
	Notifications   []*NotificationSpec
}

// Matcher is one condition on an alert's target (docs/server.md, Alert engine).
type Matcher struct {
	Field, Operator, Value string
	re                     *regexp.Regexp // a REGEX matcher's, compiled once
}

// MetricThreshold is what an OUTSIDE_METRIC_THRESHOLD configuration compares
// samples with.
type MetricThreshold struct {
	MetricName, Operator, Units string
	Threshold                   float64
}

// NotificationSpec is one notification of a configuration: whom to tell,
// after how long, and how often again.
type NotificationSpec struct {
	members
	TypeName                  string
	Delay, Interval           time.Duration
	WebhookURL, WebhookSecret string
	// Shown is the notification as the API shows it, its secrets
	// redacted: made once, when its configuration is stored (nil for a
	// notification of a schedule read back from a state file).
	Shown doc
}

func newAlertConfig(d doc) *AlertConfig {
	c := &AlertConfig{members: members{d}}
	c.ID, _ = d["id"].(string)
	c.GroupID, _ = d["groupId"].(string)
	c.EventTypeName, _ = d["eventTypeName"].(string)
	c.Enabled = d["enabled"] == true
	c.ForAllGroups = d["forAllGroups"] == true
	c.GroupIDs = rules.StringList(d["groupIds"])
	list, _ := d["matchers"].([]any)
	for _, it := range list {
		m, _ := it.(map[string]any)
		var mt Matcher
		if mt.Field, _ = m["fieldName"].(string); mt.Field == "" {
			mt.Field, _ = m["field"].(string)
		}
		mt.Operator, _ = m["operator"].(string)
		mt.Value, _ = m["value"].(string)
		if mt.Operator == "REGEX" {
			// A pattern that does not compile matches nothing (the rules refuse one).
			mt.re, _ = regexp.Compile(`^(?:` + mt.Value + `)$`)
		}
		c.Matchers = append(c.Matchers, mt)
	}
	if t, ok := d["metricThreshold"].(map[string]any); ok {
		mt := &MetricThreshold{Threshold: toFloat(t["threshold"])}
		mt.MetricName, _ = t["metricName"].(string)
		mt.Operator, _ = t["operator"].(string)
		mt.Units, _ = t["units"].(string)
		c.MetricThreshold = mt
	}
	notes, _ := d["notifications"].([]any)
	for _, n := range notes {
		m, _ := n.(map[string]any)
		spec := NewNotificationSpec(m)
		spec.Shown = rules.RedactNotification(m)
		c.Notifications = append(c.Notifications, spec)
	}
	return c
}

func NewNotificationSpec(m doc) *NotificationSpec {
	spec := &NotificationSpec{members: members{m}}
	spec.TypeName, _ = m["typeName"].(string)
	delay, _ := rules.NormalizeNumbers(m["delayMin"]).(int64)
	interval, _ := rules.NormalizeNumbers(m["intervalMin"]).(int64)
	spec.Delay, spec.Interval = time.Duration(delay)*time.Minute, time.Duration(interval)*time.Minute
	spec.WebhookURL, _ = m["webhookUrl"].(string)
	spec.WebhookSecret, _ = m["webhookSecret"].(string)
	return spec
}

func (c *AlertConfig) key() string { return c.ID }

// Raw is the notification as its configuration holds it; nobody may
// change it.
func (n *NotificationSpec) Raw() doc { return n.m }

// Covers reports whether a global configuration applies to a project.
func (c *AlertConfig) Covers(project string) bool {
	if c.ForAllGroups {
		return true
	}
	for _, g := range c.GroupIDs {
		if g == project {
			return true
		}
	}
	return false
}

// SmallestDelay is how long its alerts track before they open: the
// smallest delay of its notifications (docs/api.md, Alert).
func (c *AlertConfig) SmallestDelay() time.Duration {
	smallest := time.Duration(-1)
	for _, n := range c.Notifications {
		if smallest < 0 || n.Delay < smallest {
			smallest = n.Delay
		}
	}
	return max(smallest, 0)
}

// AlertConfigs are a project's alert configurations, empty when it has none.
func (s *State) AlertConfigs(project string) *Ordered[*AlertConfig] {
	return orEmpty(s.alertConfigs[project])
}

// GlobalAlertConfigs are the global alert configurations.
func (s *State) GlobalAlertConfigs() *Ordered[*AlertConfig] { return s.globalConfigs }

// ReplaceAlertConfig puts a configuration, whose body passed
// rules.CheckAlertConfig, in place of old: it keeps old's id, project and
// creation, and the secrets the body sent back as they were shown
// (redacted); leaving out enabled disables it (the engine then cancels
// its active alerts: Engine.process).
func (s *State) ReplaceAlertConfig(old *AlertConfig, body doc, now time.Time) *AlertConfig {
	rules.KeepRedactedSecrets(body, old.m)
	setDefault(body, "enabled", false)
	body["id"], body["groupId"] = old.ID, old.GroupID
	if created, ok := old.m["created"]; ok {
		body["created"] = created
	}
	body["updated"] = rules.FormatTime(now)
	cfg := newAlertConfig(body)
	s.putAlertConfig(cfg)
	return cfg
}

// CreateAlertConfig adds a configuration, whose body passed
// rules.CheckAlertConfig, to a project, with a new id; leaving out enabled
// disables it.
func (s *State) CreateAlertConfig(project string, body doc, now time.Time) *AlertConfig {
	setDefault(body, "enabled", false)
	at := rules.FormatTime(now)
	body["id"], body["groupId"], body["created"], body["updated"] = api.NewObjectID(), project, at, at
	cfg := newAlertConfig(body)
	s.putAlertConfig(cfg)
	return cfg
}

// DeleteAlertConfig removes a project's configuration; the engine cancels
// its active alerts, as when it is disabled (Engine.process).
func (s *State) DeleteAlertConfig(cfg *AlertConfig) {
	removeFrom(s, "alertConfigs", s.alertConfigs[cfg.GroupID], cfg.ID)
}

// SetConfigEnabled turns a configuration, of a project or global, on or
// off; off has the engine cancel its active alerts (Engine.process).
func (s *State) SetConfigEnabled(old *AlertConfig, enabled bool, now time.Time) *AlertConfig {
	cfg := newAlertConfig(old.changed(func(d doc) {
		d["enabled"] = enabled
		d["updated"] = rules.FormatTime(now)
	}))
	if s.globalConfigs.Get(cfg.ID) != old {
		s.putAlertConfig(cfg)
	} else {
		put(s, "globalAlertConfigs", s.globalConfigs, cfg)
	}
	return cfg
}

// putAlertConfig puts a project's configuration in place.
func (s *State) putAlertConfig(c *AlertConfig) {
	putListed(s, "alertConfigs", s.alertConfigs, c.GroupID, c)
}

// loadAlertConfigs indexes the alert configurations of the fixtures.
func (s *State) loadAlertConfigs(f *fixture.Fixtures) {
	for _, d := range f.AlertConfigs {
		s.putAlertConfig(newAlertConfig(d))
	}
	for _, d := range f.GlobalAlertConfigs {
		s.globalConfigs.put(newAlertConfig(d))
	}
}

// Matches reports whether a target's value holds for the matcher.
func (m *Matcher) Matches(got string) bool {
	want := m.Value
	switch m.Operator {
	case "EQUALS":
		return got == want
	case "NOT_EQUALS":
		return got != want
	case "CONTAINS":
		return strings.Contains(got, want)
	case "NOT_CONTAINS":
		return !strings.Contains(got, want)
	case "STARTS_WITH":
		return strings.HasPrefix(got, want)
	case "ENDS_WITH":
		return strings.HasSuffix(got, want)
	case "REGEX":
		return m.re != nil && m.re.MatchString(got)
	}
	return false
}

func toFloat(v any) float64 {
	switch n := v.(type) {
	case int64:
		return float64(n)
	case float64:
		return n
	case json.Number:
		f, _ := n.Float64()
		return f
	}
	return 0
}

// ConfigsFor lists the enabled configurations of project for event,
// project ones first, then the global ones that cover it.
func (s *State) ConfigsFor(project, event string) (project_, global []*AlertConfig) {
	for _, cfg := range s.alertConfigs[project].All() {
		if cfg.Enabled && cfg.EventTypeName == event {
			project_ = append(project_, cfg)
		}
	}
	for _, cfg := range s.globalConfigs.All() {
		if cfg.Enabled && cfg.EventTypeName == event && cfg.Covers(project) {
			global = append(global, cfg)
		}
	}
	return project_, global
}

// ConfigOf finds a configuration of a project, or a global one (project "").
func (s *State) ConfigOf(id, project string) *AlertConfig {
	if project == "" {
		return s.globalConfigs.Get(id)
	}
	return s.alertConfigs[project].Get(id)
}

// matcherValue is what a matcher's field names in a target; false when the
// target does not carry it.
func matcherValue(field string, t alert.Target) (string, bool) {
	var v string
	switch field {
	case "HOSTNAME", "PORT":
		if t.HostnameAndPort == "" {
			return "", false
		}
		host, port, err := net.SplitHostPort(t.HostnameAndPort)
		if err != nil {
			host, port = t.HostnameAndPort, ""
		}
		if v = host; field == "PORT" {
			v = port
		}
	case "HOSTNAME_AND_PORT":
		v = t.HostnameAndPort
	case "REPLICA_SET_NAME":
		v = t.ReplicaSetName
	case "TYPE_NAME":
		v = t.TypeName
	case "CLUSTER_NAME":
		v = t.ClusterName
	case "SHARD_NAME":
		v = t.ShardName
	}
	return v, v != ""
}

// MatchersHold reports whether every matcher of a configuration holds
// for t. A matcher on a field t does not carry does not hold.
func (cfg *AlertConfig) MatchersHold(t alert.Target) bool {
	for _, m := range cfg.Matchers {
		got, ok := matcherValue(m.Field, t)
		if !ok || !m.Matches(got) {
			return false
		}
	}
	return true
}
