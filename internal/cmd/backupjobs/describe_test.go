package backupjobs

import (
	"context"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const project = "5e2b0c2e8f9d4b0012345678"

func TestDescribeUsesArgumentOrDefaultProject(t *testing.T) {
	other := "5e2b0c2e8f9d4b00123456ff"
	for _, tc := range []struct{ arg, path string }{{"", project}, {other, other}} {
		srv := stubapi.New(t)
		srv.Reply("GET", "/admin/backup/groups/"+tc.path, 200, `{"id":"`+tc.path+`","labelFilter":["l1"],"oplogStoreFilter":[{"id":"oplog-1","type":"oplogStore"}],"daemonFilter":[{"machine":"d1","headRootDirectory":"/h"}]}`)
		ios, _, out, _ := iostreams.Test()
		err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "table", project), Project: tc.arg})
		if err != nil {
			t.Fatal(err)
		}
		if want := tc.path + "\tl1\toplog-1\t\t\td1\n"; out.String() != want {
			t.Errorf("output = %q, want %q", out.String(), want)
		}
	}
}

func TestDescribeAbsentConfigIsNotFound(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/groups/"+project, 404, `{"detail":"No backup jobs configuration for project.","error":404,"errorCode":"RESOURCE_NOT_FOUND","reason":"Not Found"}`)
	ios, _, _, _ := iostreams.Test()
	err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "table", project)})
	if cmdutil.ExitCode(err) != cmdutil.ExitNotFound {
		t.Fatalf("err = %v", err)
	}
}
