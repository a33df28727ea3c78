package store

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
	s.HostID = snapshotHost(d)
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
	s.snapshots[joinKey(snap.GroupID, snap.ClusterID)].put(snap)
	s.touch("snapshots", snap)
	return snap
}

func snapshotHost(d doc) string {
	parts, _ := d["parts"].([]any)
	if len(parts) == 0 {
		return ""
	}
	p, _ := parts[0].(map[string]any)
	h, _ := p["hostId"].(string)
	return h
}
