package server

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/server/handlers"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/server/journal"
)

// journalQuery is the filter of GET /_omctl/requests.
func journalQuery(c *handlers.Ctx) (func(*api.JournalEntry) bool, error) {
	q := c.R.URL.Query()
	if err := onlyQuery(c, "method", "path", "status", "caller"); err != nil {
		return nil, err
	}
	method, pathPrefix, caller := q.Get("method"), q.Get("path"), q.Get("caller")
	status := -1
	if v := q.Get("status"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 599 {
			return nil, httpx.InvalidQuery("status", v, "status must be an HTTP status such as 200 or 503")
		}
		status = n
	}
	return func(e *api.JournalEntry) bool {
		switch {
		case method != "" && !strings.EqualFold(e.Method, method):
			return false
		case pathPrefix != "" && !strings.HasPrefix(e.Path, pathPrefix) &&
			(strings.HasPrefix(pathPrefix, apiBase+"/") || !strings.HasPrefix(e.Path, apiBase+pathPrefix)):
			return false
		case status >= 0 && e.Status != status:
			return false
		case q.Has("caller") && e.Caller != caller:
			return false
		}
		return true
	}, nil
}

// clearRequests empties the journal (api.ClearRequests).
func (s *Server) clearRequests(c *handlers.Ctx) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	s.journal.Clear()
	c.WriteRaw(http.StatusOK, []byte(`{}`))
	return nil
}

// listRequests lists the journal, oldest first (api.ListRequests).
func (s *Server) listRequests(c *handlers.Ctx) error {
	keep, err := journalQuery(c)
	if err != nil {
		return err
	}
	p, err := c.Page()
	if err != nil {
		return err
	}
	all := s.journal.Matching(keep)
	from := min(p.Offset(), len(all))
	to := min(from+p.Size, len(all))
	c.ListRaw(journal.EncodeEntries(all[from:to]), len(all), p)
	return nil
}
