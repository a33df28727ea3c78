package server

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/faults"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/server/journal"
)

// injectFault applies the first fault matching an API request, after its
// authentication and access list and before its handler, and reports
// whether the answer is decided: then the handler does not run, and the
// request changes nothing. The delay holds no lock; a reset closes the
// connection without an answer.
func (s *Server) injectFault(c *reqCtx) bool {
	if !api.IsAPIPath(c.r.URL.Path) {
		return false
	}
	f := s.faults.Take(c.r.Method, strings.TrimPrefix(c.r.URL.Path, apiBase))
	if f == nil {
		return false
	}
	if f.Hold() > 0 {
		t := time.NewTimer(f.Hold())
		select {
		case <-t.C:
		case <-c.r.Context().Done():
			t.Stop()
			panic(http.ErrAbortHandler) // the client is gone: nobody to answer
		}
	}
	switch {
	case f.Reset:
		panic(http.ErrAbortHandler)
	case f.Status != 0:
		if f.RetryAfter != nil {
			c.header.Set("Retry-After", strconv.FormatInt(*f.RetryAfter, 10))
		}
		c.fail(httpx.New(f.Status, f.ErrorCode,
			fmt.Sprintf("The server is answering %d %s: fault %s matches %s %s.", f.Status, f.ErrorCode, f.ID, c.r.Method, c.r.URL.Path),
			f.ID))
		return true
	}
	return false
}

// addFault adds a fault (api.AddFault).
func (s *Server) addFault(c *reqCtx) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	body, err := c.readObject()
	if err != nil {
		return err
	}
	f, err := faults.Parse(body)
	if err != nil {
		return err
	}
	s.faults.Add(f)
	c.writeRaw(http.StatusOK, rules.EncodeJSON(f))
	return nil
}

// clearFaults removes every fault (api.ClearFaults).
func (s *Server) clearFaults(c *reqCtx) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	s.faults.Clear()
	c.writeRaw(http.StatusOK, []byte(`{}`))
	return nil
}

// listFaults lists the faults in the order they were added (api.ListFaults).
func (s *Server) listFaults(c *reqCtx) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	p, err := c.page()
	if err != nil {
		return err
	}
	all := s.faults.Encoded()
	from := min(p.Offset(), len(all))
	c.listRaw(all[from:min(from+p.Size, len(all))], len(all), p)
	return nil
}

// removeFault removes one fault (api.RemoveFault).
func (s *Server) removeFault(c *reqCtx) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	if !s.faults.Remove(c.r.PathValue("fault_id")) {
		return httpx.ResourceNotFound(c.r.URL.Path)
	}
	c.writeRaw(http.StatusOK, []byte(`{}`))
	return nil
}

// admit notes the caller of an authenticated API request in the journal
// and applies --rate-limit to it. It returns false when c holds the
// answer: 429 RATE_LIMITED with Retry-After.
func (s *Server) admit(c *reqCtx) bool {
	journal.NoteCaller(c.r, c.caller.Name)
	if s.limiter == nil || !api.IsAPIPath(c.r.URL.Path) {
		return true
	}
	ok, after := s.limiter.Allow(c.caller.Name)
	if ok {
		return true
	}
	c.header.Set("Retry-After", strconv.Itoa(after))
	c.fail(httpx.New(http.StatusTooManyRequests, "RATE_LIMITED",
		fmt.Sprintf("Too many requests: %s may send %d a second; retry after %d s.", c.caller.Name, s.limiter.PerSecond(), after),
		c.caller.Name, s.limiter.PerSecond()))
	return false
}
