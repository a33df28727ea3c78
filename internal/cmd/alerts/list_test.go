package alerts

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestListSendsStatusAndPageAndPrintsTSVWhenPiped(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, page(alertJSON, 1, false))
	ios, _, out, _ := iostreams.Test()
	err := listRun(context.Background(), &ListOptions{
		Deps:   srv.Deps(ios, "table", project),
		Status: "OPEN", List: &cmdutil.ListFlags{Page: 2, Limit: 50},
	})
	if err != nil {
		t.Fatal(err)
	}
	req := srv.Only()
	if req.Method != "GET" || req.Query.Get("status") != "OPEN" || req.Query.Get("pageNum") != "2" || req.Query.Get("itemsPerPage") != "50" {
		t.Errorf("request = %s %v", req.Method, req.Query)
	}
	if req.Query.Has("backupJobsEnabledOnly") {
		t.Errorf("backupJobsEnabledOnly sent though not given: %v", req.Query)
	}
	want := "5f1a0c2e8f9d4b0012345678\tOPEN\tHOST_DOWN\t2026-11-01T10:00:00Z\tdb1.example.com:27017\t\n"
	if out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
}

func TestListTableOnTerminalHasHeaders(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, page(alertJSON, 1, false))
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	err := listRun(context.Background(), &ListOptions{
		Deps: srv.Deps(ios, "table", project),
		List: &cmdutil.ListFlags{Page: 1, Limit: 100},
	})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "ID  ") || !strings.Contains(lines[0], "TARGET") || !strings.Contains(lines[1], alertID) {
		t.Errorf("table = %q", out.String())
	}
}

func TestListAllMergesPagesIntoOneJSONKeepingUnknownFields(t *testing.T) {
	srv := stubapi.New(t)
	path := "/groups/" + project + "/alerts"
	srv.Reply("GET", path, 200, page(alertJSON+","+alertJSON, 3, true))
	srv.Reply("GET", path, 200, page(alertJSON, 3, false))
	ios, _, out, _ := iostreams.Test()
	bj := false
	err := listRun(context.Background(), &ListOptions{
		Deps: srv.Deps(ios, "json", project),
		List: &cmdutil.ListFlags{Page: 1, Limit: 2, All: true, BackupJobsEnabledOnly: &bj},
	})
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[1].Query.Get("pageNum") != "2" || reqs[0].Query.Get("backupJobsEnabledOnly") != "false" {
		t.Fatalf("requests = %+v", reqs)
	}
	got := out.String()
	if !strings.HasPrefix(got, `{"results":[{"id":"5f1a`) || !strings.HasSuffix(got, `],"totalCount":3}`+"\n") {
		t.Errorf("merged = %s", got)
	}
	if strings.Count(got, `"futureField":{"kept":true}`) != 3 {
		t.Errorf("unknown fields not kept as received: %s", got)
	}
}

func TestListJQRunsOnceOverMergedResultAndPrintsStringsRaw(t *testing.T) {
	srv := stubapi.New(t)
	path := "/groups/" + project + "/alerts"
	srv.Reply("GET", path, 200, page(alertJSON, 2, true))
	srv.Reply("GET", path, 200, page(strings.Replace(alertJSON, `"OPEN"`, `"CLOSED"`, 1), 2, false))
	ios, _, out, _ := iostreams.Test()
	err := listRun(context.Background(), &ListOptions{
		Deps: cmdutil.Deps{Printer: stubapi.Printer(ios, "json", `.totalCount, (.results | map(.status) | join(","))`), ProjectID: stubapi.Project(project), Client: srv.Client()},
		List: &cmdutil.ListFlags{Page: 1, Limit: 1, All: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != "2\nOPEN,CLOSED\n" {
		t.Errorf("jq output = %q", out.String())
	}
}

func TestListJSONLWithJQAppliesPerItem(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, page(alertJSON+","+alertJSON, 2, false))
	ios, _, out, _ := iostreams.Test()
	err := listRun(context.Background(), &ListOptions{
		Deps: cmdutil.Deps{Printer: stubapi.Printer(ios, "jsonl", ".status"), ProjectID: stubapi.Project(project), Client: srv.Client()},
		List: &cmdutil.ListFlags{Page: 1, Limit: 100},
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != "OPEN\nOPEN\n" {
		t.Errorf("output = %q", out.String())
	}
}

func TestListRejectsBadInputBeforeSending(t *testing.T) {
	cases := []struct {
		name   string
		opts   ListOptions
		jq     string
		wantIn string
	}{
		{"unknown status", ListOptions{Status: "GONE", List: &cmdutil.ListFlags{Page: 1, Limit: 100}}, "", "TRACKING, OPEN, CLOSED, CANCELLED"},
		{"limit too big", ListOptions{List: &cmdutil.ListFlags{Page: 1, Limit: 501}}, "", "between 1 and 500"},
		{"page zero", ListOptions{List: &cmdutil.ListFlags{Page: 0, Limit: 10}}, "", "pages start at 1"},
		{"bad jq", ListOptions{List: &cmdutil.ListFlags{Page: 1, Limit: 10}}, ".results[", "invalid --jq expression"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := stubapi.New(t)
			ios, _, _, _ := iostreams.Test()
			opts := tc.opts
			opts.Client, opts.Printer, opts.ProjectID = srv.Client(), stubapi.Printer(ios, "json", tc.jq), stubapi.Project(project)
			err := listRun(context.Background(), &opts)
			if err == nil || !strings.Contains(err.Error(), tc.wantIn) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.wantIn)
			}
			if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
				t.Errorf("exit code = %d, want %d", cmdutil.ExitCode(err), cmdutil.ExitUsage)
			}
			if n := len(srv.Requests()); n != 0 {
				t.Errorf("%d requests sent for bad input", n)
			}
		})
	}
}

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

// --event keeps the alerts of one event type, as ack --event chooses them.
func TestListByEvent(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, threeAlerts)
	ios, _, out, _ := iostreams.Test()
	err := listRun(context.Background(), &ListOptions{Deps: cmdutil.Deps{IO: ios, Printer: stubapi.Printer(ios, "jsonl", `.id`), ProjectID: stubapi.Project(project), Client: srv.Client()},
		Event: "HOST_DOWN", List: &cmdutil.ListFlags{Page: 1, Limit: 100}})
	if err != nil || out.String() != "a\nc\n" {
		t.Errorf("err %v, out %q", err, out.String())
	}
	// -o json prints the alerts kept, each as the server sent it, in one
	// list as --all merges pages.
	out.Reset()
	err = listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, "json", project), Event: "HOST_DOWN", List: &cmdutil.ListFlags{Page: 1, Limit: 100}})
	if want := `{"results":[{"id":"a","status":"OPEN","eventTypeName":"HOST_DOWN"},{"id":"c","status":"OPEN","eventTypeName":"HOST_DOWN"}],"totalCount":2}` + "\n"; err != nil || out.String() != want {
		t.Errorf("-o json: err %v, out %q, want %q", err, out.String(), want)
	}
	err = listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, "table", project), Event: "host_down", List: &cmdutil.ListFlags{Page: 1, Limit: 100}})
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), `invalid --event "host_down"`) {
		t.Errorf("lower case: %v", err)
	}
}

// --status takes any case, and CANCELLED, which the API's status filter
// does not take: omctl asks for every alert and keeps the CANCELLED ones.
func TestListByStatusInAnyCaseAndCancelled(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, threeAlerts)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, `{"results":[{"id":"a","status":"OPEN"},{"id":"b","status":"CANCELLED"},{"id":"c","status":"CLOSED"}],"totalCount":3}`)
	ios, _, out, _ := iostreams.Test()
	run := func(status string) error {
		return listRun(context.Background(), &ListOptions{Deps: cmdutil.Deps{IO: ios, Printer: stubapi.Printer(ios, "jsonl", `.id`), ProjectID: stubapi.Project(project), Client: srv.Client()},
			Status: status, List: &cmdutil.ListFlags{Page: 1, Limit: 100}})
	}
	if err := run("open"); err != nil || out.String() != "a\nb\nc\n" {
		t.Errorf("open: err %v, out %q", err, out.String())
	}
	out.Reset()
	if err := run("Cancelled"); err != nil || out.String() != "b\n" {
		t.Errorf("cancelled: err %v, out %q", err, out.String())
	}
	reqs := srv.Requests()
	if got := reqs[0].Query.Get("status"); got != "OPEN" {
		t.Errorf("open: status=%q sent, want OPEN", got)
	}
	if _, sent := reqs[1].Query["status"]; sent {
		t.Errorf("cancelled: status=%q sent; the API does not filter by CANCELLED", reqs[1].Query.Get("status"))
	}
}

func TestNewCmdListRunsListRunWithoutRunF(t *testing.T) {
	// Without runF the command calls listRun, which refuses --interval
	// without --watch before any request.
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdList(&cmdutil.Factory{IOStreams: ios}, nil)
	err := cmdtest.Execute(cmd, ios, "--interval", "1s")
	var fe *cmdutil.FlagError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "--watch") || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("err = %v (%T)", err, err)
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
