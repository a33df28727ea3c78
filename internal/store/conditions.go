package store

import (
	"encoding/json"
	"net"
	"strings"
)

// Target is what a condition is about (docs/server.md, "Alert engine").
type Target struct {
	HostID, HostnameAndPort, TypeName, ReplicaSetName, ClusterID, ClusterName, ShardName string
}

// TargetFields name the members of a target, as a body and an alert write them.
var TargetFields = []string{"hostId", "hostnameAndPort", "typeName", "replicaSetName", "clusterId", "clusterName", "shardName"}

func (t *Target) Field(name string) *string {
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
func (t Target) identity() string {
	for _, v := range []string{t.HostID, t.HostnameAndPort, t.ClusterID, t.ClusterName, t.ReplicaSetName} {
		if v != "" {
			return v
		}
	}
	return ""
}

// targetOf reads the target an alert document carries.
func targetOf(d doc) Target {
	var t Target
	for _, f := range TargetFields {
		if v, ok := d[f].(string); ok {
			*t.Field(f) = v
		}
	}
	return t
}

// Condition is one item of POST /_omctl/events: an event that holds or
// has cleared, or a metric sample.
type Condition struct {
	Index    int
	Project  string
	Event    string // OUTSIDE_METRIC_THRESHOLD for a sample
	Target   Target
	Resolved bool

	Metric string // a sample's metric name; "" for an event
	Value  json.Number
	Units  string
}

func (c Condition) sample() bool { return c.Metric != "" }

// matcherValue is what a matcher's field names in a target; false when the
// target does not carry it.
func matcherValue(field string, t Target) (string, bool) {
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
func matchersHold(cfg *AlertConfig, t Target) bool {
	for _, m := range cfg.Matchers {
		got, ok := matcherValue(m.Field, t)
		if !ok || !m.matches(got) {
			return false
		}
	}
	return true
}

func (m *Matcher) matches(got string) bool {
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
