// Package omtest runs omctl server inside a Go test, so that a program
// that automates the Monitoring and Backup Administration Public API can
// be tested against a faithful, stateful implementation of the whole API
// instead of a hand-written mock.
//
// One call starts a server on a loopback port, ready to answer; the test's
// Cleanup stops it:
//
//	srv := omtest.NewServer(t, omtest.WithDemo(), omtest.WithClock(start))
//	res, err := srv.Client().Get(srv.URL() + "/groups/" + srv.ProjectID() + "/alerts")
//
// URL is the API base, Client an *http.Client that signs its requests
// with digest authentication as a GLOBAL_OWNER key (PublicKey and
// PrivateKey, to configure a client of your own). The server holds the
// data of its options: the demo data set of `omctl server --demo`
// (WithDemo), a fixture file (WithFixtures), or else one organization, one
// project and one GLOBAL_OWNER key.
//
// The test controls of omctl server are methods: Advance moves a virtual
// clock (WithClock) and sends the notifications that fall due; Report
// tells the alert engine about conditions, which raise and close alerts;
// Notifications is the log of notifications sent; Requests is the journal
// of the requests the server answered, secrets redacted; AddFault makes
// chosen requests fail; Reset goes back to the data loaded at start. They
// behave as the controls under /_omctl/ that docs/server.md describes, and
// they are sent to the server as those requests are.
//
// A problem in setting up, or a control the server refuses, fails the test
// through the testing.TB given to NewServer (t.Fatalf, with a message that
// says what was wrong); nothing panics. Like t.Fatalf, a method that fails
// the test must be called from the goroutine running that test; otherwise
// the methods of a Server are safe for concurrent use. The package keeps no
// state of its own: servers are independent of each other, and tests that
// start them may run in parallel. Once the test's Cleanup has run, no
// goroutine of the server is left.
//
// # Compatibility
//
// omtest is the public API of the module github.com/omctl/omctl; the rest
// of the module is internal. Its exported names keep their meaning and
// their signatures across versions: new names and new fields of its
// structs may be added, none is removed or changed. A test of the package
// holds it to that promise.
package omtest

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/icholy/digest"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server"
	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/demo"
	"github.com/omctl/omctl/internal/store/fixture"
)

// Option sets up a server started by NewServer.
type Option func(*config)

// config is what the options of one NewServer call asked for.
type config struct {
	demo         bool
	fixtures     string
	hasFixtures  bool
	start        time.Time
	virtual      bool
	publicKey    string
	privateKey   string
	hasKey       bool
	optionErrors []string
}

// WithDemo loads the demo data set of `omctl server --demo`: several
// organizations and projects, alerts in every status, alert
// configurations with every kind of notification, backup configurations,
// snapshots and stores, dated around the server's clock, and the
// GLOBAL_OWNER key "demoowner". ProjectID and OrgID are its first project
// and organization.
func WithDemo() Option {
	return func(c *config) { c.demo = true }
}

// WithFixtures loads a fixture file, as `omctl server --fixtures`:
// one JSON object whose keys (orgs, projects, apiKeys, alerts,
// alertConfigs, ...) hold resources in the API's own JSON shape
// (docs/server.md, Fixture file). A path that is not absolute is relative
// to the test's working directory, the directory of its package.
func WithFixtures(path string) Option {
	return func(c *config) { c.fixtures, c.hasFixtures = path, true }
}

// WithClock starts a virtual clock at start, as `omctl server --clock`:
// the server's time then moves only by Advance. Without it the server
// follows the system clock.
func WithClock(start time.Time) Option {
	return func(c *config) { c.start, c.virtual = start, true }
}

// WithKey adds a GLOBAL_OWNER API key with these credentials to the data
// (as `omctl server --key`), and makes it the key of PublicKey,
// PrivateKey, Client and the controls. The public key must not be one the
// data has already.
func WithKey(publicKey, privateKey string) Option {
	return func(c *config) {
		if publicKey == "" || privateKey == "" {
			c.optionErrors = append(c.optionErrors, "WithKey: the public key and the private key must not be empty")
		}
		c.publicKey, c.privateKey, c.hasKey = publicKey, privateKey, true
	}
}

// Server is an omctl server running inside a test.
type Server struct {
	t          testing.TB
	srv        *server.Server
	httpServer *httptest.Server
	root       string // scheme://host:port
	closed     atomic.Bool
	closeOnce  sync.Once

	publicKey, privateKey string
	projectID, orgID      string

	// Two pools of connections: the controls never share the test's
	// client, whatever the test does with it.
	client, controls *http.Transport
	clientAuth       *digest.Transport
	controlAuth      *digest.Transport
}

// NewServer starts a server with the options' data on a loopback port and
// returns it ready to answer. The test's Cleanup closes it.
//
// With neither WithDemo nor WithFixtures the data is one organization, one
// project and one GLOBAL_OWNER key with fresh credentials. When the data
// has no GLOBAL_OWNER API key, and WithKey gives none, NewServer adds one
// with fresh credentials, as omctl server --key adds one: the controls need it.
func NewServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	var c config
	for i, o := range opts {
		if o == nil {
			t.Fatalf("omtest.NewServer: option %d is nil", i)
		}
		o(&c)
	}
	if len(c.optionErrors) > 0 {
		t.Fatalf("omtest.NewServer: %s", c.optionErrors[0])
	}
	clock, err := c.clock()
	if err != nil {
		t.Fatalf("omtest.NewServer: %v", err)
	}
	fixtures, err := c.data(clock.Now())
	if err != nil {
		t.Fatalf("omtest.NewServer: %v", err)
	}
	s := &Server{t: t}
	keys := s.chooseOwner(fixtures, &c)
	// The listener comes first: the server knows its URL from the start,
	// for the links of the alerts its webhooks carry.
	s.httpServer = httptest.NewUnstartedServer(nil)
	s.root = "http://" + s.httpServer.Listener.Addr().String()
	s.srv, err = server.New(server.Options{Fixtures: fixtures, Keys: keys, Clock: clock, BaseURL: s.root + api.BasePath, NonceTTL: neverStale})
	if err != nil {
		s.httpServer.Listener.Close()
		if keyErr := (*fixture.KeyError)(nil); c.hasKey && errors.As(err, &keyErr) {
			t.Fatalf("omtest.NewServer: WithKey(%q, ...): %v", c.publicKey, keyErr)
		}
		t.Fatalf("omtest.NewServer: starting the server: %v", err)
	}
	s.httpServer.Config = server.NewHTTPServer(s.srv)
	s.httpServer.Start()
	s.clientAuth, s.client = newDigestTransport(s.publicKey, s.privateKey)
	s.controlAuth, s.controls = newDigestTransport(s.publicKey, s.privateKey)
	t.Cleanup(s.Close)
	// Client's first request is signed already: the journal holds the
	// test's requests, not a 401 challenge before the first of them.
	s.signIn(s.clientAuth)
	return s
}

// neverStale is the digest nonces' lifetime: a nonce stays fresh whatever
// Advance does to the clock, so that Client's requests are not answered
// a 401 (and journaled) after a move, before the one they repeat.
const neverStale = time.Duration(math.MaxInt64)

// signIn has auth take the server's digest challenge, by a request to a
// control (which the journal does not hold).
func (s *Server) signIn(auth *digest.Transport) {
	s.t.Helper()
	if err := s.send(auth, api.GetClock, nil, nil); err != nil {
		s.t.Fatalf("omtest.NewServer: signing in as %s: %v", s.publicKey, err)
	}
}

// clock is the server's clock the options ask for.
func (c *config) clock() (*store.Clock, error) {
	if !c.virtual {
		return store.RealClock(), nil
	}
	if err := store.CheckTime(c.start); err != nil {
		return nil, fmt.Errorf("WithClock: %v", err)
	}
	return store.VirtualClock(c.start), nil
}

// data is the data the options ask for, at the clock's time now.
func (c *config) data(now time.Time) (*fixture.Fixtures, error) {
	switch {
	case c.demo && c.hasFixtures:
		return nil, fmt.Errorf("WithDemo and WithFixtures(%q) both give the data: use one of them", c.fixtures)
	case c.demo:
		return demo.Fixtures(now), nil
	case c.hasFixtures:
		f, err := fixture.LoadFixtures(c.fixtures)
		if err != nil {
			return nil, fmt.Errorf("WithFixtures: %v", err)
		}
		return f, nil
	}
	return fixture.Default(), nil
}

// chooseOwner sets the key of the server's client and controls, the
// first project and its organization; it returns the key the server is to
// add (as omctl server --key adds one): WithKey's, or one of its own when
// the data has no GLOBAL_OWNER key.
func (s *Server) chooseOwner(f *fixture.Fixtures, c *config) []fixture.Key {
	if len(f.Projects) > 0 {
		s.projectID, _ = f.Projects[0]["id"].(string)
		s.orgID, _ = f.Projects[0]["orgId"].(string)
	} else if len(f.Orgs) > 0 {
		s.orgID, _ = f.Orgs[0]["id"].(string)
	}
	if !c.hasKey {
		for _, k := range f.APIKeys {
			if isGlobalOwner(k) {
				s.publicKey, _ = k["publicKey"].(string)
				s.privateKey, _ = k["privateKey"].(string)
				return nil
			}
		}
	}
	if c.hasKey {
		s.publicKey, s.privateKey = c.publicKey, c.privateKey
	} else {
		fresh := fixture.Default().APIKeys[0] // a GLOBAL_OWNER with fresh credentials
		s.publicKey, _ = fresh["publicKey"].(string)
		s.privateKey, _ = fresh["privateKey"].(string)
	}
	return []fixture.Key{{PublicKey: s.publicKey, PrivateKey: s.privateKey}}
}

// isGlobalOwner says whether a fixture's API key has the GLOBAL_OWNER role.
func isGlobalOwner(key rules.Doc) bool {
	roles, _ := key["roles"].([]any)
	for _, r := range roles {
		role, _ := r.(map[string]any)
		if role["roleName"] == "GLOBAL_OWNER" && role["orgId"] == nil && role["groupId"] == nil {
			return true
		}
	}
	return false
}

// newDigestTransport signs requests as a key over a pool of connections
// of its own.
func newDigestTransport(publicKey, privateKey string) (*digest.Transport, *http.Transport) {
	pool := &http.Transport{MaxIdleConnsPerHost: 16, IdleConnTimeout: 90 * time.Second}
	return &digest.Transport{Username: publicKey, Password: privateKey, Transport: pool}, pool
}

// URL is the API base, ending in /api/public/v1.0, as in
// http://127.0.0.1:41327/api/public/v1.0.
func (s *Server) URL() string { return s.root + api.BasePath }

// PublicKey is the public key of a GLOBAL_OWNER API key of the data: the
// key of WithKey, else the data's first GLOBAL_OWNER key, else the one
// NewServer added.
func (s *Server) PublicKey() string { return s.publicKey }

// PrivateKey is the private key of PublicKey's key.
func (s *Server) PrivateKey() string { return s.privateKey }

// ProjectID is the id of the data's first project ("" when it has none).
func (s *Server) ProjectID() string { return s.projectID }

// OrgID is the id of the organization of the data's first project (when
// the data has no project, of its first organization).
func (s *Server) OrgID() string { return s.orgID }

// Client returns an HTTP client that signs every request with digest
// authentication as the key of PublicKey. Each call returns a new
// *http.Client; they share one pool of connections, closed with the
// server.
func (s *Server) Client() *http.Client {
	return &http.Client{Transport: s.clientAuth}
}

// Now is the server's time: virtual under WithClock, the system's
// otherwise (as far ahead as Advance moved it).
func (s *Server) Now() time.Time { return s.srv.Clock().Now() }

// Close stops the server: it waits for the requests in progress, stops
// the alert engine and the webhook deliveries, and closes the
// connections of Client and the controls. The test's Cleanup calls it;
// calling it again does nothing.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		s.httpServer.Close()
		s.srv.Close()
		s.client.CloseIdleConnections()
		s.controls.CloseIdleConnections()
	})
}
