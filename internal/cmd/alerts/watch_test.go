package alerts

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
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
	if strings.Count(got, "\x1b[H\x1b[2J") < 2 || !strings.Contains(got, "Every 5ms: omctl alerts list --status OPEN") || strings.Count(got, "5f1a0c2e8f9d4b0012345678") < 2 {
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

func TestWatchRedrawFitsTheScreen(t *testing.T) {
	var items []json.RawMessage
	for i := 0; i < 30; i++ {
		items = append(items, json.RawMessage(`{}`))
	}
	for _, tc := range []struct{ height, shown, hidden int }{
		{0, 30, 0},   // height unknown: everything
		{40, 30, 0},  // room for all
		{33, 30, 0},  // exactly: title, blank, header, 30 rows
		{24, 20, 10}, // the rest is counted on the last line
	} {
		shown, hidden := fitScreen(items, tc.height)
		if len(shown) != tc.shown || hidden != tc.hidden {
			t.Errorf("height %d: %d shown, %d hidden; want %d, %d", tc.height, len(shown), hidden, tc.shown, tc.hidden)
		}
	}
}

// --watch shows the first --limit alerts when --limit is given: it asks
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
