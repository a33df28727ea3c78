package server

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store"
)

// Bounds of a fault (docs/server.md, Faults).
const (
	// maxFaultDelay is the longest delay: beyond the server's write
	// timeout no answer could be sent anyway.
	maxFaultDelay   = writeTimeout
	maxFaultPath    = 1024
	maxRetryAfter   = 86400
	maxFaultTimes   = 1 << 31
	maxErrorCodeLen = 100
)

var faultMethods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

// fault is one fault to inject, as the controls show it.
type fault struct {
	ID          string  `json:"id"`
	Method      string  `json:"method,omitempty"`
	Path        string  `json:"path"`
	Status      int     `json:"status,omitempty"`
	ErrorCode   string  `json:"errorCode,omitempty"`
	RetryAfter  *int64  `json:"retryAfter,omitempty"`
	Delay       string  `json:"delay,omitempty"`
	Times       *int64  `json:"times,omitempty"` // remaining; absent: no end
	Probability float64 `json:"probability"`
	Reset       bool    `json:"reset"`

	pattern globPattern
	delay   time.Duration
}

func faultSchema() rules.Schema {
	return rules.Schema{
		"method":      rules.Str(faultMethods...),
		"path":        rules.Str().Req(),
		"status":      rules.Integer().Within(400, 599),
		"errorCode":   rules.Str(),
		"retryAfter":  rules.Integer().Within(0, maxRetryAfter),
		"delay":       rules.Str(),
		"times":       rules.Integer().Within(1, maxFaultTimes),
		"probability": rules.Number().Within(0, 1),
		"reset":       rules.Bool(),
	}
}

// parseFault checks the body of POST /_omctl/faults.
func parseFault(body doc) (*fault, *apiError) {
	if err := faultSchema().Check(body, "", nil); err != nil {
		return nil, fromRule(err)
	}
	f := &fault{Probability: 1}
	f.Method, _ = body["method"].(string)
	f.Path = body["path"].(string)
	pat, perr := parseGlob(f.Path)
	if perr != "" {
		return nil, errBadRequest("INVALID_JSON_ATTRIBUTE", fmt.Sprintf("path %q: %s.", f.Path, perr), "path")
	}
	f.pattern = pat
	if v, ok := body["status"].(int64); ok {
		f.Status = int(v)
	}
	if v, ok := body["retryAfter"].(int64); ok {
		f.RetryAfter = &v
	}
	if v, ok := body["times"].(int64); ok {
		f.Times = &v
	}
	switch v := body["probability"].(type) {
	case int64:
		f.Probability = float64(v)
	case float64:
		f.Probability = v
	}
	f.Reset, _ = body["reset"].(bool)
	if v, ok := body["delay"].(string); ok {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > maxFaultDelay {
			return nil, errBadRequest("INVALID_JSON_ATTRIBUTE",
				fmt.Sprintf("delay %q is not a Go duration from 0 to %s, such as 1500ms or 2s.", v, maxFaultDelay), "delay")
		}
		f.Delay, f.delay = v, d
	}
	code, hasCode := body["errorCode"].(string)
	if hasCode && !validErrorCode(code) {
		return nil, errBadRequest("INVALID_JSON_ATTRIBUTE",
			fmt.Sprintf("errorCode %q must be 1 to %d capital letters, digits and underscores, such as SERVICE_UNAVAILABLE.", code, maxErrorCodeLen), "errorCode")
	}
	switch {
	case f.Status != 0 && f.Reset:
		return nil, errBadRequest("INVALID_JSON_ATTRIBUTE",
			"reset closes the connection without an answer, so it cannot go with status: give one of them.", "reset")
	case f.Status == 0 && hasCode:
		return nil, errBadRequest("MISSING_ATTRIBUTE", "errorCode is the code of a status answer: give status (400 to 599) too.", "status")
	case f.Status == 0 && f.RetryAfter != nil:
		return nil, errBadRequest("MISSING_ATTRIBUTE", "retryAfter is a header of a status answer: give status (400 to 599) too.", "status")
	}
	if f.Status != 0 {
		f.ErrorCode = code
		if !hasCode {
			f.ErrorCode = defaultErrorCode(f.Status)
		}
	}
	return f, nil
}

func validErrorCode(s string) bool {
	if s == "" || len(s) > maxErrorCodeLen {
		return false
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// defaultErrorCode is the errorCode of a fault's status when none is given.
func defaultErrorCode(status int) string {
	switch status {
	case http.StatusTooManyRequests:
		return "RATE_LIMITED"
	case http.StatusInternalServerError:
		return "UNEXPECTED_ERROR"
	}
	text := http.StatusText(status)
	if text == "" {
		return "HTTP_" + strconv.Itoa(status)
	}
	var b strings.Builder
	sep := false
	for _, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if sep && b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToUpper(r))
			sep = false
		} else {
			sep = true
		}
	}
	return b.String()
}

// globPattern is a path pattern split in segments: "**" matches zero or
// more segments, "*" one, and a "*" within a segment any run of
// characters in it.
type globPattern []string

// parseGlob reads a fault's path; a path starting with the API base path
// is taken after it. It returns why the path is refused, or "".
func parseGlob(p string) (globPattern, string) {
	switch {
	case p == "" || p[0] != '/':
		return nil, "want a path after the API base path, starting with /, such as /groups/*/alerts"
	case len(p) > maxFaultPath:
		return nil, fmt.Sprintf("longer than %d characters", maxFaultPath)
	}
	if isAPIPath(p) {
		p = strings.TrimPrefix(p, apiBase)
		if p == "" {
			p = "/"
		}
	}
	segs := strings.Split(p[1:], "/")
	for _, s := range segs {
		if strings.Contains(s, "**") && s != "**" {
			return nil, "** must be a whole segment (/groups/**), matching zero or more of them"
		}
	}
	return segs, ""
}

// match reports whether the path after the API base matches: "**"
// stands for any run of segments, and every other element matches one.
func (g globPattern) match(p string) bool {
	if p == "" {
		p = "/"
	}
	if p[0] != '/' {
		return false
	}
	return wildcard(g, strings.Split(p[1:], "/"), "**", segmentMatch)
}

// segmentMatch matches one segment: "*" any non-empty segment, a "*"
// among other characters any run of characters.
func segmentMatch(pat, s string) bool {
	switch {
	case pat == "*":
		return s != ""
	case !strings.Contains(pat, "*"):
		return pat == s
	}
	return wildcard([]byte(pat), []byte(s), '*', func(a, b byte) bool { return a == b })
}

// wildcard matches s against pat, where star stands for any run of
// elements and every other element must be matched by one of s. A star
// that fails is retried one element further: the classic algorithm,
// quadratic at worst, never exponential.
func wildcard[T comparable](pat, s []T, star T, one func(T, T) bool) bool {
	pi, si := 0, 0
	lastStar, mark := -1, 0
	for si < len(s) {
		switch {
		case pi < len(pat) && pat[pi] == star:
			lastStar, mark = pi, si
			pi++
		case pi < len(pat) && one(pat[pi], s[si]):
			pi++
			si++
		case lastStar >= 0:
			pi = lastStar + 1
			mark++
			si = mark
		default:
			return false
		}
	}
	for pi < len(pat) && pat[pi] == star {
		pi++
	}
	return pi == len(pat)
}

// faultSet holds the faults, in the order they were added, under a lock
// of its own.
type faultSet struct {
	mu     sync.Mutex
	faults []*fault
	draw   func() float64 // in [0, 1)
}

func newFaultSet() *faultSet { return &faultSet{draw: rand.Float64} }

func (fs *faultSet) add(f *fault) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	f.ID = store.NewObjectID()
	fs.faults = append(fs.faults, f)
}

// take returns a copy of the first fault that applies to a request,
// counting the use; a fault whose times are used up is gone.
func (fs *faultSet) take(method, apiPath string) *fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, f := range fs.faults {
		if f.Method != "" && f.Method != method || !f.pattern.match(apiPath) {
			continue
		}
		if f.Probability < 1 && fs.draw() >= f.Probability {
			continue
		}
		applied := *f
		if f.Times != nil {
			left := *f.Times - 1
			f.Times = &left
			if left == 0 {
				fs.faults = append(fs.faults[:i:i], fs.faults[i+1:]...)
			}
		}
		return &applied
	}
	return nil
}

func (fs *faultSet) remove(id string) bool {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, f := range fs.faults {
		if f.ID == id {
			fs.faults = append(fs.faults[:i:i], fs.faults[i+1:]...)
			return true
		}
	}
	return false
}

func (fs *faultSet) clear() {
	fs.mu.Lock()
	fs.faults = nil
	fs.mu.Unlock()
}

// encoded returns every fault as JSON.
func (fs *faultSet) encoded() [][]byte {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := make([][]byte, len(fs.faults))
	for i, f := range fs.faults {
		out[i] = rules.EncodeJSON(f)
	}
	return out
}

// injectFault applies the first fault matching an API request, after its
// authentication and access list and before its handler, and reports
// whether the answer is decided: then the handler does not run, and the
// request changes nothing. The delay holds no lock; a reset closes the
// connection without an answer.
func (s *Server) injectFault(c *reqCtx) bool {
	if !isAPIPath(c.r.URL.Path) {
		return false
	}
	f := s.faults.take(c.r.Method, strings.TrimPrefix(c.r.URL.Path, apiBase))
	if f == nil {
		return false
	}
	if f.delay > 0 {
		t := time.NewTimer(f.delay)
		select {
		case <-t.C:
		case <-c.r.Context().Done():
			t.Stop()
			panic(http.ErrAbortHandler) // the client is gone: nobody to answer
		}
	}
	switch {
	case f.Reset:
		panic(http.ErrAbortHandler)
	case f.Status != 0:
		if f.RetryAfter != nil {
			c.header.Set("Retry-After", strconv.FormatInt(*f.RetryAfter, 10))
		}
		c.fail(newError(f.Status, f.ErrorCode,
			fmt.Sprintf("The server is answering %d %s: fault %s matches %s %s.", f.Status, f.ErrorCode, f.ID, c.r.Method, c.r.URL.Path),
			f.ID))
		return true
	}
	return false
}

// controlFaults serves POST, GET and DELETE /_omctl/faults.
func (s *Server) controlFaults(c *reqCtx) *apiError {
	switch c.r.Method {
	case http.MethodPost:
		if err := onlyQuery(c); err != nil {
			return err
		}
		body, err := c.readObject()
		if err != nil {
			return err
		}
		f, err := parseFault(body)
		if err != nil {
			return err
		}
		s.faults.add(f)
		c.writeRaw(http.StatusOK, rules.EncodeJSON(f))
	case http.MethodDelete:
		if err := onlyQuery(c); err != nil {
			return err
		}
		s.faults.clear()
		c.writeRaw(http.StatusOK, []byte(`{}`))
	default:
		if err := onlyQuery(c); err != nil {
			return err
		}
		p, err := c.page()
		if err != nil {
			return err
		}
		all := s.faults.encoded()
		from := min(p.Offset(), len(all))
		c.listRaw(all[from:min(from+p.Size, len(all))], len(all), p)
	}
	return nil
}

// controlFault serves DELETE /_omctl/faults/{fault_id}.
func (s *Server) controlFault(c *reqCtx) *apiError {
	if err := onlyQuery(c); err != nil {
		return err
	}
	if !s.faults.remove(c.r.PathValue("fault_id")) {
		return errResourceNotFound(c.r.URL.Path)
	}
	c.writeRaw(http.StatusOK, []byte(`{}`))
	return nil
}
