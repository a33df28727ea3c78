package apikeys

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestListAndDescribeKeysOfTheOrg(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/orgs/"+org+"/apiKeys", 200, `{"results":[`+keyJSON+`],"totalCount":1}`)
	srv.Reply("GET", "/orgs/"+org+"/apiKeys/"+keyID, 200, keyJSON)
	ios, _, out, _ := iostreams.Test()
	if err := listRun(context.Background(), &ListOptions{Deps: orgDeps(srv, ios, "table"), List: &cmdutil.ListFlags{Page: 1, Limit: 100}}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), keyID+"\tci\tabcdefgh\t") {
		t.Errorf("list: %q", out.String())
	}
	out.Reset()
	if err := describeRun(context.Background(), &DescribeOptions{Deps: orgDeps(srv, ios, "json"), KeyID: keyID}); err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(out.String()) != keyJSON {
		t.Errorf("describe: %q", out.String())
	}
}
