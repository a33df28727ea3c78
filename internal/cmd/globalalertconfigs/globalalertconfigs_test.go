package globalalertconfigs

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const cfg = `{"id":"5f2a0c2e8f9d4b0012345679","eventTypeName":"BACKUP_AGENT_DOWN","enabled":false,"forAllGroups":true,"notifications":[{"typeName":"ADMIN","delayMin":5}]}`

func TestListShowsForAllGroups(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/globalAlertConfigs", 200, `{"results":[`+cfg+`],"totalCount":1}`)
	ios, _, out, _ := iostreams.Test()
	err := listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, "table", ""), List: &cmdutil.ListFlags{Page: 1, Limit: 100}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "5f2a0c2e8f9d4b0012345679\tBACKUP_AGENT_DOWN\tfalse\ttrue\tADMIN\t\n"; out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
}

func TestEnablePutsEnabled(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("PUT", "/globalAlertConfigs/5f2a0c2e8f9d4b0012345679", 200, strings.Replace(cfg, `"enabled":false`, `"enabled":true`, 1))
	ios, _, _, _ := iostreams.Test()
	err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "json", ""), ConfigID: "5f2a0c2e8f9d4b0012345679", Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	req := srv.Only()
	if req.Method != "PUT" || string(req.Body) != `{"enabled":true}` {
		t.Errorf("sent %s %s", req.Method, req.Body)
	}
}
