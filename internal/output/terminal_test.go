package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/listpage"
)

var alertTable = Columns([]string{"ID", "STATUS", "CREATED"}, func(a api.Alert) []string { return []string{a.ID, a.Status, a.Created} })

const twoAlerts = `{"results":[{"id":"a1","status":"OPEN","created":"2026-11-21T09:00:00Z"},{"id":"a2","status":"CLOSED","created":"2026-11-18T12:00:00Z"}],"totalCount":2}`

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func render(t *testing.T, tty, noColor bool) string {
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(tty)
	ios.SetNoColor(noColor)
	p, _ := New(ios, Options{Format: "table", Now: func() time.Time { return now }})
	if err := p.List(client.SinglePage([]byte(twoAlerts)), PageAsked, alertTable); err != nil {
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

func threePages(yield func(*listpage.Page, error) bool) {
	for i := 1; i <= 3; i++ {
		if !yield(&listpage.Page{Number: i, TotalCount: 3, Results: []json.RawMessage{json.RawMessage(`{"id":"x"}`)}}, nil) {
			return
		}
	}
}

func TestProgressOnlyWhenStdoutAndStderrAreTerminals(t *testing.T) {
	for _, c := range []struct{ stdout, stderr bool }{{false, false}, {false, true}, {true, false}, {true, true}} {
		ios, _, out, errOut := iostreams.Test()
		ios.SetStdoutTTY(c.stdout)
		ios.SetStderrTTY(c.stderr)
		p, _ := New(ios, Options{Format: "jsonl"})
		if err := p.List(threePages, AllPages, alertTable); err != nil {
			t.Fatal(err)
		}
		if strings.Count(out.String(), "\n") != 3 {
			t.Errorf("data = %q", out.String())
		}
		if drawn := strings.Contains(errOut.String(), "page 2"); drawn != (c.stdout && c.stderr) {
			t.Errorf("stdout tty=%v, stderr tty=%v: progress %q", c.stdout, c.stderr, errOut.String())
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

// screen replays what a terminal shows of text with carriage returns and
// the erasures of a line (ESC [K, ESC [0K, ESC [2K): each line as the
// cursor left it, trailing blanks dropped.
func screen(text string) []string {
	var lines []string
	for _, raw := range strings.Split(text, "\n") {
		var line []rune
		col := 0
		rs := []rune(raw)
		for i := 0; i < len(rs); i++ {
			switch r := rs[i]; {
			case r == '\r':
				col = 0
			case r == '\x1b' && i+1 < len(rs) && rs[i+1] == '[':
				j := i + 2
				for j < len(rs) && (rs[j] < '@' || rs[j] > '~') {
					j++
				}
				if j < len(rs) && rs[j] == 'K' {
					if string(rs[i+2:j]) == "2" {
						line = nil
					} else if col < len(line) {
						line = line[:col]
					}
				}
				i = j
			default:
				for len(line) < col {
					line = append(line, ' ')
				}
				if col < len(line) {
					line[col] = r
				} else {
					line = append(line, r)
				}
				col++
			}
		}
		lines = append(lines, strings.TrimRight(string(line), " "))
	}
	return lines
}

// stdout and stderr on one screen: the bar never shares a line with data
// and is gone at the end, also when writing the data fails (a closed pipe).
func TestProgressNeverLeftAmongData(t *testing.T) {
	for _, failAfter := range []int{-1, 1} {
		ios, _, _, _ := iostreams.Test()
		var term bytes.Buffer
		ios.Out = &failingWriter{w: &term, left: failAfter}
		ios.ErrOut = &term
		ios.SetStdoutTTY(true)
		ios.SetStderrTTY(true)
		p, _ := New(ios, Options{Format: "jsonl"})
		err := p.List(threePages, AllPages, alertTable)
		if (err != nil) != (failAfter >= 0) {
			t.Errorf("err = %v", err)
		}
		want := []string{`{"id":"x"}`, `{"id":"x"}`, `{"id":"x"}`, ""}
		if failAfter >= 0 {
			want = []string{`{"id":"x"}`, ""}
		}
		if got := screen(term.String()); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("screen %q, want %q (raw %q)", got, want, term.String())
		}
	}
}

type failingWriter struct {
	w    io.Writer
	left int // writes allowed; -1 for no limit
}

func (f *failingWriter) Write(b []byte) (int, error) {
	if f.left == 0 {
		return 0, errors.New("broken pipe")
	}
	f.left--
	return f.w.Write(b)
}
