// Package faults is what omctl server does to requests on purpose: the
// faults a test injects (docs/server.md, Faults), the rate limit per
// caller (--rate-limit) and the cap on open connections.
package faults

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
)

// Fault is one Fault to inject: as the controls show it, and as it is
// matched.
type Fault struct {
	api.Fault

	pattern globPattern
	delay   time.Duration
}

// Parse checks the body of AddFault (the rules are in internal/rules).
func Parse(body rules.Doc) (*Fault, error) {
	if err := rules.CheckFault(body); err != nil {
		return nil, err
	}
	f := &Fault{Fault: api.Fault{Probability: 1}}
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
		p = strings.TrimPrefix(p, api.BasePath)
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

// Set holds the faults, in the order they were added, under a lock
// of its own.
type Set struct {
	mu     sync.Mutex
	faults []*Fault
	draw   func() float64 // in [0, 1)
}

func NewSet() *Set { return &Set{draw: rand.Float64} }

func (fs *Set) Add(f *Fault) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	f.ID = api.NewObjectID()
	fs.faults = append(fs.faults, f)
}

// Take returns a copy of the first fault that applies to a request,
// counting the use; a fault whose times are used up is gone.
func (fs *Set) Take(method, apiPath string) *Fault {
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

func (fs *Set) Remove(id string) bool {
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

func (fs *Set) Clear() {
	fs.mu.Lock()
	fs.faults = nil
	fs.mu.Unlock()
}

// Encoded returns every fault as JSON.
func (fs *Set) Encoded() [][]byte {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := make([][]byte, len(fs.faults))
	for i, f := range fs.faults {
		out[i] = rules.EncodeJSON(f)
	}
	return out
}

// Hold is how long the fault holds a request before it answers.
func (f *Fault) Hold() time.Duration { return f.delay }
