package alerts

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const threeAlerts = `{"results":[{"id":"a","status":"OPEN","eventTypeName":"HOST_DOWN"},{"id":"b","status":"OPEN","eventTypeName":"BACKUP"},{"id":"c","status":"OPEN","eventTypeName":"HOST_DOWN"}],"totalCount":3}`

// --event keeps the alerts of one event type, as ack --event chooses them.
func TestListByEvent(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, threeAlerts)
	ios, _, out, _ := iostreams.Test()
	err := listRun(context.Background(), &ListOptions{Deps: cmdutil.Deps{IO: ios, Printer: stubapi.Printer(ios, "jsonl", `.id`), ProjectID: stubapi.Project(project), Client: srv.Client()},
		Event: "HOST_DOWN", List: &cmdutil.ListFlags{Page: 1, Limit: 100}})
	if err != nil || out.String() != "a\nc\n" {
		t.Errorf("err %v, out %q", err, out.String())
	}
	err = listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, "json", project), Event: "HOST_DOWN", List: &cmdutil.ListFlags{Page: 1, Limit: 100}})
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "use -o table or -o jsonl") {
		t.Errorf("-o json: %v", err)
	}
	err = listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, "table", project), Event: "host_down", List: &cmdutil.ListFlags{Page: 1, Limit: 100}})
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), `invalid --event "host_down"`) {
		t.Errorf("lower case: %v", err)
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
