package store

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/omctl/omctl/internal/store/statelog"
)

// What changed since the last commit to the state file: the data records
// it here, and the commit takes it (Store.takeBatch).

type recordRef struct{ kind, key string }

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

// touch records that a resource changed, for the state file.
func (s *State) touch(kind string, r storedRecord) {
	s.touchRef(recordRef{kind, r.key()}, func() any { return r.raw() })
}

// forget records that a resource was removed, for the state file.
func (s *State) forget(kind, key string) {
	s.touchRef(recordRef{kind, key}, func() any { return nil })
}

// TouchKey records that an API key (or its access list) changed.
func (s *State) TouchKey(k *APIKey) {
	s.touchRef(recordRef{"apiKeys", k.ID}, func() any { return k.fixture() })
}

// TouchKeyUse records that a key's access list entries were used (their
// counts and last use), which leaves sign-in as it was: each request of a
// listed key does it.
func (s *State) TouchKeyUse(k *APIKey) {
	s.touchRecord(recordRef{"apiKeys", k.ID}, func() any { return k.fixture() })
}

// touchAlert records that an alert changed.
func (s *State) touchAlert(r *AlertRec) {
	kind := "alerts"
	if r.Project == "" {
		kind = "globalAlerts"
	}
	s.touchRef(recordRef{kind, r.Cur.ID}, func() any { return r.Cur })
	s.noteAlertChanged(r)
}

func (s *State) touchRef(ref recordRef, get func() any) {
	if ref.kind == "apiKeys" || ref.kind == "users" {
		s.signInsChanged = true
	}
	s.touchRecord(ref, get)
}

// touchRecord is touchRef for a change that leaves sign-in as it was.
func (s *State) touchRecord(ref recordRef, get func() any) {
	if s.dirty == nil {
		s.dirty = map[recordRef]func() any{}
	}
	if _, seen := s.dirty[ref]; !seen {
		s.dirtyOrder = append(s.dirtyOrder, ref)
	}
	s.dirty[ref] = get
}

// touchAll records that everything changed (reset, or a new state file).
func (s *State) touchAll() { s.dirtyAll, s.signInsChanged = true, true }

// takeChanges returns what changed, in the order it changed, and forgets it.
func (s *State) takeChanges() (recs []record, all bool) {
	if s.dirtyAll {
		recs = s.allRecords()
	} else {
		for _, ref := range s.dirtyOrder {
			recs = append(recs, record{ref.kind, ref.key, s.dirty[ref]()})
		}
	}
	all = s.dirtyAll
	s.dirty, s.dirtyOrder, s.dirtyAll = nil, nil, false
	return recs, all
}

// dropChanges forgets what changed, with no log to commit it to.
func (s *State) dropChanges() {
	s.dirty, s.dirtyOrder, s.dirtyAll = nil, nil, false
}

// allRecords is every record of the data, to write it whole.
func (s *State) allRecords() (recs []record) {
	f := s.Fixtures()
	lists := f.lists()
	for _, kind := range fixtureKeys {
		switch kind {
		case "alerts", "globalAlerts":
			alerts := f.Alerts
			if kind == "globalAlerts" {
				alerts = f.GlobalAlerts
			}
			for _, a := range alerts {
				recs = append(recs, record{kind, a.ID, a})
			}
		default:
			for _, d := range *lists[kind] {
				recs = append(recs, record{kind, recordKey(kind, d), d})
			}
		}
	}
	for r, sched := range s.engine.schedules {
		recs = append(recs, record{schedulesKind, r.Cur.ID, sched.record()})
	}
	return recs
}

// record is one resource to write: its kind (a fixture key), its key
// within the kind, and its document (nil to delete it).
type record struct {
	kind, key string
	doc       any // a doc or an *AlertDoc
}

// encodeBatch encodes what changed (under the data lock), with the clock
// to resume.
func encodeBatch(recs []record, replaceAll bool, clock *Clock) (*statelog.Batch, error) {
	b := &statelog.Batch{ReplaceAll: replaceAll, Records: make([]statelog.Record, 0, len(recs))}
	if clock.Virtual() {
		b.Meta = map[string]string{metaClockKey: clock.Now().Format(time.RFC3339Nano)}
	} else if d := clock.Offset(); d != 0 {
		b.Meta = map[string]string{metaOffsetKey: d.String()}
	}
	for _, r := range recs {
		er := statelog.Record{Kind: r.kind, Key: r.key}
		switch d := r.doc.(type) {
		case nil:
		case *AlertDoc:
			er.Value = d.Raw
		default:
			data, err := json.Marshal(d)
			if err != nil {
				return nil, fmt.Errorf("%s %s cannot be encoded: %v", r.kind, r.key, err)
			}
			er.Value = data
		}
		b.Records = append(b.Records, er)
	}
	return b, nil
}
