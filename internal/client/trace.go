package client

import (
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

// traceTransport writes each exchange's request line, headers and status
// to w. It sits below digest auth so both the challenge and the retry show.
type traceTransport struct {
	next http.RoundTripper
	w    io.Writer
	mu   sync.Mutex
}

var secretHeaders = map[string]bool{"Authorization": true, "Cookie": true, "Set-Cookie": true, "Proxy-Authorization": true}

func (t *traceTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	res, err := t.next.RoundTrip(req)
	var b strings.Builder
	fmt.Fprintf(&b, "> %s %s\n", req.Method, req.URL.Redacted())
	writeHeaders(&b, "> ", req.Header)
	if req.ContentLength > 0 {
		fmt.Fprintf(&b, "> (body: %d bytes, not shown)\n", req.ContentLength)
	}
	if err != nil {
		fmt.Fprintf(&b, "< error: %v\n", err)
	} else {
		fmt.Fprintf(&b, "< %s %s (%s)\n", res.Proto, res.Status, time.Since(start).Round(time.Millisecond))
		writeHeaders(&b, "< ", res.Header)
	}
	b.WriteString("\n")
	t.mu.Lock()
	io.WriteString(t.w, b.String())
	t.mu.Unlock()
	return res, err
}

func writeHeaders(b *strings.Builder, prefix string, h http.Header) {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := strings.Join(h[k], ", ")
		if secretHeaders[http.CanonicalHeaderKey(k)] {
			v = redactAuth(v)
		}
		fmt.Fprintf(b, "%s%s: %s\n", prefix, k, v)
	}
}

// redactAuth keeps the scheme and user name of a digest header (useful when
// debugging which key was used) and drops everything derived from the secret.
func redactAuth(v string) string {
	scheme, rest, _ := strings.Cut(v, " ")
	if !strings.EqualFold(scheme, "Digest") {
		return "[REDACTED]"
	}
	for _, part := range strings.Split(rest, ",") {
		part = strings.TrimSpace(part)
		if strings.HasPrefix(part, "username=") {
			return scheme + " " + part + ", [REDACTED]"
		}
	}
	return scheme + " [REDACTED]"
}
