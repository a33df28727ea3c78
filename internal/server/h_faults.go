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
	"github.com/omctl/omctl/internal/server/handlers"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/server/journal"
)

// injectFault applies the first fault matching an API request, after its
// authentication and access list and before its handler, and reports
// whether the answer is decided: then the handler does not run, and the
// request changes nothing. The delay holds no lock; a reset closes the
// connection without an answer.
func (s *Server) injectFault(c *handlers.Ctx) bool {
	if !api.IsAPIPath(c.R.URL.Path) {
		return false
	}
	f := s.faults.Take(c.R.Method, strings.TrimPrefix(c.R.URL.Path, apiBase))
	if f == nil {
		return false
	}
	if f.Hold() > 0 {
		t := time.NewTimer(f.Hold())
		select {
		case <-t.C:
		case <-c.R.Context().Done():
			t.Stop()
			panic(http.ErrAbortHandler) // the client is gone: nobody to answer
		}
	}
	switch {
	case f.Reset:
		panic(http.ErrAbortHandler)
	case f.Status != 0:
		if f.RetryAfter != nil {
			c.Header.Set("Retry-After", strconv.FormatInt(*f.RetryAfter, 10))
		}
		c.Fail(httpx.New(f.Status, f.ErrorCode,
			fmt.Sprintf("The server is answering %d %s: fault %s matches %s %s.", f.Status, f.ErrorCode, f.ID, c.R.Method, c.R.URL.Path),
			f.ID))
		return true
	}
	return false
}

// addFault adds a fault (api.AddFault).
func (s *Server) addFault(c *handlers.Ctx) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	body, err := c.ReadObject()
	if err != nil {
		return err
	}
	f, err := faults.Parse(body)
	if err != nil {
		return err
	}
	s.faults.Add(f)
	c.WriteRaw(http.StatusOK, rules.EncodeJSON(f))
	return nil
}

// clearFaults removes every fault (api.ClearFaults).
func (s *Server) clearFaults(c *handlers.Ctx) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	s.faults.Clear()
	c.WriteRaw(http.StatusOK, []byte(`{}`))
	return nil
}

// listFaults lists the faults in the order they were added (api.ListFaults).
func (s *Server) listFaults(c *handlers.Ctx) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	p, err := c.Page()
	if err != nil {
		return err
	}
	all := s.faults.Encoded()
	from := min(p.Offset(), len(all))
	c.ListRaw(all[from:min(from+p.Size, len(all))], len(all), p)
	return nil
}

// removeFault removes one fault (api.RemoveFault).
func (s *Server) removeFault(c *handlers.Ctx) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	if !s.faults.Remove(c.R.PathValue("fault_id")) {
		return httpx.ResourceNotFound(c.R.URL.Path)
	}
	c.WriteRaw(http.StatusOK, []byte(`{}`))
	return nil
}

// admit notes the caller of an authenticated API request in the journal
// and applies --rate-limit to it. It returns false when c holds the
// answer: 429 RATE_LIMITED with Retry-After.
func (s *Server) admit(c *handlers.Ctx) bool {
	journal.NoteCaller(c.R, c.Caller.Name)
	if s.limiter == nil || !api.IsAPIPath(c.R.URL.Path) {
		return true
	}
	ok, after := s.limiter.Allow(c.Caller.Name)
	if ok {
		return true
	}
	c.Header.Set("Retry-After", strconv.Itoa(after))
	c.Fail(httpx.New(http.StatusTooManyRequests, "RATE_LIMITED",
		fmt.Sprintf("Too many requests: %s may send %d a second; retry after %d s.", c.Caller.Name, s.limiter.PerSecond(), after),
		c.Caller.Name, s.limiter.PerSecond()))
	return false
}
