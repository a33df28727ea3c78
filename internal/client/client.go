// Package client speaks the API over HTTP: digest authentication, base
// URL handling, typed errors and pagination, in one place for every command.
package client

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/build"
	"github.com/omctl/omctl/internal/listpage"
)

// Options configure a Client. Zero values are sensible defaults.
type Options struct {
	BaseURL    string
	PublicKey  string // or a user name
	PrivateKey string // or that user's API key
	CACertFile string
	Insecure   bool
	// Timeout bounds one whole request, retries for authentication included.
	Timeout time.Duration
	// Debug, when set, receives a trace of every HTTP exchange with
	// credentials redacted and no bodies, since bodies carry secrets.
	Debug io.Writer
	// Envelope and Pretty are passed to the server on every request.
	Envelope bool
	Pretty   bool
	// Transport replaces the network transport (tests); digest auth still wraps it.
	Transport http.RoundTripper
	// Retries is how many times a repeatable request is tried again when
	// the service is briefly unavailable; nil means DefaultRetries, 0 none.
	Retries *int
	// OnRetry, when set, is told of each retry before its wait.
	OnRetry func(Retry)
}

// Client is an authenticated API client. It is safe for concurrent use and
// meant to live for the whole process so one digest challenge serves all calls.
type Client struct {
	base     *url.URL
	http     *http.Client
	envelope bool
	pretty   bool
	clock    *serverClock
	// plain is the transport below authentication and retries.
	plain http.RoundTripper
}

// UserAgent is sent with every request.
func UserAgent() string {
	return fmt.Sprintf("omctl/%s (%s; %s)", build.Version, runtime.GOOS, runtime.GOARCH)
}

// NormalizeBaseURL accepts `https://host:port` (the API path is added) or a
// URL that already carries a path, and returns it without a trailing slash.
func NormalizeBaseURL(raw string) (string, error) {
	if raw == "" {
		return "", fmt.Errorf("no base URL: set --base-url, OMCTL_BASE_URL or base_url in the profile")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("invalid base URL %q: want http(s)://host[:port][/api/public/v1.0]", raw)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("invalid base URL %q: it must not carry a query or fragment", raw)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	if u.Path == "" {
		u.Path = api.BasePath
	}
	return u.String(), nil
}

// New builds a Client.
func New(opts Options) (*Client, error) {
	base, err := NormalizeBaseURL(opts.BaseURL)
	if err != nil {
		return nil, err
	}
	u, _ := url.Parse(base)
	rt := opts.Transport
	if rt == nil {
		t, err := networkTransport(opts)
		if err != nil {
			return nil, err
		}
		rt = t
	}
	clock := &serverClock{}
	rt = &dateTransport{next: rt, clock: clock}
	if opts.Debug != nil {
		rt = &traceTransport{next: rt, w: opts.Debug}
	}
	rt = &userAgentTransport{next: rt}
	plain := rt
	if opts.PublicKey != "" || opts.PrivateKey != "" {
		// Credentials go to the base URL's origin only: a redirect to
		// another host is followed (GET only) without authentication.
		rt = &originOnly{origin: origin(u), authed: DigestTransport(opts.PublicKey, opts.PrivateKey, rt), plain: rt}
	}
	retries := DefaultRetries
	if opts.Retries != nil {
		retries = *opts.Retries
	}
	rt = newRetryTransport(rt, retries, opts.OnRetry)
	return &Client{
		base:     u,
		http:     &http.Client{Transport: rt, Timeout: opts.Timeout, CheckRedirect: checkRedirect},
		envelope: opts.Envelope,
		pretty:   opts.Pretty,
		clock:    clock,
		plain:    plain,
	}, nil
}

func networkTransport(opts Options) (*http.Transport, error) {
	tlsConf := &tls.Config{MinVersion: tls.VersionTLS12}
	if opts.Insecure {
		tlsConf.InsecureSkipVerify = true
	}
	if opts.CACertFile != "" {
		pem, err := os.ReadFile(opts.CACertFile)
		if err != nil {
			return nil, fmt.Errorf("reading CA certificate: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("CA certificate %s holds no PEM certificate", opts.CACertFile)
		}
		tlsConf.RootCAs = pool
	}
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSClientConfig:       tlsConf,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 60 * time.Second,
		IdleConnTimeout:       90 * time.Second,
		MaxIdleConnsPerHost:   4,
		ForceAttemptHTTP2:     true,
	}, nil
}

// ControlPrefix is where omctl server keeps its test controls, on the base
// URL's host but outside its path (docs/server.md).
const ControlPrefix = api.ControlBase + "/"

// URL resolves an API path (relative to the base URL) with a query.
// A path that already starts with the base path, or is a test control's,
// is taken as is.
func (c *Client) URL(path string, query url.Values) string {
	u := *c.base
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	if !strings.HasPrefix(path, c.base.Path+"/") && !strings.HasPrefix(path, ControlPrefix) {
		path = c.base.Path + path
	}
	// Paths come escaped (api.Endpoint.Path escapes each id): keep them
	// as they are rather than escape them again.
	if unescaped, err := url.PathUnescape(path); err == nil {
		u.Path, u.RawPath = unescaped, path
	} else {
		u.Path = path
	}
	q := url.Values{}
	for k, v := range query {
		q[k] = v
	}
	if c.envelope {
		q.Set("envelope", "true")
	}
	if c.pretty {
		q.Set("pretty", "true")
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// Response is a successful response with its body read.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       []byte
}

// Do sends one request. body, when not nil, is encoded as JSON unless it is
// already []byte or json.RawMessage. A non-2xx answer is returned as *APIError.
func (c *Client) Do(ctx context.Context, method, path string, query url.Values, body any) (*Response, error) {
	var payload []byte
	switch b := body.(type) {
	case nil:
	case []byte:
		payload = b
	case json.RawMessage:
		payload = b
	default:
		var err error
		if payload, err = json.Marshal(b); err != nil {
			return nil, fmt.Errorf("encoding request body: %w", err)
		}
	}
	var rd io.Reader
	if payload != nil {
		rd = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.URL(path, query), rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	addHeaders(req)
	tries := &attempts{}
	req = req.WithContext(context.WithValue(ctx, attemptsKey{}, tries))
	start := time.Now()
	res, err := c.http.Do(req)
	if err != nil {
		err = unwrapURLError(err)
		if isWrite(method) && (lostConnection(err) || tries.lost) && ctx.Err() == nil {
			err = &outcomeUnknown{err}
		}
		return nil, withAttempts(fmt.Errorf("%s %s: %w", method, req.URL.Redacted(), err), tries, start)
	}
	defer res.Body.Close()
	if isRedirect(res.StatusCode) {
		return nil, newRedirectError(method, req.URL, res)
	}
	data, err := readBody(res.Body, res.ContentLength, bodyLimit(ctx))
	if err != nil {
		return nil, fmt.Errorf("reading response of %s %s: %w", method, req.URL.Redacted(), err)
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, withAttempts(newAPIError(res, data), tries, start)
	}
	return &Response{StatusCode: res.StatusCode, Header: res.Header, Body: data}, nil
}

func unwrapURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		err = ue.Err
	}
	return actionable(err)
}

// Get fetches one resource and returns its JSON as received.
func (c *Client) Get(ctx context.Context, path string, query url.Values) ([]byte, error) {
	res, err := c.Do(ctx, http.MethodGet, path, query, nil)
	if err != nil {
		return nil, err
	}
	return res.Body, nil
}

// Send makes a write call and returns the JSON of its answer as received.
// An empty 2xx answer (the real service's DELETE of an alert
// configuration) is success, and reads as the empty object {}, so every
// output format prints it (docs/writes.md).
func (c *Client) Send(ctx context.Context, method, path string, body any) ([]byte, error) {
	res, err := c.Do(ctx, method, path, nil, body)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(res.Body)) == 0 {
		return []byte("{}"), nil
	}
	return res.Body, nil
}

// Content returns the resource inside a single-resource response, taking
// it out of its envelope (`{"status":…, "content":…}`) when there is one.
func (c *Client) Content(body []byte) []byte {
	if !c.envelope {
		return body
	}
	return UnwrapEnvelope(body)
}

type userAgentTransport struct{ next http.RoundTripper }

func (t *userAgentTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("User-Agent", UserAgent())
	return t.next.RoundTrip(req)
}

// UnwrapEnvelope returns the resource inside an `envelope=true` response.
func UnwrapEnvelope(body []byte) []byte { return listpage.Unwrap(body) }

// Page is one page of a list as the server sent it.
type Page = listpage.Page
