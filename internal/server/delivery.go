package server

import (
	"sync"

	"github.com/omctl/omctl/internal/server/handlers"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/engine"
)

// Webhook deliveries leave once the data lock is released (docs/server.md,
// Alert engine); notify.go sends them.

// deliver queues webhook deliveries once the data lock is released: each
// carries the alert as GET showed it when the notification was recorded.
// The first attempt of each one queued is counted in firstAttempts (when
// not nil); one the queue has no room for is FAILED at once, and needs no
// body.
func (s *Server) deliver(ds []*engine.Delivery, firstAttempts *sync.WaitGroup) {
	if len(ds) == 0 {
		return
	}
	base, _ := s.base.Load().(string)
	now := s.clock.Now()
	for _, d := range ds {
		s.hooks.Send(d, firstAttempts, func() []byte {
			return handlers.AlertJSON(&alert.Rec{Cur: d.Cur(), Project: d.Alert.Project}, base, now)
		})
	}
}
