package model

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/fixture"
)

// A write records its own changes: the few primitives that change the
// data (put, putListed, removeFrom, setAlert, addAlert, putKey,
// countKeyUse, putSchedule, removeSchedule and the map entries below)
// each note the record they changed as they change it, so that no
// operation says by hand what it changed. The commit (Store.takeBatch),
// the readers' replica (Store.publishData), the sign-ins and the event
// stream (Outcome.Alerts) all read that one list.

// recordRef names a record of the state file.
type recordRef struct{ kind, key string }

// Change is one record a write changed, as the write left it.
type Change struct {
	// Kind is the state file's bucket: a fixture key ("alerts",
	// "apiKeys", …) or "schedules".
	Kind string
	// Key is the record's key within its kind (recordKey).
	Key string
	// Rec is the record as the write left it, nil when it was removed:
	// an *alert.Doc or a storedRecord (both never change once made), or an
	// *APIKey or a *schedule, which change in place and are read when
	// committed, as they are then.
	Rec any
	// By is who changed it: ByOperation when any operation of the write
	// did, which is what the engine reacts to (Engine.process).
	By Origin
}

// Origin says who made a change.
type Origin uint8

const (
	// ByOperation: a named operation of the data, as a request made it.
	ByOperation Origin = iota
	// ByEngine: the alert engine, by a command (Tx) or a reaction.
	ByEngine
)

// Changes records the changes of a batch's writes: each write's in the
// order its records first changed, each record once a write, as the
// write left it.
type Changes struct {
	list  []Change
	start int               // where the running write's changes start
	at    map[recordRef]int // the running write's changes by record, once they are many
	by    Origin            // who is changing the data now
	// all: everything changed (a reset, a new state file); reset: ResetTo
	// ran in the running write; signIns: an API key or user changed in a
	// way sign-in sees since the sign-ins were last refreshed.
	all, reset, signIns bool
}

// A write of few changes finds a record among them by looking through
// them; past this many, by a map.
const changesScanned = 16

// put records that the running write changed a record (nil: removed). A
// nil recorder records nothing: the data is being loaded.
func (c *Changes) put(kind, key string, rec any) {
	if c == nil {
		return
	}
	if kind == "apiKeys" || kind == "users" {
		c.signIns = true
	}
	c.note(kind, key, rec)
}

// note is put for a change that leaves sign-in as it was.
func (c *Changes) note(kind, key string, rec any) {
	if c == nil {
		return
	}
	if i := c.find(kind, key); i >= 0 {
		c.list[i].Rec = rec
		c.list[i].By = min(c.list[i].By, c.by) // an operation's, if any operation's
		return
	}
	c.list = append(c.list, Change{Kind: kind, Key: key, Rec: rec, By: c.by})
	if n := len(c.list) - c.start; n > changesScanned {
		if c.at == nil {
			c.at = map[recordRef]int{}
		}
		if n == changesScanned+1 {
			for i := c.start; i < len(c.list)-1; i++ {
				c.at[recordRef{c.list[i].Kind, c.list[i].Key}] = i
			}
		}
		c.at[recordRef{kind, key}] = len(c.list) - 1
	}
}

// find is the index of the running write's change of a record, -1 for
// none.
func (c *Changes) find(kind, key string) int {
	if len(c.list)-c.start > changesScanned {
		if i, ok := c.at[recordRef{kind, key}]; ok {
			return i
		}
		return -1
	}
	for i := c.start; i < len(c.list); i++ {
		if c.list[i].Key == key && c.list[i].Kind == kind {
			return i
		}
	}
	return -1
}

// as has the changes made until restore is called recorded as by's.
func (c *Changes) as(by Origin) (restore func()) {
	was := c.by
	c.by = by
	return func() { c.by = was }
}

// begin starts a write's changes.
func (c *Changes) begin() {
	c.start, c.reset, c.by = len(c.list), false, ByOperation
	if len(c.at) > 0 {
		// A long clock move notes many records; the map is not kept that big.
		if len(c.at) > 4096 {
			c.at = nil
		} else {
			clear(c.at)
		}
	}
}

// write is the running write's changes: the batch's array, which no later
// write changes.
func (c *Changes) write() []Change { return slices.Clip(c.list[c.start:]) }

// dropWrite forgets the running write's changes, as when it panicked or
// replaced all the data (ResetTo).
func (c *Changes) dropWrite() {
	clear(c.list[c.start:])
	c.list = c.list[:c.start]
	c.begin()
}

// setAll records that all the data changed.
func (c *Changes) setAll() { c.all, c.signIns = true, true }

// take returns the batch's changes, each record once, in the order it
// first changed, as the batch left it, and whether all changed; and
// forgets them. A new array comes for the next batch: the writes'
// outcomes hold this one.
func (c *Changes) take() (recs []Change, all bool) {
	recs, all = c.list, c.all
	if c.start > 0 { // several writes changed records: one change a record
		recs = merge(recs)
	}
	c.list, c.start, c.all = nil, 0, false
	c.begin()
	return recs, all
}

// merge keeps one change a record, where it first came, as it last was.
func merge(list []Change) []Change {
	out := make([]Change, 0, len(list))
	at := make(map[recordRef]int, len(list))
	for _, ch := range list {
		ref := recordRef{ch.Kind, ch.Key}
		if i, ok := at[ref]; ok {
			out[i].Rec, out[i].By = ch.Rec, min(out[i].By, ch.By)
			continue
		}
		at[ref] = len(out)
		out = append(out, ch)
	}
	return out
}

// takeSignIns reports whether sign-ins changed since it was last asked,
// and forgets it.
func (c *Changes) takeSignIns() bool {
	in := c.signIns
	c.signIns = false
	return in
}

// recordKey names a resource within its kind in the state file.
func recordKey(kind string, d doc) string {
	switch kind {
	case "backupConfigs":
		return joinKey(d["groupId"].(string), d["clusterId"].(string))
	case "clusters":
		return joinKey(d["groupId"].(string), d["id"].(string))
	case "users":
		return d["username"].(string)
	}
	return d["id"].(string)
}

// The primitives: the only code that changes the data once it is loaded.

// put puts r in list, a list of records of kind.
func put[R storedRecord](s *State, kind string, list *Ordered[R], r R) {
	list.put(r)
	s.ch.put(kind, r.key(), r)
}

// putListed puts r in the list of lists under k, making the list if need be.
func putListed[R storedRecord](s *State, kind string, lists map[string]*Ordered[R], k string, r R) {
	putIn(lists, k, r)
	s.ch.put(kind, r.key(), r)
}

// removeFrom takes the record with key out of list.
func removeFrom[R storedRecord](s *State, kind string, list *Ordered[R], key string) {
	list.remove(key)
	s.ch.put(kind, key, nil)
}

// putEntry puts r in a map of records of kind under k.
func putEntry[R storedRecord](s *State, kind string, m map[string]R, k string, r R) {
	m[k] = r
	s.ch.put(kind, r.key(), r)
}

// alertKind is the kind of an alert's record.
func alertKind(r *alert.Rec) string {
	if r.Project == "" {
		return "globalAlerts"
	}
	return "alerts"
}

// SetAlert gives a stored alert its new document; its place among its
// set's statuses follows the document's.
func (s *State) SetAlert(r *alert.Rec, d *alert.Doc) {
	r.Cur = d
	s.ch.put(alertKind(r), d.ID, d)
	s.setStatus(r, d.Status)
}

// setStatus moves an alert to status in its set's index.
func (s *State) setStatus(r *alert.Rec, status string) {
	set := s.globalAlerts
	if r.Project != "" {
		set = s.alerts[r.Project]
	}
	set.SetStatus(r, status)
}

// RaiseAlert adds a new alert, of its project or global, created now
// unless it says otherwise.
func (s *State) RaiseAlert(d *alert.Doc, global bool, now time.Time) *alert.Rec {
	rec := s.alertRecord(d, now)
	r := &rec
	set := s.globalAlerts
	if global {
		r.Project = ""
		s.globalAlertIDs[r.Cur.ID] = r
	} else {
		if s.alerts[r.Project] == nil {
			s.alerts[r.Project] = alert.NewSet(nil)
		}
		set = s.alerts[r.Project]
		s.alertByID[r.Cur.ID] = r
	}
	if set.Add(r) {
		s.staleAlerts = append(s.staleAlerts, set)
	}
	s.ch.put(alertKind(r), r.Cur.ID, r.Cur)
	return r
}

// AlertOf is the stored alert a change of kind "alerts" or "globalAlerts"
// names, nil for none.
func (s *State) AlertOf(kind, id string) *alert.Rec {
	if kind == "globalAlerts" {
		return s.globalAlertIDs[id]
	}
	return s.alertByID[id]
}

// putKey records that an API key, or its access list, changed.
func (s *State) putKey(k *APIKey) { s.ch.put("apiKeys", k.ID, k) }

// countKeyUse records that a key's access list entries were used (their
// counts and last use), which leaves sign-in as it was: each request of a
// listed key does it.
func (s *State) countKeyUse(k *APIKey) { s.ch.note("apiKeys", k.ID, k) }

// PutSchedule records that the schedule of an alert (by its id) is new or
// changed: the engine's own records, written as sched.Encoded() is when
// committed.
func (s *State) PutSchedule(id string, sched Encoder) { s.ch.put(fixture.SchedulesKind, id, sched) }

// RemoveSchedule records that an alert's schedule ended.
func (s *State) RemoveSchedule(id string) { s.ch.put(fixture.SchedulesKind, id, nil) }

// Encoder is a record that changes in place, read when it is committed.
type Encoder interface {
	// Encoded is the record as the state file is to hold it now.
	Encoded() any
}

// AllRecords is every record of the data, to write it whole (with the
// engine's: Engine.records).
func (s *State) AllRecords() (recs []Change) {
	for kind, item := range s.Fixtures().Each() {
		key := ""
		if a, ok := item.(*alert.Doc); ok {
			key = a.ID
		} else {
			key = recordKey(kind, item.(doc))
		}
		recs = append(recs, Change{Kind: kind, Key: key, Rec: item})
	}
	return recs
}

// docOf is the document of a change's record, nil for none.
func docOf(rec any) doc {
	switch r := rec.(type) {
	case doc:
		return r
	case storedRecord:
		return r.raw()
	}
	return nil
}

// The Store's hold on the recorder: a write begins, runs, is read back or
// dropped; the batch's changes are taken at the commit.

// Begin starts a write's changes.
func (s *State) Begin() { s.ch.begin() }

// Written is the running write's changes, as they are now.
func (s *State) Written() []Change { return s.ch.write() }

// DropWrite forgets the running write's changes (it panicked).
func (s *State) DropWrite() { s.ch.dropWrite() }

// WasReset reports whether the running write reset the data (ResetTo).
func (s *State) WasReset() bool { return s.ch.reset }

// As has the changes made until restore is called recorded as by's.
func (s *State) As(by Origin) (restore func()) { return s.ch.as(by) }

// ChangeAll records that all the data changed (a new state file).
func (s *State) ChangeAll() { s.ch.setAll() }

// TakeChanges returns the batch's changes, each record once, in the order
// it first changed, as the batch left it, and whether all the data
// changed; and forgets them.
func (s *State) TakeChanges() ([]Change, bool) { return s.ch.take() }

// TakeSignIns reports whether an API key or a user changed in a way
// sign-in sees since it was last asked, and forgets it.
func (s *State) TakeSignIns() bool { return s.ch.takeSignIns() }

// Encode is a change's record as the state file holds it (nil: removed).
func Encode(c Change) ([]byte, error) {
	var v any
	switch rec := c.Rec.(type) {
	case nil:
		return nil, nil
	case *alert.Doc:
		return rec.Raw, nil
	case *APIKey:
		v = rec.fixture()
	case Encoder:
		v = rec.Encoded()
	case storedRecord:
		v = rec.raw()
	default:
		v = rec
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("%s %s cannot be encoded: %v", c.Kind, c.Key, err)
	}
	return data, nil
}
