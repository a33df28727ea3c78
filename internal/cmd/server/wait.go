package server

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/iostreams"
)

// WaitOptions are the inputs of `omctl server wait`.
type WaitOptions struct {
	IO *iostreams.IOStreams
	// Settings are the profile's, for its base URL and the TLS trust.
	Settings func() (*config.Settings, error)
	URL      string
	Timeout  time.Duration
	// Every is the pause between two tries.
	Every time.Duration
}

// NewCmdWait builds `omctl server wait`.
func NewCmdWait(f *cmdutil.Factory, runF func(context.Context, *WaitOptions) error) *cobra.Command {
	opts := &WaitOptions{IO: f.IOStreams, Settings: f.Settings, Every: 200 * time.Millisecond}
	cmd := &cobra.Command{
		Use:   "wait [--url URL] [--timeout 30s]",
		Short: "Wait until a server is ready",
		Long: `Wait until omctl server at URL is ready: GET /_omctl/health answers 200,
which it does once its data (--fixtures, --state, --key, --apply) is in
place. It exits 0 then, and 1 with a message if the server is not ready
within --timeout.

URL is the server's address (http://127.0.0.1:8080) or its base URL; the
default is the profile's base URL (--base-url, OMCTL_BASE_URL), else the
address omctl server listens on in this environment (OMCTL_SERVER_LISTEN,
else 127.0.0.1:8080). --ca-cert and --insecure apply as to any command. A CI
job waits for the server it started before its first omctl command; the
container image's health check is this command.`,
		Example: `  omctl server --listen 127.0.0.1:8080 --apply seed/ &
  omctl server wait --url http://127.0.0.1:8080 --timeout 30s`,
		Args: cobra.NoArgs,
		// --timeout is this command's own, not the limit of a client command.
		Annotations: map[string]string{cmdutil.NoDeadline: "true"},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Timeout <= 0 {
				return cmdutil.FlagErrorf("invalid --timeout %s: want a positive duration such as 30s", opts.Timeout)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return waitRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.URL, "url", "", "the server's address or base URL (default: the profile's base URL, else OMCTL_SERVER_LISTEN's)")
	cmd.Flags().DurationVar(&opts.Timeout, "timeout", 30*time.Second, "give up after this long")
	return cmd
}

// healthTry bounds one request: a server that accepted the connection
// but does not answer yet (it is still loading) is asked again.
const healthTry = 2 * time.Second

func waitRun(ctx context.Context, opts *WaitOptions) error {
	c, err := healthClient(opts)
	if err != nil {
		return err
	}
	healthURL := c.URL(api.GetHealth.Path(), nil)
	start := time.Now()
	deadline, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	// why is the last try's failure, unless the timeout cut that try short:
	// then an earlier answer (a 503 while loading) says more.
	var why error
	for {
		try, cancelTry := context.WithTimeout(deadline, healthTry)
		_, err := c.Do(try, http.MethodGet, api.GetHealth.Path(), nil, nil)
		cancelTry()
		if err != nil && (why == nil || deadline.Err() == nil) {
			why = err
		}
		if err == nil {
			if opts.IO.IsStderrTTY() {
				fmt.Fprintf(opts.IO.ErrOut, "✓ %s is ready (%s)\n", healthURL, time.Since(start).Round(time.Millisecond))
			}
			return nil
		}
		if ctx.Err() != nil {
			return cmdutil.StopCause(ctx)
		}
		select {
		case <-deadline.Done():
		case <-time.After(opts.Every):
			continue
		}
		if ctx.Err() != nil {
			return cmdutil.StopCause(ctx)
		}
		return fmt.Errorf("%s did not answer 200 within %s: %s", healthURL, opts.Timeout, whyNotReady(why))
	}
}

// healthClient is a client of the server to wait for, trusting what the
// profile trusts; it asks once a try, without a key. The server is --url,
// else the profile's base URL, else the one omctl server starts in this
// environment (localServer).
func healthClient(opts *WaitOptions) (*client.Client, error) {
	s, err := opts.Settings()
	if err != nil && opts.URL == "" {
		return nil, err
	}
	if s == nil {
		// A config that cannot be read leaves the URL given.
		s = &config.Settings{}
	}
	url, insecure := opts.URL, s.Insecure
	if url == "" {
		url = s.BaseURL
	}
	if url == "" {
		if url, insecure, err = localServer(os.LookupEnv); err != nil {
			return nil, err
		}
	}
	retries := 0
	c, err := client.New(client.Options{BaseURL: url, CACertFile: s.CACert, Insecure: insecure, Retries: &retries})
	if err != nil && opts.URL != "" {
		return nil, cmdutil.FlagErrorf("invalid --url: %v", err)
	}
	if err != nil {
		return nil, &cmdutil.FlagError{Err: err}
	}
	return c, nil
}

// localServer is where omctl server listens when started in this
// environment: OMCTL_SERVER_LISTEN (every interface asked on loopback),
// else its default, 127.0.0.1:8080. The container image's health check
// asks it so, and follows a port its user changed. With TLS from the
// environment the probe trusts any certificate: it sends no credential,
// and health answers nothing secret.
func localServer(lookup func(string) (string, bool)) (url string, insecure bool, err error) {
	listen, _ := lookup(EnvName("listen"))
	if listen = strings.TrimSpace(listen); listen == "" {
		listen = defaultListen
	}
	host, port, err := net.SplitHostPort(listen)
	if err != nil || port == "0" {
		return "", false, cmdutil.FlagErrorf("no server to wait for: give --url (%s=%s names no fixed address)", EnvName("listen"), listen)
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	scheme := "http"
	selfSigned, _ := lookup(EnvName("tls-self-signed"))
	cert, _ := lookup(EnvName("tls-cert"))
	if on, _ := strconv.ParseBool(selfSigned); on || strings.TrimSpace(cert) != "" {
		scheme, insecure = "https", true
	}
	return scheme + "://" + net.JoinHostPort(host, port), insecure, nil
}

// whyNotReady says why the last try failed, in the user's terms.
func whyNotReady(err error) string {
	var apiErr *client.APIError
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &apiErr):
		return fmt.Sprintf("it answered %d", apiErr.StatusCode)
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused: nothing listens there"
	case errors.Is(err, context.DeadlineExceeded):
		return "it did not answer (still loading its data, or not a server that answers)"
	case errors.As(err, &unknownCA):
		return "its TLS certificate is not trusted: give --ca-cert"
	case errors.As(err, &hostErr):
		return "its TLS certificate does not name the host: " + hostErr.Error()
	case errors.As(err, &dnsErr):
		return fmt.Sprintf("the host %s is not known", dnsErr.Name)
	}
	return err.Error()
}
