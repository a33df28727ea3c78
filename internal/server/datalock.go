package server

import (
	"net/http"
	"runtime/debug"
)

// locked runs a handler under the data lock (see withData). A GET only
// reads, so GETs run side by side; the TRACKING alerts due to open by now
// are opened first.
func (s *Server) locked(c *reqCtx, h handlerFunc) *apiError {
	if c.r.Method != http.MethodGet {
		return s.change(func() *apiError {
			s.st.promoteAll(s.clock.Now())
			return h(c)
		}, c.waitForDeliveries())
	}
	if err := s.openDueAlerts(); err != nil {
		return err
	}
	return s.reading(func() *apiError { return h(c) })
}

// reading runs fn under the read lock, a panic answering 500.
func (s *Server) reading(fn func() *apiError) (err *apiError) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	defer func() {
		if v := recover(); v != nil {
			s.logf("panic: %v\n%s", v, debug.Stack())
			err = errUnexpected()
		}
	}()
	return fn()
}

// openDueAlerts opens the TRACKING alerts whose delay has passed, taking
// the write lock only when there are some.
func (s *Server) openDueAlerts() *apiError {
	now := s.clock.Now()
	s.mu.RLock()
	due := s.st.anyDue(now)
	s.mu.RUnlock()
	if !due {
		return nil
	}
	return s.withData(func() *apiError { s.st.promoteAll(now); return nil })
}

// withData runs fn under the data lock, then commits what it changed to
// the state file before returning, so nothing is answered 2xx before it is
// on disk. A bug that panics answers 500 with the error body and is
// logged; the lock is released whatever happens, so one bad request
// cannot stop the server. The commit itself runs outside the data lock,
// in the order the changes were made. Notifications fn recorded are in the
// log when it returns; their webhooks are sent in the background.
func (s *Server) withData(fn func() *apiError) *apiError { return s.change(fn, false) }

// change is withData; with wait, it returns only once the first attempt
// of every webhook delivery fn caused has been answered or has failed.
func (s *Server) change(fn func() *apiError, wait bool) *apiError {
	out := s.runLocked(fn)
	err := out.err
	if out.batch != nil {
		cerr := s.opts.State.commit(out.batch)
		s.commitMu.Unlock()
		if cerr != nil {
			s.logf("state file %s: the change could not be saved: %v", s.opts.State.Path(), cerr)
			return newError(http.StatusInternalServerError, "UNEXPECTED_ERROR", "The change could not be saved to the state file.")
		}
	}
	s.notes.add(out.notes)
	s.deliver(out.deliveries, wait)
	if out.pending && !s.clock.Virtual() {
		s.startTicker()
	}
	return err
}

// locked is what runLocked hands back: the handler's error, the change to
// commit (with commitMu held), and what the engine recorded.
type lockedResult struct {
	err        *apiError
	batch      *batch
	notes      []*notification
	deliveries []*delivery
	pending    bool
}

// runLocked runs fn under mu. When it changed data and there is a state
// file, the encoded change comes back with commitMu held.
func (s *Server) runLocked(fn func() *apiError) (out lockedResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() {
		if v := recover(); v != nil {
			s.logf("panic: %v\n%s", v, debug.Stack())
			out = lockedResult{err: errUnexpected()}
		}
	}()
	out.err = fn()
	out.notes, out.deliveries = s.st.takeNotifications()
	out.pending = len(s.st.engine.schedules) > 0 && s.st.pending()
	if s.opts.State == nil {
		return out
	}
	recs, all := s.st.takeChanges()
	if len(recs) == 0 && !all && !s.clockMoved() {
		return out
	}
	b, eerr := encodeBatch(recs, all, s.clock)
	if eerr != nil {
		s.logf("state file: %v", eerr)
		return lockedResult{err: errUnexpected()}
	}
	s.commitMu.Lock()
	out.batch = b
	return out
}

// clockMoved reports whether the virtual clock moved since it was last
// saved (under mu).
func (s *Server) clockMoved() bool {
	if !s.clock.Virtual() {
		return false
	}
	now := s.clock.Now()
	if now.Equal(s.savedClock) {
		return false
	}
	s.savedClock = now
	return true
}
