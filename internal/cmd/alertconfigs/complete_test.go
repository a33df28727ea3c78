package alertconfigs

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestCompleteConfigIDsListsEveryPageWithState(t *testing.T) {
	disabled := strings.NewReplacer(configID, config2, `"enabled":true`, `"enabled":false`).Replace(cfgJSON)
	srv := stubapi.New(t)
	path := "/groups/" + project + "/alertConfigs"
	srv.Reply("GET", path, 200, `{"results":[`+cfgJSON+`],"totalCount":2,"links":[{"href":"y","rel":"next"}]}`)
	srv.Reply("GET", path, 200, `{"results":[`+disabled+`],"totalCount":2,"links":[]}`)
	f := cmdtest.EnvFactory(t, srv.URL, project)
	cmd := &cobra.Command{}
	cmd.SetContext(context.Background())
	got, dir := completeConfigIDs(f)(cmd, nil, "")
	want := []string{configID + "\tHOST_DOWN (enabled)", config2 + "\tHOST_DOWN (disabled)"}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("completions = %q, want %q", got, want)
	}
	if dir&cobra.ShellCompDirectiveNoFileComp == 0 {
		t.Errorf("directive = %v", dir)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Query.Get("itemsPerPage") != "500" {
		t.Errorf("requests = %v", reqs)
	}
}

func TestCompleteIDsGivesNothingOnErrorOrAfterAnArg(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alertConfigs", 500, `{"detail":"Boom.","error":500,"errorCode":"UNEXPECTED_ERROR","reason":"Internal Server Error"}`)
	f := cmdtest.EnvFactory(t, srv.URL, project)
	cmd := &cobra.Command{}
	cmd.SetContext(context.Background())
	if got, _ := completeConfigIDs(f)(cmd, nil, ""); len(got) != 0 {
		t.Errorf("on error: %q", got)
	}
	if got, _ := completeConfigIDs(f)(cmd, []string{configID}, ""); len(got) != 0 {
		t.Errorf("after an arg: %q", got)
	}
	pathErr := errors.New("no project")
	if got, _ := CompleteIDs(f, func() (string, error) { return "", pathErr })(cmd, nil, ""); len(got) != 0 {
		t.Errorf("path error: %q", got)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}
