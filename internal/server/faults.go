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

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/httpx"
)

// fault is one fault to inject: as the controls show it, and as it is
// matched.
type fault struct {
	api.Fault

	pattern globPattern
	delay   time.Duration
}

// parseFault checks the body of AddFault (the rules are in internal/rules).
func parseFault(body doc) (*fault, error) {
	if err := rules.CheckFault(body); err != nil {
		return nil, err
	}
	f := &fault{Fault: api.Fault{Probability: 1}}
	f.Method, _ = body["method"].(string)
	f.Path = body["path"].(string)
	f.pattern, _ = parseGlob(f.Path)
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
		f.Delay = v
		f.delay, _ = rules.FaultDelay("delay", v)
	}
	if f.Status != 0 {
		f.ErrorCode, _ = body["errorCode"].(string)
		if f.ErrorCode == "" {
			f.ErrorCode = defaultErrorCode(f.Status)
		}
	}
	return f, nil
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
	if err := rules.FaultPath("path", p); err != nil {
		return nil, err.Rule()
	}
	if api.IsAPIPath(p) {
		p = strings.TrimPrefix(p, apiBase)
		if p == "" {
			p = "/"
		}
	}
	return strings.Split(p[1:], "/"), ""
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
	f.ID = api.NewObjectID()
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
	if !api.IsAPIPath(c.r.URL.Path) {
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
		c.fail(httpx.New(f.Status, f.ErrorCode,
			fmt.Sprintf("The server is answering %d %s: fault %s matches %s %s.", f.Status, f.ErrorCode, f.ID, c.r.Method, c.r.URL.Path),
			f.ID))
		return true
	}
	return false
}

// addFault adds a fault (api.AddFault).
func (s *Server) addFault(c *reqCtx) error {
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
	return nil
}

// clearFaults removes every fault (api.ClearFaults).
func (s *Server) clearFaults(c *reqCtx) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	s.faults.clear()
	c.writeRaw(http.StatusOK, []byte(`{}`))
	return nil
}

// listFaults lists the faults in the order they were added (api.ListFaults).
func (s *Server) listFaults(c *reqCtx) error {
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
	return nil
}

// removeFault removes one fault (api.RemoveFault).
func (s *Server) removeFault(c *reqCtx) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	if !s.faults.remove(c.r.PathValue("fault_id")) {
		return httpx.ResourceNotFound(c.r.URL.Path)
	}
	c.writeRaw(http.StatusOK, []byte(`{}`))
	return nil
}
