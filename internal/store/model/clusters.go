package model

import (
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

// loadClusters indexes the clusters of the fixtures: those they list and
// those only backup configurations and snapshots name, as
// fixture.ClusterDocs derives them.
func (s *State) loadClusters(f *fixture.Fixtures) {
	for _, d := range f.ClusterDocs() {
		c := newCluster(d)
		putIn(s.clusters, c.GroupID, c)
	}
}
