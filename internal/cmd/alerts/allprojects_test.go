package alerts

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

// --all-projects lists the projects, then each one's alerts in project
// order, with a PROJECT column; JSON lines are the alerts as sent.
func TestListAllProjects(t *testing.T) {
	const p1, p2 = "5e2b0c2e8f9d4b0012340001", "5e2b0c2e8f9d4b0012340002"
	a1 := `{"id":"5f1a0c2e8f9d4b0000000001","groupId":"` + p1 + `","status":"OPEN","eventTypeName":"HOST_DOWN"}`
	a2 := `{"id":"5f1a0c2e8f9d4b0000000002","groupId":"` + p2 + `","status":"OPEN","eventTypeName":"BACKUP"}`
	for _, tc := range []struct{ format, want string }{
		{"table", p1 + "\t5f1a0c2e8f9d4b0000000001\tOPEN\tHOST_DOWN\t\t\t\n" + p2 + "\t5f1a0c2e8f9d4b0000000002\tOPEN\tBACKUP\t\t\t\n"},
		{"jsonl", a1 + "\n" + a2 + "\n"},
		{"json", `{"results":[` + a1 + `,` + a2 + `],"totalCount":2}` + "\n"},
	} {
		srv := stubapi.New(t)
		srv.Reply("GET", "/groups", 200, `{"results":[{"id":"`+p1+`"},{"id":"`+p2+`"}],"totalCount":2}`)
		srv.Reply("GET", "/groups/"+p1+"/alerts", 200, `{"results":[`+a1+`],"totalCount":1}`)
		srv.Reply("GET", "/groups/"+p2+"/alerts", 200, `{"results":[`+a2+`],"totalCount":1}`)
		ios, _, out, _ := iostreams.Test()
		opts := &ListOptions{Deps: srv.Deps(ios, tc.format, ""), Status: "OPEN", AllProjects: true, List: &cmdutil.ListFlags{Page: 1, Limit: 100}}
		if err := listRun(context.Background(), opts); err != nil {
			t.Fatalf("%s: %v", tc.format, err)
		}
		if out.String() != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.format, out.String(), tc.want)
		}
		for _, r := range srv.Requests()[1:] {
			if r.Query.Get("status") != "OPEN" {
				t.Errorf("%s: %s without the status filter", tc.format, r.Path)
			}
		}
	}
}

func TestListAllProjectsRefusesWatch(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	err := listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, "jsonl", ""), AllProjects: true, Watch: true, Interval: 1, List: &cmdutil.ListFlags{Page: 1, Limit: 100}})
	if err == nil || !strings.Contains(err.Error(), "--all-projects") || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("%v", err)
	}
}
