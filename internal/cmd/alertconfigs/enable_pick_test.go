package alertconfigs

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/prompttest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

// enable without ids at a terminal offers the disabled configurations
// only, and enables the one chosen.
func TestEnableWithoutIDPicksADisabledConfiguration(t *testing.T) {
	const disabled, enabled = "5f1a0c2e8f9d4b00123456b1", "5f1a0c2e8f9d4b00123456b2"
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alertConfigs", 200, `{"results":[`+
		`{"id":"`+enabled+`","eventTypeName":"HOST_DOWN","enabled":true},`+
		`{"id":"`+disabled+`","eventTypeName":"BACKUP_AGENT_DOWN","enabled":false}],"totalCount":2}`)
	srv.Reply("PATCH", "/groups/"+project+"/alertConfigs/"+disabled, 200, `{"id":"`+disabled+`","eventTypeName":"BACKUP_AGENT_DOWN","enabled":true}`)
	ios, _, _, _ := iostreams.Test()
	ios.SetStdinTTY(true)
	ios.SetStdoutTTY(true)
	script := prompttest.New(t, []string{disabled})
	deps := srv.Deps(ios, "table", project)
	deps.Prompter = script
	if err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: deps, Enabled: true}); err != nil {
		t.Fatal(err)
	}
	offered := script.Offered["Alert configurations to enable"]
	if len(offered) != 1 || offered[0].Value != disabled || !strings.Contains(offered[0].Label, "BACKUP_AGENT_DOWN") {
		t.Errorf("offered %+v", offered)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests", n)
	}
	// Without a terminal: a usage error, nothing requested.
	ios2, _, _, _ := iostreams.Test()
	srv2 := stubapi.New(t)
	err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv2.Deps(ios2, "table", project), Enabled: true})
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || len(srv2.Requests()) != 0 {
		t.Errorf("no terminal: %v", err)
	}
}
