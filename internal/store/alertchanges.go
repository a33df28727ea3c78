package store

// The alerts a write changed, for what follows the data beside the store
// (the server's event stream): touchAlert, the one point every change of
// an alert goes through on its way to the state file, notes each here
// too, and the write's Outcome takes them once it has run (runLocked).

// noteAlertChanged records that a write changed r (under the lock).
func (s *State) noteAlertChanged(r *AlertRec) {
	s.alertsChanged = append(s.alertsChanged, r)
}

// takeAlertChanges returns the alerts changed since the last call, each
// once, in the order they first changed, as they are now (Cur and
// Project alone: what GET shows of them), and forgets them.
func (s *State) takeAlertChanges() []AlertRec {
	changed := s.alertsChanged
	s.alertsChanged = nil
	if len(changed) == 0 {
		return nil
	}
	out := make([]AlertRec, 0, len(changed))
	if len(changed) == 1 {
		return append(out, AlertRec{Cur: changed[0].Cur, Project: changed[0].Project})
	}
	seen := make(map[*AlertRec]struct{}, len(changed))
	for _, r := range changed {
		if _, dup := seen[r]; dup {
			continue
		}
		seen[r] = struct{}{}
		out = append(out, AlertRec{Cur: r.Cur, Project: r.Project})
	}
	return out
}
