// Package server is the in-memory implementation of the Monitoring and
// Backup Administration Public API v1.0 behind `omctl server`, importable
// so tests can start it in-process.
package server

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"path"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/auth"
	"github.com/omctl/omctl/internal/server/faults"
	"github.com/omctl/omctl/internal/server/handlers"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/server/journal"
	"github.com/omctl/omctl/internal/server/notify"
	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/engine"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/model"
)

// Options configure a Server.
type Options struct {
	// Fixtures is the data to start from; nil starts with one organization,
	// one project and one GLOBAL_OWNER key (see fixture.Default).
	Fixtures *fixture.Fixtures
	// Clock is the server's time; nil follows the system clock.
	Clock *store.Clock
	// NonceTTL is how long a digest nonce stays fresh (default 5 minutes).
	NonceTTL time.Duration
	// State, when set, keeps the data durably: every change is committed
	// to it before the request is answered. A state file that holds data
	// already is what the server starts from; an empty one is seeded with
	// Fixtures. Reset goes back to Fixtures, or, when they are nil, to what
	// the state file held at start.
	State store.Log
	// Log receives one line per request and the server's messages.
	Log io.Writer
	// WebhookAllow names hosts and CIDR blocks webhooks may be sent to,
	// beyond loopback.
	WebhookAllow []string
	// Version and GitHash fill the X-Vendor-Service-Version header.
	Version, GitHash string
	// JournalSize is how many API requests the journal keeps (default
	// 10000; negative keeps none).
	JournalSize int
	// JournalBytes bounds the memory the journal's entries hold (default
	// 64 MiB).
	JournalBytes int64
	// AuthFailureLimit, when positive, answers 429 to the requests naming
	// a key or user once that many of its digest answers failed within a
	// minute, until the minute ends.
	AuthFailureLimit int
	// NotificationLogSize is how many entries the notification log keeps
	// (default 100000; negative keeps none).
	NotificationLogSize int
	// WebhookConcurrency bounds the webhook deliveries in flight (default
	// 16), WebhookQueue those waiting (default 10000; negative: none wait).
	WebhookConcurrency, WebhookQueue int
	// RateLimit, when positive, allows each key or user that many API
	// requests a second.
	RateLimit int
	// BaseURL is where clients reach the API, for the links of the alerts
	// webhooks carry until a request says how clients reach it (schedules
	// resumed from a state file may send before any request).
	BaseURL string
	// Keys are API keys to serve besides the data's, with credentials the
	// caller chose (omctl server --key): keys of the first organization,
	// added to the data and to what a reset goes back to (fixture.Key).
	Keys []fixture.Key
	// StreamQueue is how many events a reader of GET /_omctl/stream may
	// have waiting before it is dropped (default 4096).
	StreamQueue int
}

// Server serves the API from memory. It is an http.Handler.
type Server struct {
	opts   Options
	clock  *store.Clock
	digest *auth.Digest
	h      *handlers.Handlers // the API's endpoints
	log    *log.Logger
	mux    *http.ServeMux
	// byName serves the paths under /groups/byName/, whose literal segment
	// ServeMux cannot tell from a {project_id} beside /groups/{project_id}/alerts
	// and its siblings: it is asked first.
	byName *http.ServeMux
	// versionHeader is the service version headers' value, made once and
	// shared by every answer.
	versionHeader []string

	store *store.Store

	notes     *notify.Log
	hooks     *notify.Webhooks
	moves     sync.Mutex                           // clock moves, one at a time
	moveFrom  atomic.Pointer[time.Time]            // where the clock move in progress started
	ticking   atomic.Bool                          // the real-clock engine loop runs
	tickAfter func(time.Duration) <-chan time.Time // the loop's wait: time.After but in tests
	stop      chan struct{}                        // closed by Close: the engine loop ends
	closeOnce sync.Once
	base      atomic.Value // the base URL clients last used, for webhook bodies

	// The test controls' own state, each under its own lock.
	journal *journal.Journal
	faults  *faults.Set
	limiter *faults.RateLimiter

	// Close waits for the engine loop: loopMu orders a loop's start
	// before that wait, and closed (under it) says no loop starts again.
	loopMu  sync.Mutex
	closed  bool
	loops   sync.WaitGroup
	streams *streams // the readers of GET /_omctl/stream (stream.go)
}

// New builds a server over opts.
func New(opts Options) (*Server, error) {
	defaultSeed := opts.Fixtures == nil
	if defaultSeed {
		opts.Fixtures = fixture.Default()
	}
	if opts.Clock == nil {
		opts.Clock = store.RealClock()
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
	if opts.JournalSize == 0 {
		opts.JournalSize = journal.DefaultSize
	}
	if opts.GitHash == "" {
		opts.GitHash = "0000000000000000000000000000000000000000"
	}
	s := &Server{
		opts:  opts,
		clock: opts.Clock,
		// digest: see below, once s exists.
		log:           log.New(opts.Log, "", log.LstdFlags),
		versionHeader: []string{fmt.Sprintf("gitHash=%s; versionString=%s", opts.GitHash, opts.Version)},
		journal:       journal.New(opts.JournalSize, opts.JournalBytes),
		faults:        faults.NewSet(),
		limiter:       faults.NewRateLimiter(opts.RateLimit, time.Now),
		tickAfter:     time.After,
		streams:       newStreams(opts.StreamQueue),
	}
	if opts.NotificationLogSize == 0 {
		opts.NotificationLogSize = notify.DefaultLogSize
	}
	s.h = handlers.New(func() time.Time { return s.clock.Now() }, s.logf, &s.base)
	s.digest = auth.New(auth.Options{NonceTTL: opts.NonceTTL, Now: s.nonceClock, FailureLimit: opts.AuthFailureLimit})
	s.notes = notify.NewLog(opts.NotificationLogSize)
	s.notes.Finished = s.streamDelivered
	s.stop = make(chan struct{})
	if opts.WebhookConcurrency <= 0 {
		opts.WebhookConcurrency = notify.DefaultWebhookConcurrency
	}
	if opts.WebhookQueue == 0 {
		opts.WebhookQueue = notify.DefaultWebhookQueue
	}
	hooks, err := notify.NewWebhooks(opts.WebhookAllow, s.notes, opts.WebhookConcurrency, max(opts.WebhookQueue, 0), s.stop)
	if err != nil {
		return nil, err
	}
	s.hooks = hooks
	st, err := store.Open(opts.Fixtures, opts.State, s.clock, defaultSeed)
	if err != nil {
		s.Close() // the webhook workers started above
		return nil, err
	}
	if len(opts.Keys) > 0 {
		if err := st.AddKeys(opts.Keys); err != nil {
			s.Close()
			return nil, err
		}
	}
	st.Publish(s.published)
	s.store = st
	if opts.BaseURL != "" {
		s.base.Store(opts.BaseURL)
	}
	s.routes()
	if !s.clock.Virtual() && st.Scheduled() {
		// Schedules resumed from a state file run as those of a change do.
		s.startTicker()
	}
	return s, nil
}

// Close stops the real-clock engine loop and the webhook deliveries,
// those in flight included, and returns once their goroutines have ended
// and the deliveries' connections are closed; it ends the event streams.
// Requests are still served, but nothing is sent any more. A test that
// starts servers in-process leaves nothing running behind it (omtest's
// Cleanup relies on it).
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.loopMu.Lock()
		s.closed = true
		s.loopMu.Unlock()
		close(s.stop)
		s.loops.Wait()
		s.hooks.Close()
	})
	s.streams.close()
}

// Clock returns the server's clock.
func (s *Server) Clock() *store.Clock { return s.clock }

func (s *Server) logf(format string, a ...any) {
	if s.opts.Log != io.Discard {
		s.log.Printf(format, a...)
	}
}

// Reset puts the data back to the loaded fixtures, as POST /_omctl/reset
// does.
func (s *Server) Reset() error {
	if err := s.withData(func(tx *engine.Tx) error { s.resetLocked(tx); return nil }); err != nil {
		return err
	}
	return nil
}

// resetLocked puts the data back to the loaded fixtures; once that is
// committed, published forgets the notifications, journal and faults,
// under the data lock so no request sees one without the other.
func (s *Server) resetLocked(tx *engine.Tx) {
	tx.ResetTo(s.store.Seed(), s.clock.Now())
}

// published keeps what a committed write changed beside the data: the
// store calls it in the order the writes were applied (store.Publish), so
// a reset empties the notification log, the journal and the faults only
// once it is on disk, and after the notifications of the writes before it.
func (s *Server) published(out store.Outcome) {
	if out.Reset {
		s.notes.Clear()
		s.journal.Clear()
		s.faults.Clear()
		// What the old data, the log and the journal held goes back to
		// the system, not only to the runtime: a reset after a long run
		// shrinks the server.
		go debug.FreeOSMemory()
	}
	s.notes.Add(out.Notes)
	s.streamCommitted(out)
}

// Credentials lists the keys and users of the data being served, for the
// start-up banner: with a state file they may differ from the fixtures.
func (s *Server) Credentials() []fixture.Credential {
	var creds []fixture.Credential
	s.view(func(st *model.State) { creds = st.CredentialFixtures().Credentials() })
	return creds
}

// SeedFromData makes the data as it is now what a reset goes back to,
// and empties the journal, for data set up through the API before the
// server is shared (omctl server --apply): the requests that made it
// are not a client's.
func (s *Server) SeedFromData() {
	s.store.SeedFromData()
	s.journal.Clear()
}

// Fixtures returns the current data in fixture form.
func (s *Server) Fixtures() *fixture.Fixtures {
	f := &fixture.Fixtures{}
	s.view(func(st *model.State) { f = st.Fixtures().Clone() })
	return f
}

// view reads the data outside a request, logging a read that failed (a
// bug: fn panicked) and reporting whether it ran to the end.
func (s *Server) view(fn func(*model.State)) bool {
	if err := s.store.View(fn); err != nil {
		s.logf("%v", err)
		return false
	}
	return true
}

// handling is how a route serves one method: its handler, and for a test
// control how it differs from the API's (see controlHandlers).
type handling struct {
	h handlers.Func
	// control: only a GLOBAL_OWNER may call it.
	control bool
	// unlocked: it runs without the data lock.
	unlocked bool
	// wait: the answer waits for the first attempt of every webhook
	// delivery the request caused.
	wait bool
	// before checks, before the data lock is taken, what a change's
	// request can be refused for without the data (see handlers.BeforeLock).
	before handlers.Func
}

type route struct {
	methods map[string]handling
}

func (s *Server) routes() {
	s.mux = http.NewServeMux()
	table := map[string]map[string]handling{}
	add := func(pattern, method string, h handling) {
		if table[pattern] == nil {
			table[pattern] = map[string]handling{}
		}
		table[pattern][method] = h
	}
	before := s.h.BeforeLock()
	for e, h := range s.h.Endpoints() {
		add(apiBase+e.Pattern, e.Method, handling{h: h, before: before[e]})
	}
	for e, h := range s.controlHandlers() {
		add(e.Pattern, e.Method, h)
	}
	s.byName = http.NewServeMux()
	for pattern, methods := range table {
		mux := s.mux
		if strings.Contains(pattern, byNameSegment) {
			mux = s.byName
		}
		mux.Handle(pattern, s.api(&route{methods: methods}))
	}
	s.mux.Handle(apiBase+"/", s.api(nil))
	s.mux.Handle(apiBase, s.api(nil))
	s.mux.HandleFunc(api.GetHealth.Method+" "+api.GetHealth.Pattern, s.getHealth)
	s.mux.Handle("/", s.api(nil))
}

const byNameSegment = "/groups/byName/"

// statusWriter remembers the status of a response.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

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

// ServeHTTP records API requests in the journal, logs each request and
// never lets a panic escape as a dropped connection: a bug answers 500
// with the error body, and is logged. Only a fault's reset drops one.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Every answer, the 401 challenge included, dates itself on the
	// server's clock (virtual under --clock) when it is written, after a
	// clock move it made: clients take the time from it (docs/server.md,
	// Time). net/http keeps a Date already set.
	s.journal.Serve(&datedWriter{ResponseWriter: w, now: s.clock.Now}, r, s.clock.Now(), s.serve, s.streamRequest)
}

// datedWriter sets Date from the server's clock as the answer starts.
type datedWriter struct {
	http.ResponseWriter
	now   func() time.Time
	dated bool
}

func (w *datedWriter) date() {
	if !w.dated {
		w.dated = true
		w.Header()["Date"] = dateHeader(w.now())
	}
}

// lastDate is the Date header of the last second an answer was dated in:
// every answer carries one, and most share their second with others.
var lastDate atomic.Pointer[datedSecond]

type datedSecond struct {
	unix  int64
	value []string
}

// dateHeader is the value of the Date header at t, made once a second.
func dateHeader(t time.Time) []string {
	if d := lastDate.Load(); d != nil && d.unix == t.Unix() {
		return d.value
	}
	value := []string{t.UTC().Format(http.TimeFormat)}
	lastDate.Store(&datedSecond{t.Unix(), value})
	return value
}

func (w *datedWriter) WriteHeader(code int) {
	w.date()
	w.ResponseWriter.WriteHeader(code)
}

func (w *datedWriter) Write(b []byte) (int, error) {
	w.date()
	return w.ResponseWriter.Write(b)
}

func (w *datedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w}
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				s.logf("%s %s: connection closed without an answer (fault)", r.Method, r.URL.Path)
				panic(v)
			}
			s.logf("panic serving %s %s: %v", r.Method, r.URL.Path, v)
			if sw.status == 0 {
				c := s.h.NewCtx(r, nil, sw)
				c.Fail(httpx.Unexpected())
				c.Flush(sw)
			}
		}
		if s.opts.Log != io.Discard { // the arguments alone cost four allocations
			s.logf("%s %s %d %s", r.Method, r.URL.Path, sw.status, time.Since(start).Round(time.Microsecond))
		}
	}()
	if !cleanPath(r.URL.Path) {
		// ServeMux would redirect such a path before anyone authenticated;
		// it names no resource, so it gets the 404 after authentication.
		s.api(nil).ServeHTTP(sw, r)
		return
	}
	// Only a path with the segment can be one of byName's: the others skip
	// a lookup that fails, which costs as much as the one that follows.
	if !strings.Contains(r.URL.Path, byNameSegment) {
		s.mux.ServeHTTP(sw, r)
		return
	}
	if _, pattern := s.byName.Handler(r); pattern != "" {
		s.byName.ServeHTTP(sw, r) // which sets the path's values
		return
	}
	s.mux.ServeHTTP(sw, r)
}

// cleanPath reports whether p is a path ServeMux serves without a redirect.
func cleanPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c == p
}

// api wraps a route: authentication first (whatever the path or method,
// docs/api.md, Authentication), the key's access list, query flags, then dispatch. The body
// is read before the data lock is taken and the answer written after it
// is released, so a slow client holds up nobody but itself.
func (s *Server) api(rt *route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var caller *model.Principal
		if !s.digest.Authenticate(w, r, func(name string) (string, bool) {
			in, _ := s.store.SignIn(name)
			caller = in.Principal
			return in.Secret, caller != nil
		}) {
			return
		}
		c := s.h.NewCtx(r, caller, w)
		if !s.admit(c) {
			c.Flush(w)
			return
		}
		c.ReadRequestBody(w)
		s.serveAPI(c, rt)
		c.Flush(w)
	})
}

// serveAPI computes the answer of an authenticated request into c.
func (s *Server) serveAPI(c *handlers.Ctx, rt *route) {
	if aerr := s.checkAccessList(c); aerr != nil {
		c.Fail(aerr)
		return
	}
	if s.injectFault(c) {
		return
	}
	var qerr error
	if c.Pretty, qerr = c.BoolQuery("pretty", false); qerr != nil {
		c.Fail(qerr)
		return
	}
	if c.Envelope, qerr = c.BoolQuery("envelope", false); qerr != nil {
		c.Fail(qerr)
		return
	}
	if rt == nil {
		c.Fail(httpx.ResourceNotFound(c.R.URL.Path))
		return
	}
	h, ok := rt.methods[c.R.Method]
	if !ok {
		allowed := rules.SortedKeys(rt.methods)
		c.Header.Set("Allow", strings.Join(allowed, ", "))
		c.Fail(httpx.New(http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED",
			fmt.Sprintf("Method %s is not allowed on %s; allowed: %s.", c.R.Method, c.R.URL.Path, strings.Join(allowed, ", ")), c.R.Method))
		return
	}
	var err error
	if h.control {
		err = authorizeGlobalOwner(c.Caller)
	}
	switch {
	case err != nil:
	case h.unlocked:
		err = h.h(c)
	case h.before != nil:
		if err = h.before(c); err == nil {
			err = s.locked(c, h.h, h.wait)
		}
	default:
		err = s.locked(c, h.h, h.wait)
	}
	if err != nil {
		c.Fail(err)
	} else {
		// Canonical names and values made once: every answer carries them.
		h := c.Header
		h["Strict-Transport-Security"] = hsts
		h["Vary"] = varyEncoding
		h["X-Vendor-Service-Version"] = s.versionHeader
		h["X-Mongodb-Service-Version"] = s.versionHeader
	}
}

var (
	hsts         = []string{"max-age=300"}
	varyEncoding = []string{"Accept-Encoding"}
)

// Timeouts of the HTTP server: a client that sends or reads slowly is cut
// off, never waited on for ever, and idle connections are closed.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	idleTimeout       = 2 * time.Minute
)

// NewHTTPServer serves h with the timeouts a server exposed to careless
// clients needs.
func NewHTTPServer(h http.Handler) *http.Server {
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      httpx.WriteTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    httpx.MaxHeaderBytes,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	if s, ok := h.(*Server); ok {
		// Shutdown waits for requests to end: event streams end at once.
		hs.RegisterOnShutdown(s.streams.close)
	}
	return hs
}
