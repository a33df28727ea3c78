// Package server implements `omctl server`: the whole API in memory, for
// local testing and CI jobs (docs/server.md describes it).
package server

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/build"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/config"
	srv "github.com/omctl/omctl/internal/server"
	"github.com/omctl/omctl/internal/server/faults"
	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/demo"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/statelog"
)

// Options are the inputs of `omctl server`.
type Options struct {
	cmdutil.Deps

	Listen        string
	FixturesFile  string
	Demo          bool
	StateFile     string
	TLSCert       string
	TLSKey        string
	TLSSelfSigned bool
	Clock         string
	NonceTTL      time.Duration
	EnvFile       string
	Quiet         bool
	WebhookAllow  []string
	RateLimit     int
	JournalSize   int
	JournalBytes  byteSize
	MaxConns      int
	AuthFailures  int
	NotesSize     int
	HookWorkers   int
	HookQueue     int
	// Keys are the --key values, PUBLIC:PRIVATE[:ROLE[,ROLE...]] (parseKey).
	Keys []string
	// Apply are the --apply files and directories of documents.
	Apply []string

	// Ready, when set, is told the base URL once the server accepts connections.
	Ready func(baseURL string)
	// fromEnv are the flags set from the environment, with their
	// variables (applyEnv), for messages.
	fromEnv map[string]string
}

// defaultListen is where omctl server listens unless told.
const defaultListen = "127.0.0.1:8080"

// name is how a message names the value of flag: --flag, or its
// environment variable when it came from there.
func (opts *Options) name(flag string) string { return flagName(opts.fromEnv, flag) }

// NewCmdServer builds `omctl server`.
func NewCmdServer(f *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "server [--listen ADDR] [--fixtures FILE | --demo] [--state FILE] [--key PUBLIC:PRIVATE] [--apply PATH]",
		Short: "Run the whole API in memory, for local testing and CI",
		Long: `Run an in-memory server that implements every endpoint of the API, with its
rules, errors and digest authentication, for local testing and CI jobs.

The first line on standard output is the base URL, printed once the server
accepts connections; logs and the credentials to use go to standard error.
Data comes from --fixtures FILE, or --demo (a realistic data set), or else one
organization, one project and one GLOBAL_OWNER key. --state FILE keeps the data
across restarts. SIGINT or SIGTERM stops it cleanly.

--key PUBLIC:PRIVATE[:ROLE,...] adds an API key whose credentials you chose, a
key of the first organization (GLOBAL_OWNER unless roles are given; PRIVATE
may be @FILE, a file holding it). --apply PATH applies the documents omctl
apply takes to the data before the server is ready, all or nothing: one bad
document stops the start, naming it, and the base URL is not printed. A
reset goes back to the data with both. 'omctl server wait' exits once the
server is ready.

Test controls live under /_omctl/: GET health (no credentials), and with a
GLOBAL_OWNER key POST reset (back to the loaded data) and POST clock
{"advance": "15m"} (with --clock, time stands still until advanced). The
server keeps a journal of the last --journal-size API requests, within
--journal-bytes of memory, which 'omctl server requests' shows, and injects the faults that 'omctl server
faults add' describes. --rate-limit N answers 429 to a key's requests beyond
N a second, and --auth-failure-limit N to those naming a key or user that
failed digest authentication N times within the minute. Beyond
--max-connections open connections, a new one is answered 503 and closed. docs/server.md describes the fixture format, the controls, the
journal, faults and the clock.`,
		Example: `  omctl server --demo
  omctl server --listen 127.0.0.1:0 --fixtures docs/examples/fixtures.json --clock 2026-01-01T00:00:00Z
  omctl server --demo --tls-self-signed --env-file omctl.env
  OMCTL_SERVER_KEYS=ci:ci-secret OMCTL_SERVER_APPLY=seed/ omctl server`,
		Args: cobra.NoArgs,
		// The server runs until stopped: --timeout bounds client commands.
		Annotations: map[string]string{cmdutil.NoDeadline: "true"},
		// Before cobra checks which flags go together: a variable counts
		// as its flag.
		PreRunE: func(cmd *cobra.Command, _ []string) (err error) {
			opts.fromEnv, err = applyEnv(cmd, os.LookupEnv)
			return err
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return Run(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Listen, "listen", defaultListen, "address to listen on; port 0 picks a free one")
	fl.StringVar(&opts.FixturesFile, "fixtures", "", "JSON fixture file to load (format in docs/server.md)")
	fl.BoolVar(&opts.Demo, "demo", false, "load the built-in demo data set")
	fl.StringVar(&opts.StateFile, "state", "", "keep the data in FILE across restarts")
	fl.StringVar(&opts.TLSCert, "tls-cert", "", "PEM certificate to serve HTTPS with (with --tls-key)")
	fl.StringVar(&opts.TLSKey, "tls-key", "", "PEM private key of --tls-cert")
	fl.BoolVar(&opts.TLSSelfSigned, "tls-self-signed", false, "serve HTTPS with a fresh self-signed certificate (its path is printed for --ca-cert)")
	fl.StringVar(&opts.Clock, "clock", "", "start a virtual clock at this RFC 3339 time; it moves only by POST /_omctl/clock")
	fl.DurationVar(&opts.NonceTTL, "nonce-ttl", 5*time.Minute, "how long a digest nonce stays fresh, on the server's clock (virtual with --clock)")
	fl.StringVar(&opts.EnvFile, "env-file", "", "write the OMCTL_* variables of the first key to `FILE`, for the shell's source command")
	fl.BoolVar(&opts.Quiet, "quiet", false, "do not log each request")
	fl.StringSliceVar(&opts.WebhookAllow, "webhook-allow", nil, "hosts or CIDR blocks webhooks may be sent to, beyond loopback")
	fl.IntVar(&opts.RateLimit, "rate-limit", 0, "allow each API key or user `N` requests a second, then answer 429 (0: no limit)")
	fl.IntVar(&opts.JournalSize, "journal-size", 10000, "keep the last `N` API requests in the journal (0: keep none)")
	fl.IntVar(&opts.AuthFailures, "auth-failure-limit", 0, "after `N` wrong digest answers in a minute for one key or user, answer its requests 429 until the minute ends (0: no limit)")
	fl.IntVar(&opts.MaxConns, "max-connections", faults.DefaultMaxConnections, "keep at most `N` client connections open; beyond, answer 503 and close (0: no cap)")
	fl.IntVar(&opts.NotesSize, "notification-log-size", 100000, "keep the last `N` notifications in the notification log (0: keep none)")
	fl.IntVar(&opts.HookWorkers, "webhook-concurrency", 16, "send at most `N` webhook deliveries at once (0: the default)")
	fl.IntVar(&opts.HookQueue, "webhook-queue", 10000, "let at most `N` webhook deliveries wait; beyond, a delivery fails at once (0: none wait)")
	opts.JournalBytes = 64 << 20
	fl.Var(&opts.JournalBytes, "journal-bytes", "hold at most `SIZE` of memory in the journal (bytes, or with KiB, MiB or GiB)")
	fl.StringArrayVar(&opts.Keys, "key", nil, "add an API key `PUBLIC:PRIVATE[:ROLE,...]` of the first organization (default role GLOBAL_OWNER; PRIVATE may be @FILE); repeatable")
	fl.StringArrayVar(&opts.Apply, "apply", nil, "apply the omctl apply documents of `PATH` (a file or a directory) before serving, all or nothing; repeatable")
	_ = cmd.MarkFlagFilename("apply", "yaml", "yml", "json")
	for _, g := range flagGroups.exclusive {
		cmd.MarkFlagsMutuallyExclusive(g...)
	}
	for _, g := range flagGroups.together {
		cmd.MarkFlagsRequiredTogether(g...)
	}
	cmd.Long += envTable(cmd)
	usage := cmd.UsageTemplate()
	hideClientFlags(cmd)
	addControlCommands(cmd, usage, NewCmdTrigger(f, nil), NewCmdNotifications(f, nil), NewCmdClock(f, nil), NewCmdReset(f, nil),
		NewCmdRequests(f, nil), newCmdFaults(f, usage), NewCmdDump(f, nil), NewCmdWait(f, nil))
	return cmd
}

// Run starts the server and serves until ctx ends or a signal arrives.
func Run(ctx context.Context, opts *Options) error {
	if err := checkCounts(opts); err != nil {
		return err
	}
	keys, err := parseKeys(opts)
	if err != nil {
		return err
	}
	journalSize := noneIsNegative(opts.JournalSize)
	var state store.Log // nil: memory only
	var stateFile *statelog.File
	// A restart resumes the clock it saved; --clock sets it anew.
	clock := store.RealClock()
	if opts.StateFile != "" {
		file, err := statelog.Open(opts.StateFile)
		if err != nil {
			return err
		}
		defer file.Close()
		state, stateFile = file, file
		// It holds the API keys and webhook secrets of the data.
		config.WarnIfExposed(opts.IO.ErrOut, opts.StateFile, "API keys and webhook secrets")
		if clock, err = store.SavedClock(state); err != nil {
			return err
		}
	}
	if opts.Clock != "" {
		t, err := time.Parse(time.RFC3339, opts.Clock)
		if err != nil {
			return cmdutil.FlagErrorf("invalid %s %q: want RFC 3339 such as 2026-01-01T00:00:00Z", opts.name("clock"), opts.Clock)
		}
		if err := store.CheckTime(t); err != nil {
			return cmdutil.FlagErrorf("invalid %s: %v", opts.name("clock"), err)
		}
		clock = store.VirtualClock(t)
	}
	// Listening comes first: the server knows its URL from the start, for
	// the links of the webhooks that schedules resumed from a state file
	// send at once.
	ln, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		// A busy or unavailable address is a failure of the run, not a usage error.
		return fmt.Errorf("cannot listen on %s (%s): %w", opts.Listen, opts.name("listen"), err)
	}
	defer ln.Close() // when a later step fails; closing twice is harmless
	scheme := "http"
	var caFile string
	urlHost := ln.Addr().String()
	var tlsConf *tls.Config
	if opts.TLSSelfSigned || opts.TLSCert != "" {
		var ca, host string
		if tlsConf, ca, host, err = tlsConfig(opts, ln.Addr()); err != nil {
			return err
		}
		scheme, caFile, urlHost = "https", ca, host
		if opts.TLSSelfSigned {
			// The certificate is this run's alone: leave nothing behind.
			defer os.RemoveAll(filepath.Dir(ca))
		}
	}
	// Connections are counted beneath TLS, so that those served are the
	// *tls.Conn net/http knows; a refused one is answered over TLS too.
	ln = faults.LimitConnections(ln, opts.MaxConns, tlsConf)
	if tlsConf != nil {
		ln = tls.NewListener(ln, tlsConf)
	}
	baseURL := fmt.Sprintf("%s://%s/api/public/v1.0", scheme, urlHost)
	restoreGC := collectOftenWhileLoading()
	defer restoreGC() // when loading fails; restoring twice is harmless
	fixtures, err := seedData(opts, clock.Now())
	if err != nil {
		return err
	}
	logOut := opts.IO.ErrOut
	if opts.Quiet {
		logOut = io.Discard
	}
	server, err := srv.New(srv.Options{Fixtures: fixtures, Clock: clock, NonceTTL: opts.NonceTTL,
		State: state, WebhookAllow: opts.WebhookAllow, Log: logOut, Version: build.Version, GitHash: build.Commit,
		RateLimit: opts.RateLimit, JournalSize: journalSize, JournalBytes: int64(opts.JournalBytes), AuthFailureLimit: opts.AuthFailures, BaseURL: baseURL,
		NotificationLogSize: noneIsNegative(opts.NotesSize), WebhookConcurrency: opts.HookWorkers, WebhookQueue: noneIsNegative(opts.HookQueue),
		Keys: keys})
	if err != nil {
		if stateFile != nil {
			// A state file this start created but could not seed (a full
			// disk) is removed: the next start is a first start.
			stateFile.Abandon()
		}
		var keyErr *fixture.KeyError
		if errors.As(err, &keyErr) {
			return cmdutil.FlagErrorf("invalid %s: %v", opts.name("key"), err)
		}
		return err
	}
	defer server.Close() // before the state file closes
	if len(opts.Apply) > 0 {
		// Before anything is served: health answers 200 only once the
		// documents are in (docs/server.md).
		if err := applyDocuments(ctx, opts, server, baseURL, opts.IO.ErrOut); err != nil {
			return err
		}
	}
	// Loading a large data set leaves much garbage behind: give it back
	// before serving, so that the resident size is the data's.
	restoreGC()
	debug.FreeOSMemory()

	httpServer := srv.NewHTTPServer(server)
	errc := make(chan error, 1)
	go func() { errc <- httpServer.Serve(ln) }()

	// The env file exists before the URL is printed: a job that waits for
	// the URL can source it at once.
	creds := server.Credentials()
	if opts.EnvFile != "" && len(creds) > 0 {
		if err := writeEnvFile(opts.EnvFile, baseURL, creds[0], caFile); err != nil {
			httpServer.Close()
			return err
		}
	}
	fmt.Fprintln(opts.IO.Out, baseURL)
	banner(opts.IO.ErrOut, creds, keys, caFile)
	if opts.Ready != nil {
		opts.Ready(baseURL)
	}

	sigCtx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	select {
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	case <-sigCtx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	fmt.Fprintln(opts.IO.ErrOut, "omctl server: stopping")
	return httpServer.Shutdown(shutdown)
}

// checkCounts refuses a negative count, naming the flag or variable.
func checkCounts(opts *Options) error {
	for _, c := range []struct {
		flag string
		n    int
		want string
	}{
		{"rate-limit", opts.RateLimit, "0 (no limit) or more requests a second"},
		{"auth-failure-limit", opts.AuthFailures, "0 (no limit) or more failures a minute"},
		{"max-connections", opts.MaxConns, "0 (no cap) or more connections"},
		{"journal-size", opts.JournalSize, "0 (no journal) or more requests"},
		{"notification-log-size", opts.NotesSize, "0 (keep none) or more notifications"},
		{"webhook-concurrency", opts.HookWorkers, "1 or more deliveries at once"},
		{"webhook-queue", opts.HookQueue, "0 (none wait) or more deliveries"},
	} {
		if c.n < 0 {
			return cmdutil.FlagErrorf("invalid %s %d: want %s", opts.name(c.flag), c.n, c.want)
		}
	}
	return nil
}

// seedData is the data the server starts from, and goes back to on
// reset: fixtures, demo, or the default organization, project and key. A
// state file that holds data already takes precedence at start.
func seedData(opts *Options, now time.Time) (*fixture.Fixtures, error) {
	switch {
	case opts.FixturesFile != "":
		f, err := fixture.LoadFixtures(opts.FixturesFile)
		if err != nil {
			return nil, &cmdutil.FlagError{Err: err}
		}
		return f, nil
	case opts.Demo:
		return demo.Fixtures(now), nil
	}
	return nil, nil // the server's default data, or what --state holds
}

// tlsConfig is the TLS of --tls-cert or --tls-self-signed, with the file
// a client trusts it by (--ca-cert) and the host:port of the base URL: a
// name the certificate covers, since a client checks the name it dialled.
func tlsConfig(opts *Options, addr net.Addr) (*tls.Config, string, string, error) {
	if opts.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(opts.TLSCert, opts.TLSKey)
		if err != nil {
			return nil, "", "", cmdutil.FlagErrorf("loading --tls-cert/--tls-key: %v", err)
		}
		caFile, err := filepath.Abs(opts.TLSCert)
		if err != nil {
			return nil, "", "", err
		}
		return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, caFile, coveredHost(cert, addr), nil
	}
	host, _, _ := net.SplitHostPort(addr.String())
	cert, certPEM, err := srv.SelfSignedCert(host)
	if err != nil {
		return nil, "", "", err
	}
	dir, err := makeCertDir()
	if err != nil {
		return nil, "", "", err
	}
	caFile := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caFile, certPEM, 0o644); err != nil {
		return nil, "", "", err
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, caFile, addr.String(), nil
}

// coveredHost is host:port of addr under a name cert covers: the address
// itself when the certificate names it, else localhost for a loopback or
// unspecified address when it names that, else its first DNS name, else
// the address (and the client will say the name does not match).
func coveredHost(cert tls.Certificate, addr net.Addr) string {
	host, port, _ := net.SplitHostPort(addr.String())
	leaf, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil || leaf.VerifyHostname(host) == nil {
		return addr.String()
	}
	ip := net.ParseIP(host)
	if ip != nil && (ip.IsLoopback() || ip.IsUnspecified()) && leaf.VerifyHostname("localhost") == nil {
		return net.JoinHostPort("localhost", port)
	}
	for _, name := range leaf.DNSNames {
		if !strings.Contains(name, "*") {
			return net.JoinHostPort(name, port)
		}
	}
	return addr.String()
}

// banner tells the credentials of the data, the private keys of keys
// given at start (--key) left out: their user has them, and the log of a
// CI job is no place for them.
func banner(w io.Writer, creds []fixture.Credential, given []fixture.Key, caFile string) {
	fmt.Fprintln(w, "omctl server: credentials (digest auth, public key / private key):")
	for _, c := range creds {
		private := c.PrivateKey
		for _, k := range given {
			if k.PublicKey == c.PublicKey {
				private = "(given at start)"
			}
		}
		fmt.Fprintf(w, "  %-14s %s  roles=%s project=%s org=%s\n", c.PublicKey, private, c.Roles, c.ProjectID, c.OrgID)
	}
	if caFile != "" {
		fmt.Fprintf(w, "omctl server: TLS certificate for --ca-cert: %s\n", caFile)
	}
}

// writeEnvFile writes the settings of a key in shell syntax, mode 0600
// since it holds a private key.
func writeEnvFile(path, baseURL string, c fixture.Credential, caFile string) error {
	var b strings.Builder
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	fmt.Fprintf(&b, "export OMCTL_BASE_URL=%s\n", q(baseURL))
	fmt.Fprintf(&b, "export OMCTL_PUBLIC_KEY=%s\n", q(c.PublicKey))
	fmt.Fprintf(&b, "export OMCTL_PRIVATE_KEY=%s\n", q(c.PrivateKey))
	fmt.Fprintf(&b, "export OMCTL_PROJECT_ID=%s\n", q(c.ProjectID))
	fmt.Fprintf(&b, "export OMCTL_ORG_ID=%s\n", q(c.OrgID))
	if caFile != "" {
		fmt.Fprintf(&b, "export OMCTL_CA_CERT=%s\n", q(caFile))
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o600); err != nil {
		return fmt.Errorf("writing --env-file: %w", err)
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// loadingGCPercent is the collector's GOGC while the data loads: a million
// alerts are about 700 MiB that live on, and at the default of 100 the heap
// may reach twice what lives before a collection, so the peak passed 1 GiB.
// At 50 it stays near 830 MiB, for about half a second more of start-up
// (docs/performance.md).
const loadingGCPercent = 50

// collectOftenWhileLoading lowers GOGC to loadingGCPercent until the
// function it returns is called; a GOGC set lower, or off, is left alone.
func collectOftenWhileLoading() (restore func()) {
	prev := debug.SetGCPercent(loadingGCPercent)
	if prev < 0 || prev < loadingGCPercent {
		debug.SetGCPercent(prev)
	}
	return func() { debug.SetGCPercent(prev) }
}

// noneIsNegative turns a flag's 0 (none) into the server's -1: the
// server's 0 means its default.
func noneIsNegative(n int) int {
	if n == 0 {
		return -1
	}
	return n
}
