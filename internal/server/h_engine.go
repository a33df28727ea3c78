package server

import (
	"fmt"
	"net/http"
	"sync"
	"time"
)

// controlEvents reports conditions to the alert engine (POST
// /_omctl/events) and answers every alert they opened, changed or closed.
func (s *Server) controlEvents(c *reqCtx) *apiError {
	if err := c.caller.authorizeGlobalOwner(); err != nil {
		return err
	}
	body, err := c.readBody()
	if err != nil {
		return err
	}
	conds, err := parseConditions(body)
	if err != nil {
		return err
	}
	for _, cond := range conds {
		if s.st.projects[cond.project] == nil {
			return errNotFound("GROUP_NOT_FOUND", fmt.Sprintf("Item %d: no group with ID %s exists.", cond.index, cond.project), cond.index, cond.project)
		}
	}
	c.lastBase()
	now := s.clock.Now()
	var changed []*alertRec
	seen := map[*alertRec]bool{}
	for _, cond := range conds {
		for _, r := range s.st.apply(cond, now) {
			if !seen[r] {
				seen[r] = true
				changed = append(changed, r)
			}
		}
	}
	// What is due at once (a delay of 0) is sent before the answer.
	s.st.runUntil(now)
	items := make([][]byte, len(changed))
	for i, r := range changed {
		items[i] = c.renderAlert(r)
	}
	out := []byte(`{"alerts":[`)
	for i, it := range items {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, it...)
	}
	c.writeRaw(http.StatusOK, append(out, "]}"...))
	return nil
}

// controlNotifications lists the notification log, oldest first.
func (s *Server) controlNotifications(c *reqCtx) *apiError {
	if err := c.caller.authorizeGlobalOwner(); err != nil {
		return err
	}
	q := c.r.URL.Query()
	for k := range q {
		switch k {
		case "alertId", "groupId", "typeName", "event", "pageNum", "itemsPerPage", "pretty", "envelope":
		default:
			return errInvalidQuery(k, q.Get(k), "the filters are alertId, groupId, typeName and event")
		}
	}
	p, err := c.page()
	if err != nil {
		return err
	}
	filters := map[string]func(*notification) string{
		"alertId": func(n *notification) string { return n.AlertID }, "groupId": func(n *notification) string { return n.GroupID },
		"typeName": func(n *notification) string { return n.TypeName }, "event": func(n *notification) string { return n.Event },
	}
	all := s.notes.list(func(n *notification) bool {
		for k, get := range filters {
			if v := q.Get(k); v != "" && get(n) != v {
				return false
			}
		}
		return true
	})
	start := min(p.offset(), len(all))
	end := min(start+p.size, len(all))
	items := make([][]byte, 0, end-start)
	for i := range all[start:end] {
		items = append(items, encodeJSON(&all[start+i]))
	}
	c.listRaw(items, len(all), p)
	return nil
}

// waitForDeliveries says whether a request waits for the first attempt of
// the webhooks it causes: the controls that move time or report events do.
func (c *reqCtx) waitForDeliveries() bool {
	return c.r.URL.Path == "/_omctl/events" || c.r.URL.Path == "/_omctl/clock"
}

// lastBase remembers the base URL clients reach the server at, for the
// links of alerts sent by webhook.
func (c *reqCtx) lastBase() { c.s.base.Store(c.baseURL()) }

// deliver sends webhook deliveries once the data lock is released: each
// carries the alert as GET showed it when the notification was recorded.
func (s *Server) deliver(ds []*delivery, wait bool) {
	if len(ds) == 0 {
		return
	}
	base, _ := s.base.Load().(string)
	now := s.clock.Now()
	var wg sync.WaitGroup
	for _, d := range ds {
		d.body = alertJSON(&alertRec{cur: d.cur, project: d.alert.project}, base, now)
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

// engineTick is how often the engine looks for what fell due on the real
// clock.
const engineTick = 200 * time.Millisecond

// startTicker runs the engine on the real clock while it has anything
// pending: due notifications are sent within a second.
func (s *Server) startTicker() {
	if !s.ticking.CompareAndSwap(false, true) {
		return
	}
	go func() {
		t := time.NewTicker(engineTick)
		defer t.Stop()
		for range t.C {
			pending := false
			s.withData(func() *apiError {
				s.st.runUntil(s.clock.Now())
				pending = s.st.pending()
				return nil
			})
			if pending {
				continue
			}
			s.ticking.Store(false)
			// A change may have found the loop still running just now.
			s.mu.RLock()
			pending = s.st.pending()
			s.mu.RUnlock()
			if !pending || !s.ticking.CompareAndSwap(false, true) {
				return
			}
		}
	}()
}
