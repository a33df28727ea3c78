package model

import "github.com/omctl/omctl/internal/rules"

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
	put(s, "snapshots", s.snapshots[joinKey(snap.GroupID, snap.ClusterID)], snap)
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

// validateSnapshots checks the snapshots of clusters and of config
// servers, which the host of their first part names.
func validateSnapshots(f *Fixtures, c *fixtureCheck) error {
	for _, set := range []struct {
		key   string
		items []doc
		host  bool
	}{{"snapshots", f.Snapshots, false}, {"configServerSnapshots", f.ConfigServerSnapshots, true}} {
		idOf := uniqueID(set.key)
		for i, d := range set.items {
			if _, err := idOf(i, d); err != nil {
				return err
			}
			if err := c.needProject(set.key, i, d); err != nil {
				return err
			}
			if set.host {
				if snapshotHost(d) == "" {
					return failFixture(set.key, i, "parts[0].hostId is required: it names the config server")
				}
			} else if _, err := needID(set.key, i, d, "clusterId"); err != nil {
				return err
			}
			if err := checkFixture(set.key, i, rules.SnapshotResource(), d); err != nil {
				return err
			}
		}
	}
	return nil
}

// loadSnapshots indexes the snapshots of the fixtures; each names a
// cluster, or a config server's host.
func (s *State) loadSnapshots(f *Fixtures) {
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
