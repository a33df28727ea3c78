package faults

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/httpx"
)

// mustFault parses a fault body as the control does.
func mustFault(t *testing.T, body string) *Fault {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var d rules.Doc
	if err := dec.Decode(&d); err != nil {
		t.Fatal(err)
	}
	f, err := Parse(d)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestDefaultErrorCodes(t *testing.T) {
	for status, want := range map[int]string{429: "RATE_LIMITED", 500: "UNEXPECTED_ERROR", 502: "BAD_GATEWAY",
		503: "SERVICE_UNAVAILABLE", 504: "GATEWAY_TIMEOUT", 409: "CONFLICT", 404: "NOT_FOUND", 418: "I_M_A_TEAPOT", 499: "HTTP_499"} {
		if got := defaultErrorCode(status); got != want {
			t.Errorf("%d: %s, want %s", status, got, want)
		}
	}
}

func TestGlobMatching(t *testing.T) {
	for _, c := range []struct {
		pattern, path string
		want          bool
	}{
		{"/groups/*/alerts", "/groups/p1/alerts", true},
		{"/groups/*/alerts", "/groups/p1/alerts/a1", false},
		{"/groups/*/alerts", "/groups//alerts", false},
		{"/groups/*/alerts", "/groups/alerts", false},
		{"/groups/**", "/groups", true},
		{"/groups/**", "/groups/p1/alerts/a1", true},
		{"/groups/**/snapshots/*", "/groups/p/clusters/c/snapshots/s", true},
		{"/groups/**/snapshots/*", "/groups/snapshots/s", true},
		{"/groups/**/snapshots/*", "/groups/p/snapshots", false},
		{"/**", "/", true},
		{"/**", "/anything/at/all", true},
		{"/**/alerts", "/groups/p/alerts", true},
		{"/**/alerts/**", "/groups/p/alerts", true},
		{"/**/**/x", "/a/b/x", true},
		{"/globalAlerts", "/globalAlerts", true},
		{"/globalAlerts", "/globalAlertConfigs", false},
		{"/globalAlert*", "/globalAlertConfigs", true},
		{"/*Configs/*", "/alertConfigs/x", true},
		{"/api/public/v1.0/groups/*", "/groups/p", true},
		{"/", "/", true},
		{"/", "/x", false},
	} {
		g, bad := parseGlob(c.pattern)
		if bad != "" {
			t.Fatalf("%s: %s", c.pattern, bad)
		}
		if got := g.match(c.path); got != c.want {
			t.Errorf("%s matches %s: %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
}

// FuzzFaultBody feeds fault bodies and paths to the parser and matcher:
// they never panic, an accepted fault always has its bounds, and a
// pattern without wildcards matches only itself.
func FuzzFaultBody(f *testing.F) {
	f.Add(`{"method": "GET", "path": "/groups/*/alerts", "status": 503, "retryAfter": 2, "delay": "1500ms", "times": 2, "probability": 1.0, "reset": false}`, "/groups/p/alerts")
	f.Add(`{"path": "/**/x/**", "reset": true}`, "/a/x/b")
	f.Add(`{"path": "/a*b*c", "status": 418}`, "/aXbYc")
	f.Add(`{"path": "/api/public/v1.0", "probability": 0}`, "/")
	f.Add(`{"path": "/x", "status": 1e400}`, "")
	f.Add(`{"path": "/x", "delay": "9223372036854775807ns"}`, "/x")
	f.Fuzz(func(t *testing.T, body, path string) {
		var d rules.Doc
		if json.Unmarshal([]byte(body), &d) == nil && d != nil {
			dec := json.NewDecoder(strings.NewReader(body))
			dec.UseNumber()
			d = nil
			dec.Decode(&d)
			if flt, err := Parse(d); err == nil {
				if flt.Status != 0 && (flt.Status < 400 || flt.Status > 599 || rules.ErrorCode("errorCode", flt.ErrorCode) != nil) ||
					flt.Probability < 0 || flt.Probability > 1 || flt.delay < 0 || flt.delay > api.MaxFaultDelay {
					t.Fatalf("accepted out of bounds: %+v", flt)
				}
				flt.pattern.match(path)
			} else if a, _ := httpx.Answer(err); a.Status() != 400 {
				t.Fatalf("%s: %d", body, a.Status())
			}
		}
		g, bad := parseGlob(path)
		if bad == "" && !strings.Contains(path, "*") && !api.IsAPIPath(path) && !g.match(path) {
			t.Fatalf("%q does not match itself", path)
		}
		if bad == "" {
			g.match(body)
		}
	})
}

// Faults with a probability apply about that share of the time; a draw
// that misses leaves the fault's times alone, and the next matching fault
// is tried.
func TestFaultSetProbability(t *testing.T) {
	fs := NewSet()
	fs.Add(mustFault(t, `{"path": "/x", "status": 500, "probability": 0.5}`))
	hits := 0
	for range 10000 {
		if fs.Take("GET", "/x") != nil {
			hits++
		}
	}
	if hits < 4000 || hits > 6000 {
		t.Errorf("probability 0.5 applied %d times in 10000", hits)
	}
	// A draw that misses leaves the fault's times alone, and the next
	// matching fault is tried.
	fs = NewSet()
	draws := []float64{0.9, 0.1}
	fs.draw = func() float64 { d := draws[0]; draws = draws[1:]; return d }
	fs.Add(mustFault(t, `{"path": "/x", "status": 500, "probability": 0.5, "times": 1}`))
	fs.Add(mustFault(t, `{"path": "/x", "status": 503}`))
	if got := fs.Take("GET", "/x"); got == nil || got.Status != 503 {
		t.Fatalf("took %+v, want the second fault", got)
	}
	if got := fs.Take("GET", "/x"); got == nil || got.Status != 500 {
		t.Fatalf("took %+v, want the first fault", got)
	}
	if len(fs.faults) != 1 {
		t.Errorf("a fault used up is kept")
	}
}
