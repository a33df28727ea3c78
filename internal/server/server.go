// Package server is the in-memory implementation of the Monitoring and
// Backup Administration Public API v1.0 behind `omctl server`, importable
// so tests can start it in-process.
package server

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"sync"
	"time"
)

// Options configure a Server.
type Options struct {
	// Fixtures is the data to start from; nil starts with one organization,
	// one project and one GLOBAL_OWNER key (see DefaultFixtures).
	Fixtures *Fixtures
	// Clock is the server's time; nil follows the system clock.
	Clock *Clock
	// NonceTTL is how long a digest nonce stays fresh (default 5 minutes).
	NonceTTL time.Duration
	// StateFile, when set, receives the data after every change.
	StateFile string
	// Log receives one line per request and the server's messages.
	Log io.Writer
	// Version and GitHash fill the X-Vendor-Service-Version header.
	Version, GitHash string
}

// Server serves the API from memory. It is an http.Handler.
type Server struct {
	opts     Options
	fixtures *Fixtures
	clock    *Clock
	nonces   *nonces
	log      *log.Logger
	mux      *http.ServeMux
	version  string

	mu sync.Mutex // guards st and the data it holds
	st *state
}

// New builds a server over opts.
func New(opts Options) (*Server, error) {
	if opts.Fixtures == nil {
		opts.Fixtures = DefaultFixtures()
	}
	if opts.Clock == nil {
		opts.Clock = RealClock()
	}
	if opts.NonceTTL <= 0 {
		opts.NonceTTL = 5 * time.Minute
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.Version == "" {
		opts.Version = "1.0.0"
	}
	if opts.GitHash == "" {
		opts.GitHash = "0000000000000000000000000000000000000000"
	}
	s := &Server{
		opts:     opts,
		fixtures: opts.Fixtures,
		clock:    opts.Clock,
		nonces:   newNonces(opts.NonceTTL, opts.Clock.Now),
		log:      log.New(opts.Log, "", log.LstdFlags),
		version:  fmt.Sprintf("gitHash=%s; versionString=%s", opts.GitHash, opts.Version),
	}
	s.st = s.loadedState()
	s.routes()
	return s, nil
}

// Clock returns the server's clock.
func (s *Server) Clock() *Clock { return s.clock }

func (s *Server) logf(format string, a ...any) { s.log.Printf(format, a...) }

// loadedState builds the data the server started with; the fixtures
// themselves are never changed.
func (s *Server) loadedState() *state { return newState(s.fixtures.Clone(), s.clock.Now()) }

// Reset puts the data back to the loaded fixtures, as POST /_omctl/reset does.
func (s *Server) Reset() {
	s.mu.Lock()
	s.st = s.loadedState()
	s.mu.Unlock()
	s.saveState()
}

// Fixtures returns the current data in fixture form.
func (s *Server) Fixtures() *Fixtures {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.fixtures().Clone()
}

type handlerFunc func(*reqCtx) *apiError

type route struct {
	methods map[string]handlerFunc
}

func (s *Server) routes() {
	s.mux = http.NewServeMux()
	table := map[string]map[string]handlerFunc{}
	add := func(method, pattern string, h handlerFunc) {
		if table[pattern] == nil {
			table[pattern] = map[string]handlerFunc{}
		}
		table[pattern][method] = h
	}
	g := "/groups/{project_id}"
	add("GET", g+"/alerts", s.listAlerts)
	add("GET", g+"/alerts/{alert_id}", s.getAlert)
	add("PATCH", g+"/alerts/{alert_id}", s.patchAlert)
	add("GET", g+"/alertConfigs", s.listAlertConfigs)
	add("GET", g+"/alertConfigs/{config_id}", s.getAlertConfig)
	add("PUT", g+"/alertConfigs/{config_id}", s.putAlertConfig)
	add("PATCH", g+"/alertConfigs/{config_id}", s.patchAlertConfig)
	add("GET", "/globalAlerts", s.listGlobalAlerts)
	add("GET", "/globalAlertConfigs", s.listGlobalAlertConfigs)
	add("GET", "/globalAlertConfigs/{config_id}", s.getGlobalAlertConfig)
	add("PUT", "/globalAlertConfigs/{config_id}", s.putGlobalAlertConfig)
	add("GET", g+"/backupConfigs/{cluster_id}", s.getBackupConfig)
	add("PATCH", g+"/backupConfigs/{cluster_id}", s.patchBackupConfig)
	add("GET", g+"/backupConfigs/{cluster_id}/availableMembers", s.getBackupConfigMembers)
	add("GET", g+"/clusters/{cluster_id}/snapshots", s.listSnapshots)
	add("GET", g+"/clusters/{cluster_id}/snapshots/{snapshot_id}", s.getSnapshot)
	add("PATCH", g+"/clusters/{cluster_id}/snapshots/{snapshot_id}", s.patchSnapshot)
	add("GET", g+"/hosts/{host_id}/snapshots", s.listConfigServerSnapshots)
	add("GET", g+"/hosts/{host_id}/snapshots/{snapshot_id}", s.getConfigServerSnapshot)
	add("GET", "/admin/backup/oplog/s3Configs/{store_id}", s.getOplogStore)
	add("POST", "/admin/backup/oplog/s3Configs", s.createOplogStore)
	add("GET", "/admin/backup/snapshot/s3Configs/{store_id}", s.getSnapshotStore)
	add("PUT", "/admin/backup/snapshot/s3Configs/{store_id}", s.putSnapshotStore)
	add("GET", "/admin/backup/groups/{project_id}", s.getBackupJobConfig)
	add("POST", g+"/apiKeys", s.createAPIKey)
	add("POST", "/orgs/{org_id}/apiKeys/{key_id}/accessList", s.addAccessList)
	add("GET", "/orgs/{org_id}/apiKeys/{key_id}/accessList", s.listAccessList)

	for pattern, methods := range table {
		rt := &route{methods: methods}
		s.mux.Handle(apiBase+pattern, s.api(rt))
	}
	s.mux.Handle(apiBase+"/", s.api(nil))
	s.mux.HandleFunc("GET /_omctl/health", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"status":"ok"}`+"\n")
	})
	s.mux.Handle("/_omctl/reset", s.api(&route{methods: map[string]handlerFunc{"POST": s.controlReset}}))
	s.mux.Handle("/_omctl/clock", s.api(&route{methods: map[string]handlerFunc{"POST": s.controlClock, "GET": s.controlClock}}))
	s.mux.Handle("/", s.api(nil))
}

// statusWriter remembers the status of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// ServeHTTP logs each request and never lets a panic escape as a dropped
// connection: a bug answers 500 with the error body, and is logged.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w}
	defer func() {
		if v := recover(); v != nil {
			s.logf("panic serving %s %s: %v", r.Method, r.URL.Path, v)
			if sw.status == 0 {
				c := &reqCtx{w: sw, r: r, s: s}
				c.fail(newError(http.StatusInternalServerError, "UNEXPECTED_ERROR", "Unexpected error."))
			}
		}
		s.logf("%s %s %d %s", r.Method, r.URL.Path, sw.status, time.Since(start).Round(time.Microsecond))
	}()
	s.mux.ServeHTTP(sw, r)
}

// api wraps a route: body limit, authentication first (whatever the path
// or method, compat.md), the key's access list, query flags, then dispatch.
func (s *Server) api(rt *route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, maxBodyBytes)
		caller := s.authenticate(w, r)
		if caller == nil {
			return
		}
		c := &reqCtx{w: w, r: r, s: s, caller: caller}
		counted, aerr := s.checkAccessList(c)
		if aerr != nil {
			c.fail(aerr)
			return
		}
		var qerr *apiError
		if c.pretty, qerr = c.boolQuery("pretty", false); qerr != nil {
			c.fail(qerr)
			return
		}
		if c.envelope, qerr = c.boolQuery("envelope", false); qerr != nil {
			c.fail(qerr)
			return
		}
		if rt == nil {
			c.fail(errResourceNotFound(r.URL.Path))
			return
		}
		h, ok := rt.methods[r.Method]
		if !ok {
			allowed := sortedKeys(rt.methods)
			w.Header().Set("Allow", strings.Join(allowed, ", "))
			c.fail(newError(http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED",
				fmt.Sprintf("Method %s is not allowed on %s; allowed: %s.", r.Method, r.URL.Path, strings.Join(allowed, ", ")), r.Method))
			return
		}
		h2 := w.Header()
		h2.Set("Strict-Transport-Security", "max-age=300")
		h2.Set("Vary", "Accept-Encoding")
		h2.Set("X-Vendor-Service-Version", s.version)
		h2.Set("X-MongoDB-Service-Version", s.version)
		s.mu.Lock()
		err := h(c)
		if err != nil {
			for _, k := range []string{"Strict-Transport-Security", "X-Vendor-Service-Version", "X-MongoDB-Service-Version"} {
				h2.Del(k)
			}
			c.fail(err)
		}
		s.mu.Unlock()
		// A key with an access list counts its uses: that is a change too.
		if (err == nil && r.Method != http.MethodGet) || counted {
			s.saveState()
		}
	})
}

// checkAccessList refuses a key used from outside its access list and
// counts the use of the entry that let it in (counted says it did).
func (s *Server) checkAccessList(c *reqCtx) (counted bool, _ *apiError) {
	if c.caller.key == nil {
		return false, nil
	}
	host, _, err := net.SplitHostPort(c.r.RemoteAddr)
	if err != nil {
		host = c.r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return false, newError(http.StatusForbidden, "IP_ADDRESS_NOT_ON_ACCESS_LIST", "The caller's address cannot be read.")
	}
	addr = addr.Unmap()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !c.caller.key.allows(addr, s.clock.Now()) {
		return false, newError(http.StatusForbidden, "IP_ADDRESS_NOT_ON_ACCESS_LIST",
			fmt.Sprintf("IP address %s is not allowed to access this resource.", addr), addr.String())
	}
	return len(c.caller.key.accessList) > 0, nil
}

// saveState writes the data to the state file, if there is one.
func (s *Server) saveState() {
	if s.opts.StateFile == "" {
		return
	}
	f := s.Fixtures()
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		s.logf("state: %v", err)
		return
	}
	tmp := s.opts.StateFile + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		s.logf("state: %v", err)
		return
	}
	if err := os.Rename(tmp, s.opts.StateFile); err != nil {
		s.logf("state: %v", err)
	}
}

func (s *Server) controlReset(c *reqCtx) *apiError {
	if err := c.caller.authorizeGlobalOwner(); err != nil {
		return err
	}
	s.st = s.loadedState()
	c.writeJSON(http.StatusOK, map[string]any{"reset": true, "now": formatTime(s.clock.Now())})
	return nil
}

func (s *Server) controlClock(c *reqCtx) *apiError {
	if err := c.caller.authorizeGlobalOwner(); err != nil {
		return err
	}
	if c.r.Method == http.MethodPost {
		body, err := readObject(c.r)
		if err != nil {
			return err
		}
		if err := (schema{"advance": str(), "set": timestamp()}).check(body, "", nil); err != nil {
			return err
		}
		if v, ok := body["advance"].(string); ok {
			d, perr := time.ParseDuration(v)
			if perr != nil || d < 0 {
				return errBadRequest("INVALID_JSON_ATTRIBUTE", fmt.Sprintf("advance %q is not a positive duration such as 15m or 2h.", v), "advance")
			}
			s.clock.Advance(d)
		}
		if v, ok := body["set"].(string); ok {
			t, _ := parseTimestamp(v)
			s.clock.Set(t)
		}
	}
	c.writeJSON(http.StatusOK, map[string]any{"now": formatTime(s.clock.Now())})
	return nil
}

func (p *principal) authorizeGlobalOwner() *apiError {
	for _, r := range p.roles {
		if r.org == "" && r.group == "" && r.name == "GLOBAL_OWNER" {
			return nil
		}
	}
	return unauthorized()
}
