// Package stubapi is an httptest server for command tests: it answers
// registered routes with canned bodies and records every request, so a test
// can assert the method, path, query and body a command sent. It is strict,
// as gh's httpmock registry is: a request to a route no stub registered
// fails the test with the request printed, and at the end of the test every
// registered stub must have been used.
package stubapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/output"
)

// Request is one recorded request.
type Request struct {
	Method string
	Path   string
	Query  url.Values
	Body   []byte
	Header http.Header
}

// JSON decodes the recorded body into a generic value.
func (r Request) JSON(t testing.TB) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatalf("request body %q is not a JSON object: %v", r.Body, err)
	}
	return v
}

type reply struct {
	status int
	body   string
}

// route is a registered stub: its replies, in turn, and whether it was used.
type route struct {
	replies []reply
	used    bool
}

// Server records requests and replies from its routes.
type Server struct {
	*httptest.Server
	t        testing.TB
	mu       sync.Mutex
	routes   map[string]*route
	requests []Request
}

// New starts a stub server, closed and verified at the end of the test.
func New(t testing.TB) *Server {
	s := &Server{t: t, routes: map[string]*route{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() {
		s.Close()
		s.Verify()
	})
	return s
}

// Verify fails the test for every registered stub that no request used.
func (s *Server) Verify() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for key, r := range s.routes {
		if !r.used {
			s.t.Errorf("stubapi: %s was registered but never requested", key)
		}
	}
}

func (s *Server) add(key string, rep reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.routes[key]
	if r == nil {
		r = &route{}
		s.routes[key] = r
	}
	r.replies = append(r.replies, rep)
}

// Reply registers the answer to `METHOD /path` (the path without the
// /api/public/v1.0 prefix). Several replies to one route are given in turn,
// the last one repeating.
func (s *Server) Reply(method, path string, status int, body string) {
	s.add(method+" /api/public/v1.0"+path, reply{status, body})
}

// ReplyControl registers the answer to `METHOD /_omctl/NAME`, a test
// control of omctl server, which lives outside the API's path.
func (s *Server) ReplyControl(method, name string, status int, body string) {
	s.add(method+" /_omctl/"+name, reply{status, body})
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodHead && r.URL.Path == "/api/public/v1.0" {
		// The client's question for the server's time (client.SyncClock):
		// it stands for the digest challenge a real server answers first,
		// so it is not one of the requests a test asserts.
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Body: body, Header: r.Header.Clone()})
	// A route registered escaped (…/accessList/10.0.0.0%2F8) asserts how
	// the path was escaped; one registered plain matches the decoded path.
	key := r.Method + " " + r.URL.EscapedPath()
	rt := s.routes[key]
	if rt == nil {
		key = r.Method + " " + r.URL.Path
		rt = s.routes[key]
	}
	var rep reply
	if rt == nil {
		s.t.Errorf("stubapi: unexpected request %s?%s %s", key, r.URL.RawQuery, body)
		rep = reply{404, fmt.Sprintf(`{"detail":"stub has no route %s","error":404,"errorCode":"RESOURCE_NOT_FOUND","reason":"Not Found"}`, key)}
	} else {
		rt.used = true
		rep = rt.replies[0]
		if len(rt.replies) > 1 {
			rt.replies = rt.replies[1:]
		}
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rep.status)
	io.WriteString(w, rep.body)
}

// Requests returns what was received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Only returns the single request received, failing the test otherwise.
func (s *Server) Only() Request {
	s.t.Helper()
	reqs := s.Requests()
	if len(reqs) != 1 {
		s.t.Fatalf("want exactly 1 request, got %d: %v", len(reqs), reqs)
	}
	return reqs[0]
}

// Client returns a client factory for the stub (no authentication, no
// retries: a stubbed 5xx is the answer).
func (s *Server) Client(opts ...func(*client.Options)) func() (*client.Client, error) {
	return func() (*client.Client, error) {
		none := 0
		o := client.Options{BaseURL: s.URL, Retries: &none}
		for _, f := range opts {
			f(&o)
		}
		return client.New(o)
	}
}

// Deps are what most command tests give a run function: the streams ios,
// a printer of format with no --jq, project as the project (none when
// empty, so a command that asks for one fails the test) and the stub's
// client.
func (s *Server) Deps(ios *iostreams.IOStreams, format, project string) cmdutil.Deps {
	d := cmdutil.Deps{IO: ios, Printer: Printer(ios, format, ""), Client: s.Client()}
	if project != "" {
		d.ProjectID = Project(project)
	}
	return d
}

// Printer returns a printer factory over ios for a format and jq expression.
func Printer(ios *iostreams.IOStreams, format, jq string) func() (*output.Printer, error) {
	return func() (*output.Printer, error) {
		return output.New(ios, output.Options{Format: format, JQ: jq})
	}
}

// Project returns a project ID getter.
func Project(id string) func() (string, error) {
	return func() (string, error) { return id, nil }
}
