package server

import (
	"sync"

	"github.com/omctl/omctl/internal/store"
)

// Webhook deliveries leave once the data lock is released (docs/server.md,
// Alert engine); notify.go sends them.

// lastBase remembers the base URL clients reach the server at, for the
// links of alerts sent by webhook.
func (c *reqCtx) lastBase() { c.s.base.Store(c.baseURL()) }

// deliver sends webhook deliveries once the data lock is released: each
// carries the alert as GET showed it when the notification was recorded.
func (s *Server) deliver(ds []*store.Delivery, wait bool) {
	if len(ds) == 0 {
		return
	}
	base, _ := s.base.Load().(string)
	now := s.clock.Now()
	var wg sync.WaitGroup
	for _, d := range ds {
		d.Body = alertJSON(&store.AlertRec{Cur: d.Cur, Project: d.Alert.Project}, base, now)
		if !wait {
			s.hooks.send(d, false)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.hooks.send(d, true)
		}()
	}
	wg.Wait()
}
