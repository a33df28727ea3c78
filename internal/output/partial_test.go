package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/listpage"
)

var errStopped = errors.New("interrupted")

// interrupted yields n pages of per alerts of a list of total, then
// stops as Ctrl-C stops a walk, the terminal (if any) echoing ^C first.
func interrupted(n, per, total int, term io.Writer) iter.Seq2[*listpage.Page, error] {
	return func(yield func(*listpage.Page, error) bool) {
		for p := 1; p <= n; p++ {
			var items []json.RawMessage
			for i := range per {
				items = append(items, json.RawMessage(fmt.Sprintf(`{"id":"5f1a0c2e8f9d4b00%08d","status":"OPEN","created":"2026-11-20T12:00:00Z"}`, p*1000+i)))
			}
			if !yield(&listpage.Page{Number: p, Results: items, TotalCount: total, HasTotal: true}, nil) {
				return
			}
		}
		if term != nil {
			term.Write([]byte("^C"))
		}
		yield(nil, errStopped)
	}
}

func terminal(width int) (*iostreams.IOStreams, *bytes.Buffer) {
	ios, _, _, _ := iostreams.Test()
	var term bytes.Buffer
	ios.Out, ios.ErrOut = &term, &term
	ios.SetStdoutTTY(true)
	ios.SetStderrTTY(true)
	ios.SetNoColor(true)
	ios.SetTerminalWidth(width)
	return ios, &term
}

// A terminal sees the rows fetched, a last line saying the table is
// partial, no trace of the progress bar or of the ^C echoed on its
// line, and on stderr what was not fetched: issue 32's `[2s:5s]^CID`.
func TestAStoppedTableSaysItIsPartial(t *testing.T) {
	ios, term := terminal(80)
	p, _ := New(ios, Options{Format: "table", Now: func() time.Time { return now }})
	err := p.List(interrupted(3, 30, 252, term), AllPages, alertTable)
	if !errors.Is(err, errStopped) {
		t.Fatalf("err = %v", err)
	}
	lines := screen(term.String())
	if lines[0] != "ID                        STATUS  CREATED" || len(lines) != 1+90+3 {
		t.Fatalf("screen:\n%s", strings.Join(lines, "\n"))
	}
	if got := lines[91:]; got[0] != "(partial list: 90 of 252 shown)" ||
		got[1] != "The list stopped before its end: 90 items printed, 162 of 252 were not fetched." || got[2] != "" {
		t.Errorf("the end of the screen:\n%s", strings.Join(got, "\n"))
	}
}

// Piped, the rows are whole lines and nothing else; stderr says the rest.
func TestAStoppedPipedTableIsWholeLines(t *testing.T) {
	ios, _, out, errOut := iostreams.Test()
	p, _ := New(ios, Options{Format: "table"})
	if err := p.List(interrupted(2, 5, 0, nil), AllPages, alertTable); !errors.Is(err, errStopped) {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n"); n != 10 || strings.Contains(out.String(), "partial") {
		t.Errorf("stdout %q", out.String())
	}
	if errOut.String() != "The list stopped before its end: 10 items printed, 0 of 0 were not fetched.\n" {
		t.Errorf("stderr %q", errOut.String())
	}
}

// -o json is one whole document or nothing, however large; -o jsonl
// whole lines.
func TestAStoppedJSONListPrintsNothing(t *testing.T) {
	defer func(n int) { spoolMemory = n }(spoolMemory)
	spoolMemory = 1000 // the spool moves to a file
	for _, tty := range []bool{false, true} {
		ios, _, out, errOut := iostreams.Test()
		ios.SetStdoutTTY(tty)
		p, _ := New(ios, Options{Format: "json"})
		if err := p.List(interrupted(4, 25, 250, nil), AllPages, alertTable); !errors.Is(err, errStopped) {
			t.Fatal(err)
		}
		if strings.TrimPrefix(out.String(), "\r\x1b[K") != "" || errOut.String() != "The list stopped before its end: nothing printed (-o json prints the whole list or nothing); 150 of 250 were not fetched.\n" {
			t.Errorf("tty=%v: stdout %q, stderr %q", tty, out.String(), errOut.String())
		}
		// The same walk, whole, is one document.
		out.Reset()
		whole := func(yield func(*listpage.Page, error) bool) {
			for page, err := range interrupted(4, 25, 100, nil) {
				if err != nil || !yield(page, nil) {
					return
				}
			}
		}
		if err := p.List(whole, AllPages, alertTable); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Results    []json.RawMessage
			TotalCount int
		}
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Results) != 100 || doc.TotalCount != 100 {
			t.Errorf("tty=%v: %d results, %v", tty, len(doc.Results), err)
		}
	}
	if left, _ := os.ReadDir(os.TempDir()); len(left) > 0 {
		for _, e := range left {
			if strings.HasPrefix(e.Name(), "omctl-list-") {
				t.Errorf("spool left behind: %s", e.Name())
			}
		}
	}

	ios, _, out, errOut := iostreams.Test()
	p, _ := New(ios, Options{Format: "jsonl"})
	if err := p.List(interrupted(2, 3, 9, nil), AllPages, alertTable); !errors.Is(err, errStopped) {
		t.Fatal(err)
	}
	if strings.Count(out.String(), "\n") != 6 || !strings.HasSuffix(out.String(), "}\n") || errOut.String() != "The list stopped before its end: 6 items printed, 3 of 9 were not fetched.\n" {
		t.Errorf("jsonl: stdout %q, stderr %q", out.String(), errOut.String())
	}
}

// Every frame of the progress bar fits the terminal.
func TestProgressBarFitsTheTerminal(t *testing.T) {
	for _, width := range []int{60, 80, 120} {
		for _, total := range []int{252, 1_000_000} {
			ios, term := terminal(width)
			p, _ := New(ios, Options{Format: "jsonl"})
			pages := func(yield func(*listpage.Page, error) bool) {
				for n := 1; n <= 3; n++ {
					if !yield(&listpage.Page{Number: n * 97, Results: []json.RawMessage{json.RawMessage(`{"id":"x"}`)}, TotalCount: total, HasTotal: true}, nil) {
						return
					}
				}
			}
			if err := p.List(pages, AllPages, alertTable); err != nil {
				t.Fatal(err)
			}
			frames := 0
			for _, line := range strings.Split(term.String(), "\n") {
				for _, frame := range strings.Split(line, "\r") {
					frame = strings.NewReplacer("\x1b[0K", "", "\x1b[2K", "").Replace(frame)
					if strings.Contains(frame, "page") {
						frames++
					}
					if w := twwidth.Width(frame); w >= width {
						t.Errorf("at %d columns, of %d: a frame %d wide: %q", width, total, w, frame)
					}
				}
			}
			if frames == 0 {
				t.Errorf("no bar drawn: %q", term.String())
			}
		}
	}
}

// A list whose first page fails is not partial: the error says it all.
func TestAFirstPageThatFailsSaysNothingMore(t *testing.T) {
	for _, format := range []string{"table", "json", "jsonl"} {
		ios, _, out, errOut := iostreams.Test()
		p, _ := New(ios, Options{Format: format})
		if err := p.List(interrupted(0, 0, 0, nil), AllPages, alertTable); !errors.Is(err, errStopped) {
			t.Fatal(err)
		}
		if out.Len() != 0 || errOut.Len() != 0 {
			t.Errorf("-o %s: stdout %q, stderr %q", format, out.String(), errOut.String())
		}
	}
}
