package alerts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/output"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestWatchPrintsAlertsAsTheyAppearOrChange(t *testing.T) {
	srv := stubapi.New(t)
	path := "/groups/" + project + "/alerts"
	srv.Reply("GET", path, 200, `{"results":[{"id":"a","status":"TRACKING"},{"id":"b","status":"OPEN"}],"totalCount":2}`)
	srv.Reply("GET", path, 200, `{"results":[{"id":"a","status":"TRACKING"},{"id":"b","status":"OPEN"}],"totalCount":2}`)
	srv.Reply("GET", path, 200, `{"results":[{"id":"a","status":"OPEN"},{"id":"b","status":"OPEN"},{"id":"c","status":"CLOSED"}],"totalCount":3}`)
	ios, _, out, _ := iostreams.Test()
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error)
	go func() {
		done <- listRun(ctx, &ListOptions{Deps: cmdutil.Deps{IO: ios, Printer: stubapi.Printer(ios, "jsonl", `"\(.id) \(.status)"`), ProjectID: stubapi.Project(project), Client: srv.Client()}, List: &cmdutil.ListFlags{Page: 1, Limit: 100, All: true}, Watch: true, Interval: 5 * time.Millisecond})
	}()
	for deadline := time.Now().Add(5 * time.Second); len(srv.Requests()) < 4 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	cancel(cmdutil.ErrInterrupted)
	if err := <-done; !errors.Is(err, cmdutil.ErrInterrupted) {
		t.Fatalf("watch ended with %v, want it interrupted", err)
	}
	if want := "a TRACKING\nb OPEN\na OPEN\nc CLOSED\n"; out.String() != want {
		t.Errorf("watch output = %q, want %q", out.String(), want)
	}
}

func TestWatchRedrawsOnATerminal(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, `{"results":[{"id":"5f1a0c2e8f9d4b0012345678","status":"OPEN"}],"totalCount":1}`)
	ios, _, _, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetNoColor(true)
	// Two redraws: the second request is not enough, its answer is drawn
	// after it comes.
	out := &lineSignal{want: "5f1a0c2e8f9d4b0012345678", times: 2, seen: make(chan struct{})}
	ios.Out = out
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error)
	go func() {
		done <- listRun(ctx, &ListOptions{Deps: srv.Deps(ios, "table", project), Status: "OPEN", List: &cmdutil.ListFlags{Page: 1, Limit: 100}, Watch: true, Interval: 5 * time.Millisecond})
	}()
	select {
	case <-out.seen:
	case <-time.After(10 * time.Second):
	}
	cancel(cmdutil.ErrInterrupted)
	<-done
	got := out.String()
	// The screen is cleared once, then written over from its top.
	if strings.Count(got, "\x1b[H\x1b[2J") != 1 || strings.Count(got, "\x1b[H") < 2 || !strings.Contains(got, "Every 5ms: omctl alerts list --status OPEN") || strings.Count(got, "5f1a0c2e8f9d4b0012345678") < 2 {
		t.Errorf("terminal watch = %q", got)
	}
}

// lineSignal is an output that says when what is written holds want
// (times times, at least once).
type lineSignal struct {
	mu    sync.Mutex
	b     strings.Builder
	want  string
	times int
	seen  chan struct{}
	said  bool
}

func (l *lineSignal) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Write(p)
	if !l.said && strings.Count(l.b.String(), l.want) >= max(l.times, 1) {
		l.said = true
		close(l.seen)
	}
	return len(p), nil
}

func (l *lineSignal) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestWatchFollowsEveryPageWithoutAll(t *testing.T) {
	srv := stubapi.New(t)
	path := "/groups/" + project + "/alerts"
	srv.Reply("GET", path, 200, page(`{"id":"a","status":"OPEN"}`, 2, true))
	srv.Reply("GET", path, 200, page(`{"id":"b","status":"OPEN"}`, 2, false))
	ios, _, _, _ := iostreams.Test()
	out := &lineSignal{want: "b OPEN", seen: make(chan struct{})}
	ios.Out = out
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error)
	go func() {
		done <- listRun(ctx, &ListOptions{Deps: cmdutil.Deps{IO: ios, Printer: stubapi.Printer(ios, "jsonl", `"\(.id) \(.status)"`), ProjectID: stubapi.Project(project), Client: srv.Client()}, List: &cmdutil.ListFlags{Page: 1, Limit: 1}, Watch: true, Interval: time.Hour})
	}()
	select {
	case <-out.seen:
	case err := <-done:
		t.Fatalf("watch ended: %v (output %q)", err, out.String())
	case <-time.After(10 * time.Second):
		t.Fatalf("the alert of page 2 never appeared; output %q", out.String())
	}
	cancel(cmdutil.ErrInterrupted)
	if err := <-done; !errors.Is(err, cmdutil.ErrInterrupted) {
		t.Fatalf("watch ended with %v, want it interrupted", err)
	}
	if want := "a OPEN\nb OPEN\n"; out.String() != want {
		t.Errorf("watch output = %q, want %q", out.String(), want)
	}
}

// alertsCreated are n alerts, the i-th created i hours after a start,
// oldest first as the list gives them.
func alertsCreated(n int) []string {
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var items []string
	for i := range n {
		items = append(items, fmt.Sprintf(`{"id":"5f1a0c2e8f9d4b00%08d","status":"OPEN","eventTypeName":"OUTSIDE_METRIC_THRESHOLD","created":%q,"hostnameAndPort":"db-a1.example.com:27017"}`,
			i, start.Add(time.Duration(i)*time.Hour).Format(time.RFC3339)))
	}
	return items
}

// One frame at 80x40 with 250 alerts (issue 32): no line wider than the
// terminal, no more lines than the screen has less the cursor's, the
// title first, the newest alerts, and a footer that fits and does not
// suggest a filter already given.
func TestWatchFrameFitsTheScreen(t *testing.T) {
	items := alertsCreated(250)
	for _, tc := range []struct {
		width, height int
		status        string
	}{{80, 40, ""}, {80, 40, "OPEN"}, {60, 20, ""}, {120, 40, "OPEN"}} {
		ios, _, _, _ := iostreams.Test()
		ios.SetStdoutTTY(true)
		ios.SetNoColor(true)
		ios.SetTerminalWidth(tc.width)
		ios.SetTerminalHeight(tc.height)
		printer, _ := output.New(ios, output.Options{Format: "table", Now: func() time.Time { return time.Date(2026, 11, 12, 12, 0, 0, 0, time.UTC) }})
		opts := &ListOptions{Deps: cmdutil.Deps{IO: ios}, Status: tc.status, List: &cmdutil.ListFlags{Page: 1, Limit: 100}, Interval: 2 * time.Second,
			Now: func() time.Time { return time.Date(2026, 11, 12, 12, 0, 0, 0, time.UTC) }}
		var raw []json.RawMessage
		for _, it := range items {
			raw = append(raw, json.RawMessage(it))
		}
		frame, err := watchFrame(opts, printer, newestFirst(raw))
		if err != nil {
			t.Fatal(err)
		}
		screen := strings.Join(frame, "\n")
		if len(frame) > tc.height-1 {
			t.Errorf("%dx%d: %d lines:\n%s", tc.width, tc.height, len(frame), screen)
		}
		for _, l := range frame {
			if twwidth.Width(l) > tc.width {
				t.Errorf("%dx%d: %q is %d wide", tc.width, tc.height, l, twwidth.Width(l))
			}
		}
		if !strings.HasPrefix(frame[0], "Every 2s: omctl alerts list") || !strings.HasSuffix(frame[0], "12:00:00Z") {
			t.Errorf("%dx%d: title %q", tc.width, tc.height, frame[0])
		}
		if !strings.HasPrefix(frame[3], "5f1a0c2e8f9d4b0000000249") {
			t.Errorf("%dx%d: the newest alert is not first:\n%s", tc.width, tc.height, screen)
		}
		last := frame[len(frame)-1]
		shown := len(frame) - 4
		if !strings.HasPrefix(last, fmt.Sprintf("… and %d older alerts", 250-shown)) || strings.Contains(last, "--status") != (tc.status == "") {
			t.Errorf("%dx%d --status %q: footer %q", tc.width, tc.height, tc.status, last)
		}
	}
}

// An alert raised while the watch runs shows at the top of the next
// redraw, however many older alerts there are.
func TestWatchShowsANewAlertAtTheTop(t *testing.T) {
	srv := stubapi.New(t)
	old := alertsCreated(60)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, `{"results":[`+strings.Join(old[:59], ",")+`],"totalCount":59}`)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, `{"results":[`+strings.Join(old, ",")+`],"totalCount":60}`)
	ios, _, _, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetNoColor(true)
	ios.SetTerminalHeight(20)
	out := &lineSignal{want: "5f1a0c2e8f9d4b0000000059", seen: make(chan struct{})}
	ios.Out = out
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error)
	go func() {
		done <- listRun(ctx, &ListOptions{Deps: srv.Deps(ios, "table", project), List: &cmdutil.ListFlags{Page: 1, Limit: 100}, Watch: true, Interval: 5 * time.Millisecond})
	}()
	select {
	case <-out.seen:
	case <-time.After(10 * time.Second):
		t.Error("the new alert never appeared")
	}
	cancel(cmdutil.ErrInterrupted)
	<-done
	frames := strings.Split(out.String(), "\x1b[H")
	last := frames[len(frames)-1]
	if i := strings.Index(last, "5f1a0c2e8f9d4b00"); i < 0 || !strings.HasPrefix(last[i:], "5f1a0c2e8f9d4b0000000059") {
		t.Errorf("the new alert is not first in the frame:\n%s", last)
	}
}

// --watch shows the newest --limit alerts when --limit is given: it asks
// for a page of that size (a larger page would be a server contradicting
// itself, which the walk refuses).
func TestWatchHonoursLimit(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, `{"results":[{"id":"a","status":"OPEN","eventTypeName":"HOST_DOWN"},{"id":"b","status":"OPEN","eventTypeName":"BACKUP"}],"totalCount":2}`)
	ios, _, out, _ := iostreams.Test()
	cmd := &cobra.Command{}
	list := cmdutil.AddListFlags(cmd, true)
	if err := cmd.Flags().Set("limit", "2"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error)
	go func() {
		done <- listRun(ctx, &ListOptions{Deps: cmdutil.Deps{IO: ios, Printer: stubapi.Printer(ios, "jsonl", `.id`), ProjectID: stubapi.Project(project), Client: srv.Client()},
			List: list, Watch: true, Interval: 5 * time.Millisecond})
	}()
	// The second poll starts after the first one printed.
	for deadline := time.Now().Add(5 * time.Second); len(srv.Requests()) < 2 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	cancel(cmdutil.ErrInterrupted)
	if err := <-done; !errors.Is(err, cmdutil.ErrInterrupted) {
		t.Fatal(err)
	}
	if out.String() != "a\nb\n" {
		t.Errorf("watch --limit 2 printed %q", out.String())
	}
	if got := srv.Requests()[0].Query.Get("itemsPerPage"); got != "2" {
		t.Errorf("watch --limit 2 asked for itemsPerPage=%s", got)
	}
}
