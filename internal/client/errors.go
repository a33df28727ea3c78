package client

import (
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// APIError is a non-2xx answer of the server.
type APIError struct {
	StatusCode int
	ErrorCode  string
	Detail     string
	Reason     string
	// RetryAfter is the Retry-After header of a 429 or 503, if any.
	RetryAfter string
}

func newAPIError(res *http.Response, body []byte) *APIError {
	e := &APIError{StatusCode: res.StatusCode, RetryAfter: res.Header.Get("Retry-After")}
	var payload struct {
		Detail    string `json:"detail"`
		ErrorCode string `json:"errorCode"`
		Reason    string `json:"reason"`
	}
	if json.Unmarshal(body, &payload) == nil {
		e.Detail, e.ErrorCode, e.Reason = payload.Detail, payload.ErrorCode, payload.Reason
	}
	if e.Reason == "" {
		e.Reason = http.StatusText(res.StatusCode)
	}
	if e.Detail == "" && e.ErrorCode == "" {
		// A body that is not the API's error shape (a proxy's page, say) is
		// summed up so the user sees what answered.
		e.Detail = summary(body)
		if res.StatusCode == http.StatusNotFound {
			e.Detail = strings.TrimPrefix(e.Detail+"; ", "; ") +
				"the server answered without the API's error body: is the base URL the API's (https://host:port, or a full path ending in /api/public/v1.0)?"
		}
	}
	return e
}

// htmlTitle is compiled when an answer is not the API's, not on every
// start (docs/performance.md, "Start-up").
var htmlTitle = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`) })

// summary is the gist of a body that is not the API's: an HTML page's
// title, or the first line of text, shortened.
func summary(body []byte) string {
	text := strings.TrimSpace(string(body))
	if m := htmlTitle().FindStringSubmatch(text); m != nil {
		return "an HTML page titled " + strconv.Quote(strings.Join(strings.Fields(m[1]), " "))
	}
	if strings.HasPrefix(text, "<") {
		return "an HTML page"
	}
	text, _, _ = strings.Cut(text, "\n")
	if len(text) > 120 {
		text = text[:120] + "…"
	}
	return text
}

// Error reads like `404 ALERT_NOT_FOUND: No alert with ID … exists in group ….`
func (e *APIError) Error() string {
	code := e.ErrorCode
	if code == "" {
		code = strings.ToUpper(strings.ReplaceAll(e.Reason, " ", "_"))
	}
	msg := fmt.Sprintf("%d %s", e.StatusCode, code)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if e.RetryAfter != "" {
		msg += " (retry after " + e.RetryAfter + "s)"
	}
	return msg
}

// actionable turns a network or TLS failure into words a person can act
// on; the error stays wrapped for callers that test it.
func actionable(err error) error {
	var unknownCA x509.UnknownAuthorityError
	var badHost x509.HostnameError
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return &hintError{err, "the connection was refused: is the server running, and is the base URL's port right?"}
	case errors.As(err, &unknownCA):
		return &hintError{err, "the server's certificate is signed by an authority this machine does not trust: pass that authority's certificate with --ca-cert FILE (or, unsafely, skip the check with --insecure)"}
	case errors.As(err, &badHost):
		return &hintError{err, fmt.Sprintf("the server's certificate is not for %s: check the base URL's host name (or, unsafely, --insecure)", badHost.Host)}
	case errors.As(err, &dns) && dns.IsNotFound:
		return &hintError{err, fmt.Sprintf("no host is named %s: check the base URL", dns.Name)}
	}
	return err
}

// ErrOutcomeUnknown is in the chain of the error of a write whose
// connection was lost once the request could have reached the server: it
// may or may not have been applied, so it neither failed nor succeeded.
var ErrOutcomeUnknown = errors.New("the outcome of the request is unknown")

// outcomeUnknown is the error of such a write, keeping the cause.
type outcomeUnknown struct{ cause error }

func (e *outcomeUnknown) Error() string {
	return "the connection was lost before an answer came: the request may or may not have been applied; look at the resource (a list or describe) before sending it again"
}
func (e *outcomeUnknown) Unwrap() error        { return e.cause }
func (e *outcomeUnknown) Is(target error) bool { return target == ErrOutcomeUnknown }

// hintError says what went wrong in a person's words, keeping the cause.
type hintError struct {
	cause error
	hint  string
}

func (e *hintError) Error() string { return e.hint }
func (e *hintError) Unwrap() error { return e.cause }
