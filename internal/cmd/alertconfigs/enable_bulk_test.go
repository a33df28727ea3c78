package alertconfigs

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const config2 = "5f2a0c2e8f9d4b0012345679"

func TestNewCmdEnableTakesSeveralIDsOrAnEvent(t *testing.T) {
	for _, tt := range []struct {
		args  []string
		check func(*SetEnabledOptions) bool
	}{
		{[]string{configID}, func(o *SetEnabledOptions) bool { return o.ConfigID == configID && o.ConfigIDs == nil }},
		{[]string{configID, config2}, func(o *SetEnabledOptions) bool { return o.ConfigID == "" && len(o.ConfigIDs) == 2 }},
		{[]string{"-", "--dry-run"}, func(o *SetEnabledOptions) bool { return o.ConfigIDs[0] == "-" && o.DryRun }},
		{[]string{"--event", "HOST_DOWN"}, func(o *SetEnabledOptions) bool { return o.Event == "HOST_DOWN" && o.Enabled }},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *SetEnabledOptions
		cmd := NewCmdSetEnabled(&cmdutil.Factory{IOStreams: ios}, true, func(_ context.Context, o *SetEnabledOptions) error { got = o; return nil })
		if err := cmdtest.Execute(cmd, ios, tt.args...); err != nil || !tt.check(got) {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
}

func TestBulkDisableByIDsPrintsOneLineEach(t *testing.T) {
	srv := stubapi.New(t)
	disabled := strings.Replace(cfgJSON, `"enabled":true`, `"enabled":false`, 1)
	srv.Reply("PATCH", "/groups/"+project+"/alertConfigs/"+configID, 200, disabled)
	srv.Reply("PATCH", "/groups/"+project+"/alertConfigs/"+config2, 401, `{"detail":"Current user is not authorized to perform this action.","error":401,"errorCode":"USER_UNAUTHORIZED","reason":"Unauthorized"}`)
	ios, _, out, _ := iostreams.Test()
	err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "table", project), ConfigIDs: []string{configID, config2}})
	if err == nil || err.Error() != "1 of 2 alert configurations failed" {
		t.Errorf("err = %v", err)
	}
	for _, r := range srv.Requests() {
		if b := r.JSON(t); len(b) != 1 || b["enabled"] != false {
			t.Errorf("body = %v", b)
		}
	}
	want := configID + "\tdisabled\tHOST_DOWN\n" + config2 + "\tfailed\t401 USER_UNAUTHORIZED: Current user is not authorized to perform this action.\n"
	if out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
}

// --event takes the configurations of the event that are not enabled
// already; the dry run shows each PATCH and diff and sends nothing.
func TestBulkEnableByEventWithDryRun(t *testing.T) {
	srv := stubapi.New(t)
	other := strings.Replace(strings.Replace(cfgJSON, configID, config2, 1), "HOST_DOWN", "REPLICA_SET", 1)
	third := "5f2a0c2e8f9d4b001234567a"
	disabled := strings.Replace(strings.Replace(other, config2, third, 1), `"enabled":true`, `"enabled":false`, 1)
	srv.Reply("GET", "/groups/"+project+"/alertConfigs", 200, `{"results":[`+cfgJSON+`,`+other+`,`+disabled+`],"totalCount":3,"links":[]}`)
	ios, _, out, stderr := iostreams.Test()
	err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "table", project), Event: "REPLICA_SET", DryRun: true, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()); n != 1 || srv.Requests()[0].Method != "GET" {
		t.Errorf("%d requests; a dry run only lists", n)
	}
	got := out.String()
	if !strings.Contains(got, "PATCH /groups/"+project+"/alertConfigs/"+third+"\n") || strings.Contains(got, config2) || !strings.Contains(got, `+  "enabled": true,`) {
		t.Errorf("output = %q", got)
	}
	if !strings.Contains(stderr.String(), "1 alert configuration(s) would be enabled") {
		t.Errorf("stderr = %q", stderr.String())
	}
}

func TestBulkEnableRefusesIDsAndEventTogether(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "table", project), ConfigIDs: []string{configID, config2}, Event: "HOST_DOWN"})
	if err == nil || !strings.Contains(err.Error(), "not both") || cmdutil.ExitCode(err) != cmdutil.ExitUsage || len(srv.Requests()) != 0 {
		t.Errorf("err = %v", err)
	}
}

func TestBulkEnableRefusesBadEventAndMissingTargets(t *testing.T) {
	for _, tt := range []struct {
		opts    SetEnabledOptions
		wantErr string
	}{
		{SetEnabledOptions{Event: "host_down"}, "invalid --event"},
		{SetEnabledOptions{DryRun: true}, "which configurations?"},
	} {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		o := tt.opts
		o.IO, o.Client, o.Printer, o.ProjectID, o.Enabled = ios, srv.Client(), stubapi.Printer(ios, "json", ""), stubapi.Project(project), true
		err := setEnabledRun(context.Background(), &o)
		var fe *cmdutil.FlagError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%+v: err = %v", tt.opts, err)
		}
	}
}

func TestBulkEnableByEventWithNoMatchChangesNothing(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alertConfigs", 200, `{"results":[`+cfgJSON+`],"totalCount":1,"links":[]}`)
	ios, _, out, stderr := iostreams.Test()
	err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "table", project), Event: "NO_PRIMARY", Enabled: true})
	if err != nil || out.Len() != 0 || !strings.Contains(stderr.String(), "No alert configurations to change.") {
		t.Errorf("err = %v, stdout %q, stderr %q", err, out.String(), stderr.String())
	}
	if req := srv.Only(); req.Method != "GET" {
		t.Errorf("request = %s", req.Method)
	}
}

// A dry run of disable says which alerts disabling would cancel: the
// configuration's TRACKING and OPEN alerts, which the API cancels with it.
func TestDisableDryRunSaysWhichAlertsItWouldCancel(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alertConfigs/"+configID, 200, cfgJSON)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, `{"results":[{"id":"5f1a0c2e8f9d4b0000000001","alertConfigId":"`+configID+`","status":"OPEN","eventTypeName":"HOST_DOWN"},`+
		`{"id":"5f1a0c2e8f9d4b0000000002","alertConfigId":"`+config2+`","status":"OPEN","eventTypeName":"REPLICA_SET"}],"totalCount":2}`)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, `{"results":[{"id":"5f1a0c2e8f9d4b0000000003","alertConfigId":"`+configID+`","status":"TRACKING","eventTypeName":"HOST_DOWN"}],"totalCount":1}`)
	ios, _, _, stderr := iostreams.Test()
	err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "json", project), ConfigID: configID, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "Disabling " + configID + " would cancel its 2 active alert(s):\n  5f1a0c2e8f9d4b0000000001  OPEN  HOST_DOWN\n  5f1a0c2e8f9d4b0000000003  TRACKING  HOST_DOWN\n"
	if !strings.Contains(stderr.String(), want) || strings.Contains(stderr.String(), "5f1a0c2e8f9d4b0000000002") {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	for _, r := range srv.Requests() {
		if r.Method != "GET" {
			t.Errorf("a dry run sent %s %s", r.Method, r.Path)
		}
	}
}
