package output

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/iostreams"
)

var alertTable = Columns([]string{"ID", "STATUS", "CREATED"}, func(a api.Alert) []string { return []string{a.ID, a.Status, a.Created} })

const twoAlerts = `{"results":[{"id":"a1","status":"OPEN","created":"2026-11-21T09:00:00Z"},{"id":"a2","status":"CLOSED","created":"2026-11-18T12:00:00Z"}],"totalCount":2}`

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func render(t *testing.T, tty, noColor bool) string {
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(tty)
	ios.SetNoColor(noColor)
	p, _ := New(ios, Options{Format: "table", Now: func() time.Time { return now }})
	if err := p.List(client.SinglePage([]byte(twoAlerts)), false, alertTable); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestTerminalShowsColourAndRelativeTimes(t *testing.T) {
	got := render(t, true, false)
	if !strings.Contains(got, "\x1b[31mOPEN\x1b[0m") || !strings.Contains(got, "\x1b[32mCLOSED\x1b[0m") {
		t.Errorf("no status colours: %q", got)
	}
	if !strings.Contains(got, "3 hours ago") || !strings.Contains(got, "3 days ago") || strings.Contains(got, "2026-") {
		t.Errorf("times not relative: %q", got)
	}
}

func TestNoColorKeepsRelativeTimesWithoutColour(t *testing.T) {
	got := render(t, true, true)
	if strings.Contains(got, "\x1b[") || !strings.Contains(got, "3 hours ago") {
		t.Errorf("NO_COLOR output: %q", got)
	}
}

func TestPipedTablesKeepExactValues(t *testing.T) {
	if got := render(t, false, false); got != "a1\tOPEN\t2026-11-21T09:00:00Z\na2\tCLOSED\t2026-11-18T12:00:00Z\n" {
		t.Errorf("piped = %q", got)
	}
}

func TestRelativeTime(t *testing.T) {
	for d, want := range map[time.Duration]string{
		10 * time.Second: "just now", -80 * time.Second: "in 1 minute", 2 * time.Hour: "2 hours ago",
		// Rounded to the nearest unit, not down.
		-(2*time.Hour + 59*time.Minute): "in 3 hours", 59*time.Minute + 50*time.Second: "1 hour ago", 23*time.Hour + 40*time.Minute: "1 day ago",
		-3 * 24 * time.Hour: "in 3 days", 90 * 24 * time.Hour: "3 months ago", 3 * 365 * 24 * time.Hour: "3 years ago",
	} {
		if got := relativeTime(now.Add(-d), now); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
}

func TestConfirmOnTerminalResourceOtherwise(t *testing.T) {
	body := []byte(`{"id":"a1","status":"OPEN","created":"2026-11-21T09:00:00Z"}`)
	for _, c := range []struct {
		tty    bool
		format string
		want   string
	}{
		{true, "table", "✓ Alert a1 acknowledged\n"},
		{false, "table", "a1\tOPEN\t2026-11-21T09:00:00Z\n"},
		{true, "json", "{\n  \"id\": \"a1\",\n  \"status\": \"OPEN\",\n  \"created\": \"2026-11-21T09:00:00Z\"\n}\n"},
		{false, "json", string(body) + "\n"},
	} {
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(c.tty)
		ios.SetNoColor(true)
		p, _ := New(ios, Options{Format: c.format})
		if err := p.Confirm(body, alertTable, "Alert a1 acknowledged"); err != nil {
			t.Fatal(err)
		}
		if out.String() != c.want {
			t.Errorf("tty=%v %s: %q, want %q", c.tty, c.format, out.String(), c.want)
		}
	}
}

func TestProgressOnlyWhenStderrIsATerminal(t *testing.T) {
	pages := func(yield func(*client.Page, error) bool) {
		for i := 1; i <= 3; i++ {
			if !yield(&client.Page{Number: i, TotalCount: 3, Results: []json.RawMessage{json.RawMessage(`{"id":"x"}`)}}, nil) {
				return
			}
		}
	}
	for _, tty := range []bool{false, true} {
		ios, _, out, errOut := iostreams.Test()
		ios.SetStderrTTY(tty)
		p, _ := New(ios, Options{Format: "jsonl"})
		if err := p.List(pages, true, alertTable); err != nil {
			t.Fatal(err)
		}
		if strings.Count(out.String(), "\n") != 3 {
			t.Errorf("data = %q", out.String())
		}
		if drawn := strings.Contains(errOut.String(), "page 3"); drawn != tty {
			t.Errorf("stderr tty=%v: progress %q", tty, errOut.String())
		}
	}
}

func TestNoHeadersLeavesTheHeaderLineOut(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetNoColor(true)
	p, _ := New(ios, Options{Format: "table", NoHeaders: true, Now: func() time.Time { return now }})
	if err := p.Resource([]byte(`{"id":"a1","eventTypeName":"HOST_DOWN"}`), idTable); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); strings.Contains(got, "ID") || !strings.HasPrefix(got, "a1") {
		t.Errorf("table = %q", got)
	}
}
