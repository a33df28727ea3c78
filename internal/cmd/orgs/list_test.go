package orgs

import (
	"context"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestListSendsName(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/orgs", 200, `{"results":[`+orgJSON+`],"totalCount":1}`)
	ios, _, out, _ := iostreams.Test()
	opts := &ListOptions{Deps: srv.Deps(ios, "table", ""), Name: "acme", List: &cmdutil.ListFlags{Page: 1, Limit: 100}}
	if err := listRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if q := srv.Only().Query; q.Get("name") != "acme" || q.Get("pageNum") != "1" {
		t.Errorf("query %v", q)
	}
	if out.String() != org+"\tAcme\n" {
		t.Errorf("output %q", out.String())
	}
}
