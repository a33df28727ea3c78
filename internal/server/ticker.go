package server

import (
	"time"

	"github.com/omctl/omctl/internal/store/engine"
)

// engineTick is how often the engine looks for what fell due on the real
// clock.
const engineTick = 200 * time.Millisecond

// startTicker runs the engine on the real clock while it has anything
// pending: due notifications are sent within a second.
func (s *Server) startTicker() {
	if !s.ticking.CompareAndSwap(false, true) {
		return
	}
	s.loopMu.Lock()
	defer s.loopMu.Unlock()
	if s.closed {
		return
	}
	s.loops.Add(1)
	go func() {
		defer s.loops.Done()
		wait := engineTick
		for {
			select {
			case <-s.tickAfter(wait):
			case <-s.stop:
				return
			}
			pending := false
			if s.withData(func(st *engine.Tx) error {
				st.RunUntil(s.clock.Now())
				pending = st.Pending()
				return nil
			}) != nil {
				// Not applied (a full disk, say): the work is still due, but
				// each failed commit rebuilds the data from the state file
				// under the lock, so tries come less and less often.
				wait = min(2*wait, maxTickBackoff)
				continue
			}
			wait = engineTick
			if pending {
				continue
			}
			s.ticking.Store(false)
			// A change may have found the loop still running just now.
			// (Pending drops stale entries of the engine's queues: under
			// the write lock.)
			s.withData(func(st *engine.Tx) error { pending = st.Pending(); return nil })
			if !pending || !s.ticking.CompareAndSwap(false, true) {
				return
			}
		}
	}()
}

// maxTickBackoff bounds how long the engine's loop waits before it tries
// again a tick that could not be saved.
const maxTickBackoff = 30 * time.Second
