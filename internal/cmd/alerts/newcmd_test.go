package alerts

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestNewCmdAlertsGroupHasEveryVerb(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdAlerts(&cmdutil.Factory{IOStreams: ios})
	var got []string
	for _, c := range cmd.Commands() {
		got = append(got, c.Name())
	}
	want := "ack describe list unack wait"
	if strings.Join(got, " ") != want {
		t.Errorf("subcommands = %v, want %s", got, want)
	}
}

func TestNewCmdListAndDescribe(t *testing.T) {
	for _, tt := range []struct {
		name     string
		args     []string
		wantErr  string
		flagErr  bool
		checkLst func(*ListOptions) bool
		checkDsc func(*DescribeOptions) bool
	}{
		{name: "list", args: []string{}, checkLst: func(o *ListOptions) bool {
			return o.Status == "" && o.List.Page == 1 && o.List.Limit == 100 && !o.List.All && !o.Watch &&
				o.Interval == 10*time.Second && !o.IntervalSet && o.List.BackupJobsEnabledOnly == nil
		}},
		{name: "list", args: []string{"--status", "OPEN", "--page", "3", "--limit", "20"}, checkLst: func(o *ListOptions) bool {
			return o.Status == "OPEN" && o.List.Page == 3 && o.List.Limit == 20
		}},
		{name: "list", args: []string{"--all", "--watch", "--interval", "2s"}, checkLst: func(o *ListOptions) bool {
			return o.List.All && o.Watch && o.Interval == 2*time.Second && o.IntervalSet
		}},
		{name: "list", args: []string{"--interval", "10s"}, checkLst: func(o *ListOptions) bool {
			// The default value given explicitly still counts as given.
			return o.IntervalSet && !o.Watch
		}},
		{name: "list", args: []string{"--all-projects", "--all", "--parallel", "8"}, checkLst: func(o *ListOptions) bool {
			return o.AllProjects && o.List.All && o.List.Parallel == 8
		}},
		{name: "list", args: []string{}, checkLst: func(o *ListOptions) bool { return !o.AllProjects }},
		{name: "list", args: []string{"extra"}, wantErr: "unknown command"},
		{name: "list", args: []string{"--interval", "soon"}, wantErr: "invalid argument"},
		{name: "describe", args: []string{alertID}, checkDsc: func(o *DescribeOptions) bool { return o.AlertID == alertID }},
		{name: "describe", args: []string{}, wantErr: "ALERT_ID", flagErr: true},
		{name: "describe", args: []string{alertID, alertID}, wantErr: "ALERT_ID", flagErr: true},
	} {
		ios, _, _, _ := iostreams.Test()
		f := &cmdutil.Factory{IOStreams: ios}
		var gotL *ListOptions
		var gotD *DescribeOptions
		var cmd *cobra.Command
		switch tt.name {
		case "list":
			cmd = NewCmdList(f, func(_ context.Context, o *ListOptions) error { gotL = o; return nil })
		case "describe":
			cmd = NewCmdDescribe(f, func(_ context.Context, o *DescribeOptions) error { gotD = o; return nil })
		}
		cmd.SetOut(ios.ErrOut)
		cmd.SetErr(ios.ErrOut)
		cmd.SetArgs(tt.args)
		err := cmd.Execute()
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s %v: error %v, want %q", tt.name, tt.args, err, tt.wantErr)
			}
			var fe *cmdutil.FlagError
			if tt.flagErr && !errors.As(err, &fe) {
				t.Errorf("%s %v: error %T is not a *cmdutil.FlagError", tt.name, tt.args, err)
			}
			if gotL != nil || gotD != nil {
				t.Errorf("%s %v: runF called on bad input", tt.name, tt.args)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %v: %v", tt.name, tt.args, err)
			continue
		}
		if tt.checkLst != nil && (gotL == nil || !tt.checkLst(gotL)) {
			t.Errorf("%s %v: options %+v (list %+v)", tt.name, tt.args, gotL, gotL.List)
		}
		if tt.checkDsc != nil && (gotD == nil || !tt.checkDsc(gotD)) {
			t.Errorf("%s %v: options %+v", tt.name, tt.args, gotD)
		}
	}
}

func TestNewCmdListRunsListRunWithoutRunF(t *testing.T) {
	// Without runF the command calls listRun, which refuses --interval
	// without --watch before any request.
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdList(&cmdutil.Factory{IOStreams: ios}, nil)
	cmd.SetOut(ios.ErrOut)
	cmd.SetErr(ios.ErrOut)
	cmd.SetArgs([]string{"--interval", "1s"})
	err := cmd.Execute()
	var fe *cmdutil.FlagError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "--watch") || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("err = %v (%T)", err, err)
	}
}

func TestNewCmdDescribeRunsDescribeRunWithoutRunF(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdDescribe(&cmdutil.Factory{IOStreams: ios}, nil)
	cmd.SetOut(ios.ErrOut)
	cmd.SetErr(ios.ErrOut)
	cmd.SetArgs([]string{"not-an-id"})
	err := cmd.Execute()
	if err == nil || !strings.Contains(err.Error(), "24 hexadecimal digits") {
		t.Errorf("err = %v", err)
	}
}

func TestListFormats(t *testing.T) {
	rs := alertWith("5f1a0c2e8f9d4b00123456aa", "REPLICATION_OPLOG_WINDOW_RUNNING_OUT", "TRACKING")
	for _, tt := range []struct {
		format string
		tty    bool
		want   func(string) bool
	}{
		{"table", false, func(s string) bool {
			return s == alertID+"\tOPEN\tHOST_DOWN\t2026-11-01T10:00:00Z\tdb1.example.com:27017\t\n"+
				"5f1a0c2e8f9d4b00123456aa\tTRACKING\tREPLICATION_OPLOG_WINDOW_RUNNING_OUT\t2026-11-01T10:00:00Z\tdb1.example.com:27017\t\n"
		}},
		{"table", true, func(s string) bool {
			l := strings.Split(strings.TrimRight(s, "\n"), "\n")
			return len(l) == 3 && strings.HasPrefix(l[0], "ID") && strings.Contains(l[0], "TARGET") &&
				strings.HasPrefix(l[1], alertID) && strings.Contains(l[2], "TRACKING")
		}},
		{"json", false, func(s string) bool {
			var v struct {
				Results []map[string]any `json:"results"`
			}
			return json.Unmarshal([]byte(s), &v) == nil && len(v.Results) == 2 &&
				v.Results[0]["id"] == alertID && v.Results[0]["futureField"] != nil && v.Results[1]["status"] == "TRACKING"
		}},
		{"jsonl", false, func(s string) bool {
			l := strings.Split(strings.TrimRight(s, "\n"), "\n")
			return len(l) == 2 && strings.HasPrefix(l[0], `{"`) && strings.Contains(l[0], alertID) && strings.Contains(l[1], "TRACKING")
		}},
		{"yaml", false, func(s string) bool {
			return strings.Contains(s, "results:") && strings.Contains(s, "id: "+alertID) && strings.Contains(s, "status: TRACKING")
		}},
	} {
		t.Run(tt.format, func(t *testing.T) {
			srv := stubapi.New(t)
			srv.Reply("GET", "/groups/"+project+"/alerts", 200, page(alertJSON+","+rs, 2, false))
			ios, _, out, _ := iostreams.Test()
			ios.SetStdoutTTY(tt.tty)
			err := listRun(context.Background(), &ListOptions{
				Deps: srv.Deps(ios, tt.format, project),
				List: &cmdutil.ListFlags{Page: 1, Limit: 100},
			})
			if err != nil {
				t.Fatal(err)
			}
			req := srv.Only()
			if req.Method != "GET" || req.Query.Has("status") || req.Query.Get("pageNum") != "1" || req.Query.Get("itemsPerPage") != "100" {
				t.Errorf("request = %s %v", req.Method, req.Query)
			}
			if !tt.want(out.String()) {
				t.Errorf("%s output = %q", tt.format, out.String())
			}
		})
	}
}

func TestListServerErrorsMapToExitCodes(t *testing.T) {
	for _, tt := range []struct {
		status int
		body   string
		code   int
	}{
		{401, `{"detail":"You are not authorized.","error":401,"errorCode":"NOT_AUTHORIZED","reason":"Unauthorized"}`, cmdutil.ExitAuth},
		{403, `{"detail":"Forbidden.","error":403,"errorCode":"USER_CANNOT_ACCESS_GROUP","reason":"Forbidden"}`, cmdutil.ExitAuth},
		{404, `{"detail":"No group.","error":404,"errorCode":"GROUP_NOT_FOUND","reason":"Not Found"}`, cmdutil.ExitNotFound},
		{500, `{"detail":"Boom.","error":500,"errorCode":"UNEXPECTED_ERROR","reason":"Internal Server Error"}`, cmdutil.ExitError},
	} {
		srv := stubapi.New(t)
		srv.Reply("GET", "/groups/"+project+"/alerts", tt.status, tt.body)
		ios, _, out, _ := iostreams.Test()
		err := listRun(context.Background(), &ListOptions{
			Deps: srv.Deps(ios, "json", project),
			List: &cmdutil.ListFlags{Page: 1, Limit: 100},
		})
		if err == nil || cmdutil.ExitCode(err) != tt.code {
			t.Errorf("%d: err = %v, exit %d, want %d", tt.status, err, cmdutil.ExitCode(err), tt.code)
		}
		if out.Len() != 0 {
			t.Errorf("%d: stdout %q", tt.status, out.String())
		}
	}
}

func TestDescribeOnATerminalShowsDetail(t *testing.T) {
	const rsAlert = `{"id":"5f1a0c2e8f9d4b0012345678","groupId":"5e2b0c2e8f9d4b0012345678","eventTypeName":"NO_PRIMARY","status":"OPEN","clusterName":"Cluster0","replicaSetName":"rs-shard-0","currentValue":{"number":42.5,"units":"SECONDS"},"tags":["a","b"]}`
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts/"+alertID, 200, rsAlert)
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "table", project), AlertID: alertID})
	if err != nil {
		t.Fatal(err)
	}
	if srv.Only().Method != "GET" {
		t.Errorf("method = %s", srv.Only().Method)
	}
	s := out.String()
	for _, want := range []string{"NO_PRIMARY", "Cluster0", "rs-shard-0", "42.5 SECONDS", "Tags:          a\n               b"} {
		if !strings.Contains(s, want) {
			t.Errorf("detail lacks %q:\n%s", want, s)
		}
	}
	if strings.HasPrefix(s, "{") {
		t.Errorf("terminal detail is JSON:\n%s", s)
	}
}

func TestReplicaSetIsShownOnlyWhenNotTheTarget(t *testing.T) {
	for _, tt := range []struct {
		alert      string
		target, rs string
	}{
		{`{"hostnameAndPort":"h:1","clusterName":"c","replicaSetName":"r"}`, "h:1", "r"},
		{`{"clusterName":"c","replicaSetName":"r"}`, "c", "r"},
		{`{"replicaSetName":"r"}`, "r", ""},
		{`{}`, "", ""},
	} {
		al := decodeAlert(t, tt.alert)
		if got := Target(al); got != tt.target {
			t.Errorf("%s: Target = %q, want %q", tt.alert, got, tt.target)
		}
		if got := replicaSetIfNotTarget(al); got != tt.rs {
			t.Errorf("%s: replica set = %q, want %q", tt.alert, got, tt.rs)
		}
	}
}

func TestDescribeServerErrorsMapToExitCodes(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts/"+alertID, 401, `{"detail":"bad key","error":401,"errorCode":"NOT_AUTHORIZED","reason":"Unauthorized"}`)
	ios, _, out, _ := iostreams.Test()
	err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "json", project), AlertID: alertID})
	if cmdutil.ExitCode(err) != cmdutil.ExitAuth || out.Len() != 0 {
		t.Errorf("err = %v, exit %d, stdout %q", err, cmdutil.ExitCode(err), out.String())
	}
}

func TestCompleteAlertIDsActiveOnlyAsksOpenThenTracking(t *testing.T) {
	srv := stubapi.New(t)
	path := "/groups/" + project + "/alerts"
	srv.Reply("GET", path, 200, page(alertWith("5f1a0c2e8f9d4b00000000a1", "HOST_DOWN", "OPEN"), 1, false))
	srv.Reply("GET", path, 200, page(alertWith("5f1a0c2e8f9d4b00000000a2", "NO_PRIMARY", "TRACKING")+","+alertWith("5f1a0c2e8f9d4b00000000a1", "HOST_DOWN", "OPEN"), 2, false))
	f := cmdtest.EnvFactory(t, srv.URL, project)
	cmd := &cobra.Command{}
	cmd.SetContext(context.Background())
	got, dir := completeAlertIDs(f, true)(cmd, nil, "")
	want := []string{"5f1a0c2e8f9d4b00000000a1\tHOST_DOWN (OPEN)", "5f1a0c2e8f9d4b00000000a2\tNO_PRIMARY (TRACKING)"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("completions = %q, want %q", got, want)
	}
	if dir&cobra.ShellCompDirectiveNoFileComp == 0 {
		t.Errorf("directive = %v", dir)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Query.Get("status") != "OPEN" || reqs[1].Query.Get("status") != "TRACKING" ||
		reqs[0].Query.Get("itemsPerPage") != "500" {
		t.Errorf("requests = %v", reqs)
	}
}

func TestCompleteAlertIDsStopsAtAnError(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 500, `{"detail":"Boom.","error":500,"errorCode":"UNEXPECTED_ERROR","reason":"Internal Server Error"}`)
	f := cmdtest.EnvFactory(t, srv.URL, project)
	cmd := &cobra.Command{}
	cmd.SetContext(context.Background())
	got, _ := completeAlertIDs(f, false)(cmd, nil, "")
	if len(got) != 0 || len(srv.Requests()) != 1 {
		t.Errorf("completions = %q after %d requests", got, len(srv.Requests()))
	}
}

func TestCompleteAlertIDsNeedsAProject(t *testing.T) {
	srv := stubapi.New(t)
	f := cmdtest.EnvFactory(t, srv.URL, project)
	t.Setenv("OMCTL_PROJECT_ID", "")
	cmd := &cobra.Command{}
	cmd.SetContext(context.Background())
	got, _ := completeAlertIDs(f, false)(cmd, nil, "")
	if len(got) != 0 {
		t.Errorf("completions = %q", got)
	}
}

func decodeAlert(t *testing.T, s string) api.Alert {
	t.Helper()
	var a api.Alert
	if err := json.Unmarshal([]byte(s), &a); err != nil {
		t.Fatal(err)
	}
	return a
}
