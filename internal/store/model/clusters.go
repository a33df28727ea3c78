package model

import (
	"maps"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/fixture"
)

// Cluster is a cluster of a project: a replica set, a sharded cluster, or
// one of a sharded cluster's shards or config servers (docs/api.md,
// Cluster). A fixture lists the clusters; one that only a backup
// configuration or a snapshot names is derived from them.
type Cluster struct {
	members
	ID, GroupID string
}

func newCluster(d doc) *Cluster {
	c := &Cluster{members: members{d}}
	c.ID, _ = d["id"].(string)
	c.GroupID, _ = d["groupId"].(string)
	return c
}

// key is unique across projects: a cluster id is unique only within its
// project.
func (c *Cluster) key() string { return joinKey(c.GroupID, c.ID) }

// Clusters are a project's clusters in the order they came into being,
// empty when it has none.
func (s *State) Clusters(project string) *Ordered[*Cluster] {
	return orEmpty(s.clusters[project])
}

// Cluster is a project's cluster, nil for none.
func (s *State) Cluster(project, id string) *Cluster {
	return s.clusters[project].Get(joinKey(project, id))
}

// HasCluster reports whether the project has the cluster.
func (s *State) HasCluster(project, cluster string) bool {
	return s.Cluster(project, cluster) != nil
}

// loadClusters indexes the clusters the fixtures list, then derives those
// that only backup configurations (in file order) and then snapshots name;
// members a cluster lacks are filled from its snapshots (docs/server.md,
// Clusters).
func (s *State) loadClusters(f *fixture.Fixtures) {
	snapsOf := map[string][]doc{}
	for _, d := range f.Snapshots {
		k := joinKey(str(d["groupId"]), str(d["clusterId"]))
		snapsOf[k] = append(snapsOf[k], d)
	}
	add := func(d doc) {
		c := newCluster(d)
		if s.Cluster(c.GroupID, c.ID) != nil {
			return
		}
		if missing := fillCluster(d, snapsOf[c.key()]); missing != nil {
			c = newCluster(missing)
		}
		putIn(s.clusters, c.GroupID, c)
	}
	for _, d := range f.Clusters {
		add(d)
	}
	for _, set := range [][]doc{f.BackupConfigs, f.Snapshots} {
		for _, d := range set {
			add(doc{"id": d["clusterId"], "groupId": d["groupId"]})
		}
	}
}

// fillCluster is d with the members it lacks derived from the cluster's
// snapshots (in file order) and its lastHeartbeat in UTC, nil when nothing
// changes.
func fillCluster(d doc, snaps []doc) doc {
	out := doc{}
	if hb, ok := d["lastHeartbeat"].(string); ok {
		// Times are answered in UTC with a Z, whatever offset they came with.
		if t, err := rules.ParseTimestamp(hb); err == nil && rules.FormatTime(t) != hb {
			out["lastHeartbeat"] = rules.FormatTime(t)
		}
	}
	if d["clusterName"] == nil {
		for _, snap := range snaps {
			if name := str(snap["clusterName"]); name != "" {
				out["clusterName"] = name
				break
			}
		}
	}
	typeName := str(d["typeName"])
	if typeName == "" {
		typeName = "REPLICA_SET"
		for _, snap := range snaps {
			parts, _ := snap["parts"].([]any)
			if len(parts) > 1 || hasConfigServerPart(parts) {
				typeName = "SHARDED_REPLICA_SET"
				break
			}
		}
		out["typeName"] = typeName
	}
	if typeName == "REPLICA_SET" && d["replicaSetName"] == nil {
		for _, snap := range snaps {
			parts, _ := snap["parts"].([]any)
			if len(parts) != 1 {
				continue
			}
			part, _ := parts[0].(map[string]any)
			if rs := str(part["replicaSetName"]); rs != "" {
				out["replicaSetName"] = rs
				break
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	filled := maps.Clone(d)
	maps.Copy(filled, out)
	return filled
}

func hasConfigServerPart(parts []any) bool {
	for _, p := range parts {
		m, _ := p.(map[string]any)
		if str(m["typeName"]) == "CONFIG_SERVER_REPLICA_SET" {
			return true
		}
	}
	return false
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
