package alerts

import (
	"context"
	"testing"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestCompleteAlertIDsActiveOnlyAsksOpenThenTracking(t *testing.T) {
	srv := stubapi.New(t)
	path := "/groups/" + project + "/alerts"
	srv.Reply("GET", path, 200, page(alertWith("5f1a0c2e8f9d4b00000000a1", "HOST_DOWN", "OPEN"), 1, false))
	srv.Reply("GET", path, 200, page(alertWith("5f1a0c2e8f9d4b00000000a2", "NO_PRIMARY", "TRACKING")+","+alertWith("5f1a0c2e8f9d4b00000000a1", "HOST_DOWN", "OPEN"), 2, false))
	f := cmdtest.EnvFactory(t, srv.URL, project)
	cmd := &cobra.Command{}
	cmd.SetContext(context.Background())
	got, dir := completeAlertIDs(f, true)(cmd, nil, "")
	want := []string{"5f1a0c2e8f9d4b00000000a1\tHOST_DOWN (OPEN)", "5f1a0c2e8f9d4b00000000a2\tNO_PRIMARY (TRACKING)"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("completions = %q, want %q", got, want)
	}
	if dir&cobra.ShellCompDirectiveNoFileComp == 0 {
		t.Errorf("directive = %v", dir)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Query.Get("status") != "OPEN" || reqs[1].Query.Get("status") != "TRACKING" ||
		reqs[0].Query.Get("itemsPerPage") != "500" {
		t.Errorf("requests = %v", reqs)
	}
}

func TestCompleteAlertIDsStopsAtAnError(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 500, `{"detail":"Boom.","error":500,"errorCode":"UNEXPECTED_ERROR","reason":"Internal Server Error"}`)
	f := cmdtest.EnvFactory(t, srv.URL, project)
	cmd := &cobra.Command{}
	cmd.SetContext(context.Background())
	got, _ := completeAlertIDs(f, false)(cmd, nil, "")
	if len(got) != 0 || len(srv.Requests()) != 1 {
		t.Errorf("completions = %q after %d requests", got, len(srv.Requests()))
	}
}

func TestCompleteAlertIDsNeedsAProject(t *testing.T) {
	srv := stubapi.New(t)
	f := cmdtest.EnvFactory(t, srv.URL, project)
	t.Setenv("OMCTL_PROJECT_ID", "")
	cmd := &cobra.Command{}
	cmd.SetContext(context.Background())
	got, _ := completeAlertIDs(f, false)(cmd, nil, "")
	if len(got) != 0 {
		t.Errorf("completions = %q", got)
	}
}
