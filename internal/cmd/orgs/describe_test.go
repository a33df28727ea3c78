package orgs

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestDescribe(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/orgs/"+org, 200, orgJSON)
	ios, _, out, _ := iostreams.Test()
	if err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "json", ""), OrgID: org}); err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(out.String()) != orgJSON {
		t.Errorf("output %q", out.String())
	}
}
