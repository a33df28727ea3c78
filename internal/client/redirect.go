package client

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// maxRedirects bounds the redirects a GET follows, as net/http does.
const maxRedirects = 10

// checkRedirect follows redirects of reads only. A write (POST, PUT,
// PATCH, DELETE) that is redirected is not repeated elsewhere, nor turned
// into a GET as net/http does for 301, 302 and 303: Do reports it as a
// *RedirectError, so nothing looks done that was not.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if m := via[0].Method; m != http.MethodGet && m != http.MethodHead {
		return http.ErrUseLastResponse
	}
	if len(via) >= maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	return nil
}

func isRedirect(status int) bool { return status >= 300 && status <= 399 }

// RedirectError is a redirect omctl did not follow.
type RedirectError struct {
	Method     string
	URL        string
	StatusCode int
	Status     string
	Location   string
}

func newRedirectError(method string, u *url.URL, res *http.Response) *RedirectError {
	return &RedirectError{Method: method, URL: u.Redacted(), StatusCode: res.StatusCode,
		Status: strings.TrimSpace(strings.TrimPrefix(res.Status, fmt.Sprint(res.StatusCode))), Location: res.Header.Get("Location")}
}

func (e *RedirectError) Error() string {
	loc := e.Location
	if loc == "" {
		loc = "no Location"
	}
	answered := fmt.Sprintf("%s %s was answered %d %s (Location: %s)", e.Method, e.URL, e.StatusCode, e.Status, loc)
	if e.Method == http.MethodGet || e.Method == http.MethodHead {
		return answered + ", a redirect omctl cannot follow: check the base URL"
	}
	return answered + "; omctl does not follow redirects of writes, so nothing was sent there: check the base URL"
}

// origin is scheme://host[:port], what credentials are bound to.
func origin(u *url.URL) string {
	return strings.ToLower(u.Scheme + "://" + u.Host)
}

// originOnly sends requests for the base URL's origin through the digest
// transport and every other request (a followed redirect to another host
// or port) through plain, so no challenge from elsewhere is answered and
// no credentials leave for another host.
type originOnly struct {
	origin string
	authed http.RoundTripper
	plain  http.RoundTripper
}

func (t *originOnly) RoundTrip(req *http.Request) (*http.Response, error) {
	if origin(req.URL) == t.origin {
		return t.authed.RoundTrip(req)
	}
	return t.plain.RoundTrip(req)
}
