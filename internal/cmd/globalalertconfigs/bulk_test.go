package globalalertconfigs

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/prompttest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const otherCfgID = "5f2a0c2e8f9d4b001234567a"

// Several ids at a terminal: omctl asks first; declined, nothing is sent;
// --yes does not ask.
func TestBulkDisableAsksAtATerminal(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	ios.SetStdinTTY(true)
	ios.SetStderrTTY(true)
	script := prompttest.New(t, false)
	deps := srv.Deps(ios, "table", "")
	deps.Prompter = script
	err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: deps, ConfigIDs: []string{cfgID, otherCfgID}})
	if err == nil || !strings.Contains(err.Error(), "not confirmed") || len(srv.Requests()) != 0 {
		t.Errorf("declined: %v, requests %v", err, srv.Requests())
	}
	if len(script.Asked) != 1 || script.Asked[0] != "Disable 2 global alert configuration(s)?" {
		t.Errorf("asked %q", script.Asked)
	}
	for _, id := range []string{cfgID, otherCfgID} {
		srv.Reply("PUT", "/globalAlertConfigs/"+id, 200, `{"id":"`+id+`","enabled":false}`)
	}
	err = setEnabledRun(context.Background(), &SetEnabledOptions{Deps: deps, ConfigIDs: []string{cfgID, otherCfgID}, Yes: true})
	if err != nil || len(srv.Requests()) != 2 || len(script.Asked) != 1 {
		t.Errorf("--yes: %v, requests %d, asked %q", err, len(srv.Requests()), script.Asked)
	}
}
