package model

import "github.com/omctl/omctl/internal/store/fixture"

// Snapshot is a snapshot of a cluster, or of a config server (HostID,
// the host of its first part).
type Snapshot struct {
	members
	ID, GroupID, ClusterID, HostID string
}

func newSnapshot(d doc) *Snapshot {
	s := &Snapshot{members: members{d}}
	s.ID, _ = d["id"].(string)
	s.GroupID, _ = d["groupId"].(string)
	s.ClusterID, _ = d["clusterId"].(string)
	s.HostID = fixture.SnapshotHost(d)
	return s
}

func (s *Snapshot) key() string { return s.ID }

// Snapshots are a cluster's snapshots, empty when it has none.
func (s *State) Snapshots(project, cluster string) *Ordered[*Snapshot] {
	return orEmpty(s.snapshots[joinKey(project, cluster)])
}

// ConfigServerSnapshots are the snapshots of a config server (a host),
// nil when the project has none of that host.
func (s *State) ConfigServerSnapshots(project, host string) *Ordered[*Snapshot] {
	return s.csSnapshots[joinKey(project, host)]
}

// SetSnapshotExpiry keeps a snapshot of a cluster for good (doNotDelete),
// or until expires (when not ""), or lets it go at its current expiry.
func (s *State) SetSnapshotExpiry(snap *Snapshot, doNotDelete bool, expires string) *Snapshot {
	snap = newSnapshot(snap.changed(func(d doc) {
		d["doNotDelete"] = doNotDelete
		if doNotDelete {
			delete(d, "expires")
		} else if expires != "" {
			d["expires"] = expires
		}
	}))
	put(s, "snapshots", s.snapshots[joinKey(snap.GroupID, snap.ClusterID)], snap)
	return snap
}

// loadSnapshots indexes the snapshots of the fixtures; each names a
// cluster, or a config server's host.
func (s *State) loadSnapshots(f *fixture.Fixtures) {
	for _, d := range f.Snapshots {
		snap := newSnapshot(d)
		k := joinKey(snap.GroupID, snap.ClusterID)
		putIn(s.snapshots, k, snap)
	}
	for _, d := range f.ConfigServerSnapshots {
		snap := newSnapshot(d)
		k := joinKey(snap.GroupID, snap.HostID)
		s.hosts[k] = true
		putIn(s.csSnapshots, k, snap)
	}
}
