package alert

import "fmt"

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

// Identity tells one target from another within a project: its host id,
// else host and port, else cluster id, else cluster name, else replica
// set, else the project itself ("").
func (t Target) Identity() string {
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

// Pair names the one active alert a configuration may have per target
// (docs/server.md, Alert engine): the configuration, and the target
// within its project.
type Pair struct {
	Config string
	Target TargetKey
}

// TargetKey names a target within its project (Target.identity).
type TargetKey struct{ Project, Identity string }

// PairOf is the configuration and target an alert is active for, by
// its own fields; false for an alert that is not active (closed, or of no
// configuration).
func PairOf(a *Doc) (Pair, bool) {
	if !a.mayBeActive() {
		return Pair{}, false
	}
	return Pair{a.AlertConfigID, TargetKey{a.GroupID, a.identity}}, true
}

// Describe names a target in messages.
func (t TargetKey) Describe() string {
	where := "project " + t.Project
	if t.Project == "" {
		where = "no project"
	}
	if t.Identity == "" {
		return "the project itself (" + where + ")"
	}
	return fmt.Sprintf("target %s in %s", t.Identity, where)
}
