package orgs

import (
	"context"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestProjectsOfAnOrg(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/orgs/"+org+"/groups", 200, `{"results":[{"id":"5e2b0c2e8f9d4b0012345678","name":"shop","orgId":"`+org+`"}],"totalCount":1}`)
	ios, _, out, _ := iostreams.Test()
	opts := &ProjectsOptions{Deps: srv.Deps(ios, "table", ""), OrgID: org, List: &cmdutil.ListFlags{Page: 1, Limit: 100}}
	if err := projectsRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if q := srv.Only().Query; q.Has("name") {
		t.Errorf("no --name, yet the query %v", q)
	}
	if out.String() != "5e2b0c2e8f9d4b0012345678\tshop\t"+org+"\t\n" {
		t.Errorf("output %q", out.String())
	}
	// A malformed id is refused before anything is sent.
	if err := projectsRun(context.Background(), &ProjectsOptions{Deps: srv.Deps(ios, "table", ""), OrgID: "acme", List: opts.List}); err == nil || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("bad org id: %v", err)
	}
}
