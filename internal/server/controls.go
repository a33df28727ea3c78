package server

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store"
)

// control serves a test control that does not touch the data: like api,
// but its handler runs without the data lock, and only for a GLOBAL_OWNER.
// Controls are neither journaled, rate limited nor faulted.
func (s *Server) control(methods map[string]handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		caller := s.authenticate(w, r)
		if caller == nil {
			return
		}
		c := &reqCtx{r: r, s: s, caller: caller, header: w.Header()}
		c.readRequestBody(w)
		if err := s.serveControl(c, methods); err != nil {
			c.fail(err)
		}
		c.flush(w)
	})
}

func (s *Server) serveControl(c *reqCtx, methods map[string]handlerFunc) *apiError {
	if err := s.checkAccessList(c); err != nil {
		return err
	}
	var err *apiError
	if c.pretty, err = c.boolQuery("pretty", false); err != nil {
		return err
	}
	if c.envelope, err = c.boolQuery("envelope", false); err != nil {
		return err
	}
	h, ok := methods[c.r.Method]
	if !ok {
		allowed := strings.Join(rules.SortedKeys(methods), ", ")
		c.header.Set("Allow", allowed)
		return newError(http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED",
			fmt.Sprintf("Method %s is not allowed on %s; allowed: %s.", c.r.Method, c.r.URL.Path, allowed), c.r.Method)
	}
	if err := authorizeGlobalOwner(c.caller); err != nil {
		return err
	}
	return h(c)
}

// onlyQuery refuses query parameters a control does not take, besides
// paging, pretty and envelope: a misspelt filter is an error, not ignored.
func onlyQuery(c *reqCtx, names ...string) *apiError {
	for _, k := range rules.SortedKeys(c.r.URL.Query()) {
		if !slices.Contains(names, k) && !slices.Contains([]string{"pageNum", "itemsPerPage", "pretty", "envelope"}, k) {
			allowed := append(names, "pageNum", "itemsPerPage", "pretty", "envelope")
			return errInvalidQuery(k, c.r.URL.Query().Get(k), "this control takes "+strings.Join(allowed, ", "))
		}
	}
	return nil
}

func (s *Server) controlReset(c *reqCtx) *apiError {
	if err := authorizeGlobalOwner(c.caller); err != nil {
		return err
	}
	s.resetLocked(c.st)
	c.writeJSON(http.StatusOK, map[string]any{"reset": true, "now": rules.FormatTime(s.clock.Now())})
	return nil
}

func (s *Server) controlClock(c *reqCtx) *apiError {
	if err := authorizeGlobalOwner(c.caller); err != nil {
		return err
	}
	if c.r.Method == http.MethodPost {
		body, err := c.readObject()
		if err != nil {
			return err
		}
		if err := (rules.Schema{"advance": rules.Str(), "set": rules.Timestamp()}).Check(body, "", nil); err != nil {
			return fromRule(err)
		}
		if v, ok := body["advance"].(string); ok {
			d, perr := time.ParseDuration(v)
			if perr != nil || d < 0 {
				return errBadRequest("INVALID_JSON_ATTRIBUTE", fmt.Sprintf("advance %q is not a positive duration such as 15m or 2h.", v), "advance")
			}
			if err := s.clock.Advance(d); err != nil {
				return errBadRequest("INVALID_JSON_ATTRIBUTE", fmt.Sprintf("advance %s: %v.", v, err), "advance")
			}
		}
		if v, ok := body["set"].(string); ok {
			t, _ := rules.ParseTimestamp(v)
			if err := s.clock.Set(t); err != nil {
				return errBadRequest("INVALID_JSON_ATTRIBUTE", fmt.Sprintf("set: %v.", err), "set")
			}
		}
	}
	if c.r.Method == http.MethodPost {
		// Everything due by the new time happens before the answer.
		c.lastBase()
		c.st.RunUntil(s.clock.Now())
	}
	c.writeJSON(http.StatusOK, map[string]any{"now": rules.FormatTime(s.clock.Now())})
	return nil
}

func authorizeGlobalOwner(p *store.Principal) *apiError {
	for _, r := range p.Roles {
		if r.Org == "" && r.Group == "" && r.Name == "GLOBAL_OWNER" {
			return nil
		}
	}
	return unauthorized()
}
