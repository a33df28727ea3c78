package server

import (
	"encoding/json"
	"fmt"
	"net"
	"regexp"
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
)

// alertTarget is what a condition is about (docs/server.md, "Alert engine").
type alertTarget struct {
	HostID, HostnameAndPort, TypeName, ReplicaSetName, ClusterID, ClusterName, ShardName string
}

// targetFields name the members of a target, as a body and an alert write them.
var targetFields = []string{"hostId", "hostnameAndPort", "typeName", "replicaSetName", "clusterId", "clusterName", "shardName"}

func (t *alertTarget) field(name string) *string {
	switch name {
	case "hostId":
		return &t.HostID
	case "hostnameAndPort":
		return &t.HostnameAndPort
	case "typeName":
		return &t.TypeName
	case "replicaSetName":
		return &t.ReplicaSetName
	case "clusterId":
		return &t.ClusterID
	case "clusterName":
		return &t.ClusterName
	case "shardName":
		return &t.ShardName
	}
	return nil
}

// identity tells one target from another within a project: its host id,
// else host and port, else cluster id, else cluster name, else replica
// set, else the project itself ("").
func (t alertTarget) identity() string {
	for _, v := range []string{t.HostID, t.HostnameAndPort, t.ClusterID, t.ClusterName, t.ReplicaSetName} {
		if v != "" {
			return v
		}
	}
	return ""
}

// targetOf reads the target an alert document carries.
func targetOf(d doc) alertTarget {
	var t alertTarget
	for _, f := range targetFields {
		if v, ok := d[f].(string); ok {
			*t.field(f) = v
		}
	}
	return t
}

// condition is one item of POST /_omctl/events: an event that holds or
// has cleared, or a metric sample.
type condition struct {
	index    int
	project  string
	event    string // OUTSIDE_METRIC_THRESHOLD for a sample
	target   alertTarget
	resolved bool

	metric string // a sample's metric name; "" for an event
	value  json.Number
	units  string
}

func (c condition) sample() bool { return c.metric != "" }

// parseConditions checks the body of POST /_omctl/events: one object or
// an array of them. A bad item refuses the whole body, naming its index.
func parseConditions(v any) ([]condition, *apiError) {
	items, isList := v.([]any)
	if !isList {
		if _, isObj := v.(map[string]any); !isObj {
			return nil, errBadRequest("INVALID_JSON", "Received JSON is malformed: the body must be a condition object or an array of them.")
		}
		items = []any{v}
	}
	out := make([]condition, 0, len(items))
	for i, it := range items {
		prefix := ""
		if isList {
			prefix = fmt.Sprintf("[%d].", i)
		}
		m, ok := it.(map[string]any)
		if !ok {
			return nil, errBadRequest("INVALID_JSON", fmt.Sprintf("Received JSON is malformed: item %d must be an object.", i), i)
		}
		c, err := parseCondition(m, prefix)
		if err != nil {
			return nil, err
		}
		c.index = i
		out = append(out, c)
	}
	return out, nil
}

func parseCondition(m map[string]any, prefix string) (condition, *apiError) {
	var c condition
	_, isEvent := m["eventTypeName"]
	_, isSample := m["metricName"]
	if isEvent && isSample {
		return c, errBadRequest("INVALID_ATTRIBUTE",
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
		return c, errBadRequest("INVALID_ATTRIBUTE",
			fmt.Sprintf("Invalid attribute %sresolved specified: a metric sample clears its condition by its value.", prefix), prefix+"resolved")
	}
	// The number is compared as sent: keep it before the schema normalizes it.
	raw, _ := m["value"].(json.Number)
	if err := sch.Check(m, prefix, nil); err != nil {
		return c, fromRule(err)
	}
	c.project, _ = m["groupId"].(string)
	if !api.IsObjectID(c.project) {
		return c, errBadRequest("INVALID_JSON_ATTRIBUTE",
			fmt.Sprintf("%sgroupId %s is not a project id (24 hexadecimal digits).", prefix, c.project), prefix+"groupId")
	}
	if t, ok := m["target"].(map[string]any); ok {
		for _, k := range rules.SortedKeys(t) {
			f := c.target.field(k)
			if f == nil {
				return c, errBadRequest("INVALID_ATTRIBUTE",
					fmt.Sprintf("Invalid attribute %starget.%s specified; a target has %s.", prefix, k, strings.Join(targetFields, ", ")), prefix+"target."+k)
			}
			s, isStr := t[k].(string)
			if !isStr {
				return c, errBadRequest("INVALID_JSON_ATTRIBUTE",
					fmt.Sprintf("Received JSON for the %starget.%s attribute does not match expected format: want a string.", prefix, k), prefix+"target."+k)
			}
			*f = s
		}
	}
	if isSample {
		c.event = api.EventOutsideMetricThreshold
		c.metric, _ = m["metricName"].(string)
		c.value = raw
		c.units, _ = m["units"].(string)
		return c, nil
	}
	c.event, _ = m["eventTypeName"].(string)
	if !api.OneOf(c.event, api.NamedEventTypes) {
		return c, errBadRequest("INVALID_ENUM_VALUE",
			fmt.Sprintf("An invalid enumeration value %s was specified for %seventTypeName; allowed values are the event types of docs/api.md, such as HOST_DOWN.", c.event, prefix),
			c.event, prefix+"eventTypeName")
	}
	c.resolved, _ = m["resolved"].(bool)
	return c, nil
}

// matcherValue is what a matcher's field names in a target; false when the
// target does not carry it.
func matcherValue(field string, t alertTarget) (string, bool) {
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

// matchersHold reports whether every matcher of a configuration holds
// for t. A matcher on a field t does not carry does not hold.
func matchersHold(cfg doc, t alertTarget) bool {
	list, _ := cfg["matchers"].([]any)
	for _, it := range list {
		m, _ := it.(map[string]any)
		field, _ := m["fieldName"].(string)
		if field == "" {
			field, _ = m["field"].(string)
		}
		op, _ := m["operator"].(string)
		want, _ := m["value"].(string)
		got, ok := matcherValue(field, t)
		if !ok || !matches(op, got, want) {
			return false
		}
	}
	return true
}

func matches(op, got, want string) bool {
	switch op {
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
		re, err := regexp.Compile(`^(?:` + want + `)$`)
		return err == nil && re.MatchString(got)
	}
	return false
}
