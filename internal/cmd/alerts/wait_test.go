package alerts

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestWaitReturnsWhenStatusIsReachedAndFailsOnTimeout(t *testing.T) {
	srv := stubapi.New(t)
	path := "/groups/" + project + "/alerts/" + alertID
	srv.Reply("GET", path, 200, alertJSON)
	srv.Reply("GET", path, 200, strings.Replace(alertJSON, `"OPEN"`, `"CLOSED"`, 1))
	ios, _, out, _ := iostreams.Test()
	opts := &WaitOptions{Deps: cmdutil.Deps{Printer: stubapi.Printer(ios, "jsonl", ".status"), ProjectID: stubapi.Project(project), Client: srv.Client()}, AlertID: alertID, ForStatus: "CLOSED", Timeout: 5 * time.Second, Interval: 5 * time.Millisecond}
	if err := waitRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if out.String() != "CLOSED\n" || len(srv.Requests()) != 2 {
		t.Errorf("output %q after %d polls", out.String(), len(srv.Requests()))
	}

	opts.ForStatus, opts.Timeout = "CANCELLED", 30*time.Millisecond
	err := waitRun(context.Background(), opts)
	if err == nil || !strings.Contains(err.Error(), "timed out after 30ms waiting for alert "+alertID+" to be CANCELLED (last status: CLOSED)") || cmdutil.ExitCode(err) != cmdutil.ExitError {
		t.Errorf("timeout: %v", err)
	}
	opts.ForStatus = "DONE"
	if err := waitRun(context.Background(), opts); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("bad status: %v", err)
	}
}

func TestWaitTakesMaxWait(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var got *WaitOptions
	cmd := NewCmdWait(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *WaitOptions) error { got = o; return nil })
	if err := cmdtest.Execute(cmd, ios, []string{"5f1a0c2e8f9d4b0012345678", "--for-status", "CLOSED", "--max-wait", "30m"}...); err != nil || got.Timeout != 30*time.Minute {
		t.Fatalf("%v %+v", err, got)
	}
}
