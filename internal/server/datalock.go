package server

import (
	"errors"
	"net/http"
	"sync"

	"github.com/omctl/omctl/internal/server/handlers"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/engine"
	"github.com/omctl/omctl/internal/store/model"
)

// locked runs a handler with the data (c.st): a GET only reads, so GETs
// run side by side once the TRACKING alerts due to open by now are
// opened; anything else changes data, committed before the answer (and,
// with wait, once the first attempt of each webhook it queued is done).
func (s *Server) locked(c *handlers.Ctx, h handlers.Func, wait bool) error {
	if c.R.Method != http.MethodGet {
		if len(c.Body) > 0 && c.R.Method != http.MethodDelete {
			// Not under the lock: a batch of writes runs its writers'
			// handlers one after another, and a 60 KB body takes
			// 0.8 ms to decode (docs/performance.md). No DELETE of the
			// API reads a body: one sent is not worth decoding.
			c.ReadBody()
		}
		var firstAttempts *sync.WaitGroup
		if wait {
			firstAttempts = &sync.WaitGroup{}
			defer firstAttempts.Wait()
		}
		return s.change(func(tx *engine.Tx) error {
			tx.PromoteAll(s.clock.Now())
			c.St, c.Tx = tx.State, tx
			return h(c)
		}, firstAttempts)
	}
	out, err := s.store.OpenDue(s.clock.Now())
	if err != nil {
		return s.storeFailed(err)
	}
	s.afterChange(out, nil)
	return s.reading(func(st *model.State) error { c.St = st; return h(c) })
}

// reading runs fn with the data under the read lock.
func (s *Server) reading(fn func(*model.State) error) error {
	var aerr error
	if err := s.store.View(func(st *model.State) { aerr = fn(st) }); err != nil {
		return s.storeFailed(err)
	}
	return aerr
}

// withData runs fn with the data to change, which the store commits to
// the state file before returning, so nothing is answered 2xx before it
// is on disk. Notifications fn recorded are in the log when it returns;
// their webhooks are queued for the delivery workers.
func (s *Server) withData(fn func(*engine.Tx) error) error { return s.change(fn, nil) }

// change is withData; the first attempt of each webhook delivery fn
// queued is counted in firstAttempts (when not nil), for the caller to
// wait for.
func (s *Server) change(fn func(*engine.Tx) error, firstAttempts *sync.WaitGroup) error {
	var aerr error
	out, err := s.store.Update(func(tx *engine.Tx) { aerr = fn(tx) })
	if err != nil {
		return s.storeFailed(err)
	}
	s.afterChange(out, firstAttempts)
	return aerr
}

// afterChange queues the webhooks of a change (its notifications are in
// the log already: Server.published), and keeps the engine's loop running
// while anything is due.
func (s *Server) afterChange(out store.Outcome, firstAttempts *sync.WaitGroup) {
	if out.PublishPanic != nil {
		s.logf("recording what a change set off: %v", out.PublishPanic)
	}
	s.deliver(out.Deliveries, firstAttempts)
	if out.Pending && !s.clock.Virtual() {
		s.startTicker()
	}
}

// storeFailed logs why the store could not read or change the data (a bug,
// or a state file that cannot be written) and answers 500: one bad
// request never stops the server.
func (s *Server) storeFailed(err error) error {
	s.logf("%v", err)
	var cerr *store.CommitError
	if errors.As(err, &cerr) {
		return httpx.New(http.StatusInternalServerError, "UNEXPECTED_ERROR", "The change could not be saved to the state file.")
	}
	var uerr *store.UnreadableError
	if errors.As(err, &uerr) {
		return httpx.New(http.StatusInternalServerError, "UNEXPECTED_ERROR",
			"A change could not be saved, and the state file cannot be read back to undo it: changes are refused until it can be (reads are served what it holds).")
	}
	return httpx.Unexpected()
}
