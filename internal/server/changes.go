package server

// What changed since the last commit to the state file: the data records
// it here, and the commit takes it (datalock.go).

type recordRef struct{ kind, key string }

// recordKey names a resource within its kind in the state file.
func recordKey(kind string, d doc) string {
	switch kind {
	case "backupConfigs":
		return key2(d["groupId"].(string), d["clusterId"].(string))
	case "users":
		return d["username"].(string)
	}
	return d["id"].(string)
}

// touch records that a resource changed, for the state file.
func (s *state) touch(kind string, d doc) {
	s.touchRef(recordRef{kind, recordKey(kind, d)}, func() any { return d })
}

// forget records that a resource was removed, for the state file.
func (s *state) forget(kind, key string) {
	s.touchRef(recordRef{kind, key}, func() any { return nil })
}

// touchKey records that an API key (or its access list) changed.
func (s *state) touchKey(k *apiKey) {
	s.touchRef(recordRef{"apiKeys", k.doc["id"].(string)}, func() any { return k.fixture() })
}

// touchAlert records that an alert changed.
func (s *state) touchAlert(r *alertRec) {
	kind := "alerts"
	if r.project == "" {
		kind = "globalAlerts"
	}
	s.touchRef(recordRef{kind, r.cur.ID}, func() any { return r.cur })
}

func (s *state) touchRef(ref recordRef, get func() any) {
	if s.dirty == nil {
		s.dirty = map[recordRef]func() any{}
	}
	if _, seen := s.dirty[ref]; !seen {
		s.dirtyOrder = append(s.dirtyOrder, ref)
	}
	s.dirty[ref] = get
}

// touchAll records that everything changed (reset, or a new state file).
func (s *state) touchAll() { s.dirtyAll = true }

// takeChanges returns what changed, in the order it changed, and forgets it.
func (s *state) takeChanges() (recs []record, all bool) {
	if s.dirtyAll {
		f := s.fixtures()
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
	} else {
		for _, ref := range s.dirtyOrder {
			recs = append(recs, record{ref.kind, ref.key, s.dirty[ref]()})
		}
	}
	all = s.dirtyAll
	s.dirty, s.dirtyOrder, s.dirtyAll = nil, nil, false
	return recs, all
}
