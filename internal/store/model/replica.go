package model

import (
	"maps"
	"slices"

	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/fixture"
)

// The data readers are served while a state file is kept (Store.View):
// a replica of the data as last committed. A commit waits for the disk to
// sync, which takes what the disk takes (400 ms on a busy one), and while
// the data was changed in place under one lock every reader waited for
// it too, since no reader may see a change before it is on disk. Now the
// writers' data (Store.st) and the readers' (Store.published) are apart:
// a batch changes the first, is committed, and only then is copied into
// the second, record by record, under the readers' lock for the copying
// alone. Readers are served through a commit's sync, the data as it was
// before the batch, and still never see a change before it is on disk
// (docs/server.md, State).

// Replicate makes the readers' copy of s: maps, lists and alert indexes
// of its own, holding the same records (which never change, records.go),
// but its own AlertRecs and API keys, which writers change in place. The
// engine's state (schedules, the active alerts, the configurations'
// TRACKING alerts) is the writers' alone: readers do not use it.
func (s *State) Replicate() *State {
	r := &State{
		orgs: maps.Clone(s.orgs), projects: maps.Clone(s.projects),
		orgOrder: slices.Clone(s.orgOrder), projectOrder: slices.Clone(s.projectOrder),
		principals: make(map[string]*Principal, len(s.principals)),
		apiKeys:    make(map[string]*APIKey, len(s.apiKeys)), keyOrder: slices.Clone(s.keyOrder),
		alerts: make(map[string]*alert.Set, len(s.alerts)), alertByID: make(map[string]*alert.Rec, len(s.alertByID)),
		alertConfigs:   cloneLists(s.alertConfigs),
		globalAlertIDs: make(map[string]*alert.Rec, len(s.globalAlertIDs)), globalConfigs: s.globalConfigs.clone(),
		backupConfigs: maps.Clone(s.backupConfigs), configOrder: slices.Clone(s.configOrder),
		clusters: cloneLists(s.clusters), snapshots: cloneLists(s.snapshots), csSnapshots: cloneLists(s.csSnapshots),
		hosts: maps.Clone(s.hosts), oplogStores: s.oplogStores.clone(), snapshotStores: s.snapshotStores.clone(),
		backupJobs: maps.Clone(s.backupJobs),
	}
	for name, p := range s.principals {
		if p.Key == nil {
			r.principals[name] = p // a user: changed by nothing but a reset
		}
	}
	for id, k := range s.apiKeys {
		c := k.clone()
		r.apiKeys[id], r.principals[c.Principal.Name] = c, c.Principal
	}
	n := alertCount(s.globalAlerts)
	for _, set := range s.alerts {
		n += alertCount(set)
	}
	// One array for the records, as loadAlerts makes them: a million
	// small objects were much of what the collector marks.
	recs := make([]alert.Rec, 0, n)
	copySet := func(set *alert.Set, index map[string]*alert.Rec) *alert.Set {
		mine := make([]*alert.Rec, alertCount(set))
		for i := range mine {
			a := set.Items()[i]
			recs = append(recs, alert.MakeRec(a.Cur, a.Project, a.Status, a.Created()))
			mine[i] = &recs[len(recs)-1]
			index[a.Cur.ID] = mine[i]
		}
		return alert.NewSet(mine) // in the order they had: a stable sort keeps it
	}
	for p, set := range s.alerts {
		r.alerts[p] = copySet(set, r.alertByID)
	}
	r.globalAlerts = copySet(s.globalAlerts, r.globalAlertIDs)
	return r
}

// alertCount is how many alerts a set holds.
func alertCount(set *alert.Set) int {
	if set == nil {
		return 0
	}
	return len(set.Items())
}

// copyable are the kinds of record copySlot copies one by one: those an
// operation changes. The others change only by a reset, which copies all.
var copyable = map[string]bool{
	"alerts": true, "globalAlerts": true, fixture.SchedulesKind: true, "oplogStores": true, "snapshotStores": true,
	"alertConfigs": true, "globalAlertConfigs": true, "backupConfigs": true, "backupJobConfigs": true,
	"snapshots": true, "apiKeys": true,
}

// CopySlot puts in r, the readers' copy, what w, the writers' data, holds
// under a record's kind and key, once the batch that changed it is
// committed: the record, or nothing when it was removed. rec.Rec is the
// record as committed, which says where a record named by its id alone
// lives. It reports false when it cannot copy the record (a kind not in
// copyable, an alert removed): then the caller copies all.
func (r *State) CopySlot(w *State, rec Change) bool {
	switch rec.Kind {
	case "alerts", "globalAlerts":
		return r.copyAlert(w, rec.Kind == "globalAlerts", rec.Key)
	case fixture.SchedulesKind: // the engine's: readers have none
	case "oplogStores":
		copyIn(r.oplogStores, w.oplogStores, rec.Key)
	case "snapshotStores":
		copyIn(r.snapshotStores, w.snapshotStores, rec.Key)
	case "globalAlertConfigs":
		copyIn(r.globalConfigs, w.globalConfigs, rec.Key)
	case "alertConfigs":
		copyListed(r.alertConfigs, w.alertConfigs, memberOf(rec.Rec, "groupId"), rec.Key)
	case "snapshots":
		list := ""
		if rec.Rec != nil {
			list = joinKey(memberOf(rec.Rec, "groupId"), memberOf(rec.Rec, "clusterId"))
		}
		copyListed(r.snapshots, w.snapshots, list, rec.Key)
	case "backupConfigs":
		r.copyBackupConfig(w, rec.Key)
	case "backupJobConfigs":
		copyEntry(r.backupJobs, w.backupJobs, rec.Key)
	case "apiKeys":
		r.copyKey(w, rec.Key)
	default:
		return false
	}
	return true
}

// copyIn puts in dst the record src holds under key, or takes key out of
// dst when src holds none.
func copyIn[R storedRecord](dst, src *Ordered[R], key string) {
	if i, ok := src.byID[key]; ok {
		dst.put(src.items[i])
	} else {
		dst.remove(key)
	}
}

// copyListed is copyIn for the lists of lists under list ("" when the
// record was removed and its doc is gone: then whichever list of dst
// holds key).
func copyListed[R storedRecord](dst, src map[string]*Ordered[R], list, key string) {
	if list == "" {
		for _, o := range dst {
			o.remove(key)
		}
		return
	}
	if dst[list] == nil {
		dst[list] = newOrdered[R]()
	}
	copyIn(dst[list], orEmpty(src[list]), key)
}

// copyEntry copies the entry of a map under key, or its absence.
func copyEntry[V any](dst, src map[string]V, key string) {
	if v, ok := src[key]; ok {
		dst[key] = v
	} else {
		delete(dst, key)
	}
}

// memberOf is a string member of a record, "" when there is none.
func memberOf(rec any, name string) string {
	s, _ := docOf(rec)[name].(string)
	return s
}

// copyAlert copies an alert's document and status, or the alert itself
// when it is new, into r's index. Alerts are removed only by a reset.
func (r *State) copyAlert(w *State, global bool, id string) bool {
	index, from := r.alertByID, w.alertByID
	if global {
		index, from = r.globalAlertIDs, w.globalAlertIDs
	}
	src := from[id]
	if src == nil {
		return false
	}
	if dst := index[id]; dst != nil {
		dst.Cur = src.Cur
		r.setStatus(dst, src.Status)
		return true
	}
	rec := alert.MakeRec(src.Cur, src.Project, src.Status, src.Created())
	dst := &rec
	set := r.globalAlerts
	if !global {
		if r.alerts[src.Project] == nil {
			r.alerts[src.Project] = alert.NewSet(nil)
		}
		set = r.alerts[src.Project]
	}
	index[id] = dst
	if set.Add(dst) {
		r.staleAlerts = append(r.staleAlerts, set)
	}
	return true
}

// copyBackupConfig copies a backup configuration, keeping the order in
// which configurations came.
func (r *State) copyBackupConfig(w *State, key string) {
	_, had := r.backupConfigs[key]
	copyEntry(r.backupConfigs, w.backupConfigs, key)
	switch _, has := r.backupConfigs[key]; {
	case has && !had:
		r.configOrder = append(r.configOrder, key)
	case had && !has:
		r.configOrder = slices.DeleteFunc(r.configOrder, func(k string) bool { return k == key })
	}
}

// copyKey copies an API key as a key of r's own, with its principal.
func (r *State) copyKey(w *State, id string) {
	old := r.apiKeys[id]
	if old != nil {
		delete(r.principals, old.Principal.Name)
	}
	k := w.apiKeys[id]
	if k == nil {
		delete(r.apiKeys, id)
		r.keyOrder = slices.DeleteFunc(r.keyOrder, func(k string) bool { return k == id })
		return
	}
	c := k.clone()
	r.apiKeys[id], r.principals[c.Principal.Name] = c, c.Principal
	if old == nil {
		r.keyOrder = append(r.keyOrder, id)
	}
}

// Copyable reports whether CopySlot copies records of kind one by one.
func Copyable(kind string) bool { return copyable[kind] }
