package server

import (
	"encoding/json"
	"net"
	"regexp"
	"strings"
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
