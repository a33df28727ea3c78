package globalalertconfigs

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/prompttest"
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

const cfgID = "5f2a0c2e8f9d4b0012345679"

func TestNewCmdList(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		check   func(*ListOptions) bool
	}{
		{nil, "", func(o *ListOptions) bool { return o.List.Page == 1 && o.List.Limit == 100 && !o.List.All }},
		{[]string{"--all", "--page", "3", "--limit", "50"}, "", func(o *ListOptions) bool { return o.List.Page == 3 && o.List.Limit == 50 && o.List.All }},
		{[]string{"extra"}, "unknown command", nil},
		{[]string{"--limit", "x"}, "invalid argument", nil},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *ListOptions
		cmd := NewCmdList(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *ListOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || !tt.check(got) {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
}

func TestNewCmdSetEnabled(t *testing.T) {
	for _, tt := range []struct {
		enabled  bool
		args     []string
		wantErr  string
		wantUse  string
		wantExit int
	}{
		{true, []string{cfgID}, "", "enable", 0},
		{false, []string{cfgID}, "", "disable", 0},
		{true, nil, "missing GLOBAL_ALERT_CONFIG_ID", "enable", cmdutil.ExitUsage},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *SetEnabledOptions
		cmd := NewCmdSetEnabled(&cmdutil.Factory{IOStreams: ios}, tt.enabled, func(_ context.Context, o *SetEnabledOptions) error { got = o; return nil })
		if cmd.Name() != tt.wantUse {
			t.Errorf("name = %q, want %q", cmd.Name(), tt.wantUse)
		}
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			var fe *cmdutil.FlagError
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &fe) || cmdutil.ExitCode(err) != tt.wantExit || got != nil {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || got.ConfigID != cfgID || got.Enabled != tt.enabled {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
}

func TestNewCmdGroupHasTheThreeVerbs(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdGlobalAlertConfigs(&cmdutil.Factory{IOStreams: ios})
	names := cmdtest.Subcommands(cmd)
	if got := strings.Join(names, ","); got != "disable,enable,list" {
		t.Errorf("subcommands = %s", got)
	}
}

func TestListSendsPagingAndPrintsJSON(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/globalAlertConfigs", 200, `{"results":[`+cfg+`],"totalCount":1}`)
	ios, _, out, _ := iostreams.Test()
	err := listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, "json", ""), List: &cmdutil.ListFlags{Page: 2, Limit: 7}})
	if err != nil {
		t.Fatal(err)
	}
	req := srv.Only()
	if req.Method != "GET" || req.Query.Get("pageNum") != "2" || req.Query.Get("itemsPerPage") != "7" || len(req.Body) != 0 {
		t.Errorf("sent %s %s?%v %q", req.Method, req.Path, req.Query, req.Body)
	}
	var v any
	if err := json.Unmarshal(out.Bytes(), &v); err != nil || !strings.Contains(out.String(), `"BACKUP_AGENT_DOWN"`) || !strings.Contains(out.String(), cfgID) {
		t.Errorf("output %q is not the JSON answer: %v", out.String(), err)
	}
}

func TestListAllFollowsPages(t *testing.T) {
	srv := stubapi.New(t)
	second := strings.Replace(cfg, "5679", "5680", 1)
	srv.Reply("GET", "/globalAlertConfigs", 200, `{"results":[`+cfg+`],"totalCount":2}`)
	srv.Reply("GET", "/globalAlertConfigs", 200, `{"results":[`+second+`],"totalCount":2}`)
	ios, _, out, _ := iostreams.Test()
	err := listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, "jsonl", ""), List: &cmdutil.ListFlags{Page: 1, Limit: 1, All: true, Parallel: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("requests = %d, want 2", n)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], cfgID) || !strings.Contains(lines[1], "5f2a0c2e8f9d4b0012345680") {
		t.Errorf("jsonl = %q", out.String())
	}
}

func TestListRefusesBadFlagsBeforeSending(t *testing.T) {
	for _, lf := range []cmdutil.ListFlags{{Page: 0, Limit: 100}, {Page: 1, Limit: 501}, {Page: 1, Limit: 10, Parallel: 99}} {
		srv := stubapi.New(t)
		ios, _, out, _ := iostreams.Test()
		lf := lf
		err := listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, "table", ""), List: &lf})
		if cmdutil.ExitCode(err) != cmdutil.ExitUsage || out.Len() != 0 {
			t.Errorf("%+v: err = %v", lf, err)
		}
	}
}

func TestListServerErrors(t *testing.T) {
	for _, tt := range []struct {
		status int
		want   int
	}{
		{401, cmdutil.ExitAuth},
		{403, cmdutil.ExitAuth},
		{404, cmdutil.ExitNotFound},
		{500, cmdutil.ExitError},
	} {
		srv := stubapi.New(t)
		srv.Reply("GET", "/globalAlertConfigs", tt.status, `{"detail":"no","error":`+itoa(tt.status)+`,"errorCode":"X","reason":"R"}`)
		ios, _, out, _ := iostreams.Test()
		err := listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, "table", ""), List: &cmdutil.ListFlags{Page: 1, Limit: 100}})
		if got := cmdutil.ExitCode(err); got != tt.want {
			t.Errorf("%d: exit %d, want %d (%v)", tt.status, got, tt.want, err)
		}
		if out.Len() != 0 {
			t.Errorf("%d: printed %q", tt.status, out.String())
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestDisablePutsFalseAndConfirms(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("PUT", "/globalAlertConfigs/"+cfgID, 200, cfg)
	ios, _, out, errOut := iostreams.Test()
	err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "table", ""), ConfigID: cfgID, Enabled: false})
	if err != nil {
		t.Fatal(err)
	}
	req := srv.Only()
	if req.Method != "PUT" || req.Path != "/api/public/v1.0/globalAlertConfigs/"+cfgID || string(req.Body) != `{"enabled":false}` || len(req.Query) != 0 {
		t.Errorf("sent %s %s?%v %s", req.Method, req.Path, req.Query, req.Body)
	}
	// Not at a terminal, the answer's row is printed, for scripts.
	if want := cfgID + "\tBACKUP_AGENT_DOWN\tfalse\ttrue\tADMIN\t\n"; out.String() != want || errOut.Len() != 0 {
		t.Errorf("stdout %q stderr %q, want %q", out.String(), errOut.String(), want)
	}
}

func TestDisableAnswerStillEnabledIsAnError(t *testing.T) {
	srv := stubapi.New(t)
	// The answer says enabled: the change did not happen.
	srv.Reply("PUT", "/globalAlertConfigs/"+cfgID, 200, strings.Replace(cfg, `"enabled":false`, `"enabled":true`, 1))
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "table", ""), ConfigID: cfgID, Enabled: false})
	if err == nil || !strings.Contains(err.Error(), "global alert configuration "+cfgID+" still enabled") || out.Len() != 0 {
		t.Errorf("err = %v, stdout %q", err, out.String())
	}
}

func TestDisableDryRunSendsNothing(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/globalAlertConfigs/"+cfgID, 200, strings.Replace(cfg, `"enabled":false`, `"enabled":true`, 1))
	ios, _, out, _ := iostreams.Test()
	err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "table", ""), ConfigID: cfgID, Enabled: false, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := srv.Only(); r.Method != "GET" {
		t.Errorf("sent %s", r.Method)
	}
	for _, want := range []string{"PUT /globalAlertConfigs/" + cfgID + "\n", `-  "enabled": true,`, `+  "enabled": false,`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
}

func TestEnableJSONPrintsTheAnswer(t *testing.T) {
	srv := stubapi.New(t)
	enabled := strings.Replace(cfg, `"enabled":false`, `"enabled":true`, 1)
	srv.Reply("PUT", "/globalAlertConfigs/"+cfgID, 200, enabled)
	ios, _, out, _ := iostreams.Test()
	err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "json", ""), ConfigID: cfgID, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || got["id"] != cfgID || got["enabled"] != true {
		t.Errorf("output %q: %v", out.String(), err)
	}
}

func TestSetEnabledRefusesBadIDWithoutSending(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "table", ""), ConfigID: "nothex", Enabled: true})
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "24 hexadecimal digits") {
		t.Errorf("err = %v", err)
	}
}

func TestSetEnabledServerErrorsAndBadAnswers(t *testing.T) {
	for _, tt := range []struct {
		status int
		body   string
		want   int
	}{
		{404, `{"detail":"none","error":404,"errorCode":"RESOURCE_NOT_FOUND","reason":"Not Found"}`, cmdutil.ExitNotFound},
		{401, `{"detail":"auth","error":401,"errorCode":"UNAUTHORIZED","reason":"Unauthorized"}`, cmdutil.ExitAuth},
		{400, `{"detail":"bad","error":400,"errorCode":"INVALID_ATTRIBUTE","reason":"Bad Request"}`, cmdutil.ExitError},
		{200, `not json`, cmdutil.ExitError},
	} {
		srv := stubapi.New(t)
		srv.Reply("PUT", "/globalAlertConfigs/"+cfgID, tt.status, tt.body)
		ios, _, out, _ := iostreams.Test()
		err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "table", ""), ConfigID: cfgID, Enabled: true})
		if err == nil || cmdutil.ExitCode(err) != tt.want || out.Len() != 0 {
			t.Errorf("%d %s: exit %d (%v), stdout %q", tt.status, tt.body, cmdutil.ExitCode(err), err, out.String())
		}
	}
}

func TestBadOutputFormatIsAUsageError(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "xml", ""), ConfigID: cfgID, Enabled: true})
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("err = %v", err)
	}
	err = listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, "xml", ""), List: &cmdutil.ListFlags{Page: 1, Limit: 1}})
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("list err = %v", err)
	}
}

func TestClientErrorsArePassedOn(t *testing.T) {
	boom := errors.New("no base URL")
	ios, _, _, _ := iostreams.Test()
	noClient := func() (*client.Client, error) { return nil, boom }
	if err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: cmdutil.Deps{Printer: stubapi.Printer(ios, "table", ""), Client: noClient}, ConfigID: cfgID}); !errors.Is(err, boom) {
		t.Errorf("set: %v", err)
	}
	if err := listRun(context.Background(), &ListOptions{Deps: cmdutil.Deps{Printer: stubapi.Printer(ios, "table", ""), Client: noClient}, List: &cmdutil.ListFlags{Page: 1, Limit: 1}}); !errors.Is(err, boom) {
		t.Errorf("list: %v", err)
	}
}

// enable and disable take many ids, as alertconfigs does; an id that is
// not one is refused before anything is sent.
func TestSetEnabledOfManyIDs(t *testing.T) {
	const other = "5f2a0c2e8f9d4b00123456aa"
	srv := stubapi.New(t)
	srv.Reply("PUT", "/globalAlertConfigs/"+cfgID, 200, `{"id":"`+cfgID+`","enabled":false,"eventTypeName":"RS_BIND_ERROR"}`)
	srv.Reply("PUT", "/globalAlertConfigs/"+other, 200, `{"id":"`+other+`","enabled":false,"eventTypeName":"BACKUP"}`)
	ios, _, out, _ := iostreams.Test()
	cmd := NewCmdSetEnabled(&cmdutil.Factory{IOStreams: ios}, false, func(ctx context.Context, o *SetEnabledOptions) error {
		o.Deps = srv.Deps(ios, "table", "")
		return setEnabledRun(ctx, o)
	})
	if err := cmdtest.Execute(cmd, ios, cfgID, other); err != nil {
		t.Fatal(err)
	}
	if want := cfgID + "\tdisabled\tRS_BIND_ERROR\n" + other + "\tdisabled\tBACKUP\n"; out.String() != want {
		t.Errorf("out %q, want %q", out.String(), want)
	}
	err := cmdtest.Execute(NewCmdSetEnabled(&cmdutil.Factory{IOStreams: ios}, false, func(ctx context.Context, o *SetEnabledOptions) error {
		o.Deps = srv.Deps(ios, "table", "")
		return setEnabledRun(ctx, o)
	}), ios, cfgID, "x")
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), `"x"`) {
		t.Errorf("a bad id among many: %v", err)
	}
}

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
