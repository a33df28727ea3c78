package globalalerts

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func run(t *testing.T, srv *stubapi.Server, opts ListOptions) (string, error) {
	ios, _, out, _ := iostreams.Test()
	opts.Client, opts.Printer, opts.Now = srv.Client(), stubapi.Printer(ios, "jsonl", ""), func() time.Time { return now }
	if opts.List == nil {
		opts.List = &cmdutil.ListFlags{Page: 1, Limit: 100}
	}
	err := listRun(context.Background(), &opts)
	return out.String(), err
}

func TestListSendsStatusAndDateFilters(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/globalAlerts", 200, `{"results":[{"id":"a","status":"OPEN"},{"id":"b","status":"OPEN"}],"totalCount":2}`)
	out, err := run(t, srv, ListOptions{Status: "OPEN", Since: "7d", Until: "2026-11-20"})
	if err != nil {
		t.Fatal(err)
	}
	q := srv.Only().Query
	if q.Get("status") != "OPEN" || q.Get("createdOnOrAfter") != "2026-11-14T12:00:00Z" || q.Get("createdOnOrBefore") != "2026-11-20T00:00:00Z" {
		t.Errorf("query = %v", q)
	}
	if out != `{"id":"a","status":"OPEN"}`+"\n"+`{"id":"b","status":"OPEN"}`+"\n" {
		t.Errorf("jsonl = %q", out)
	}
}

func TestListRejectsBadFilters(t *testing.T) {
	for _, tc := range []struct {
		opts ListOptions
		want string
	}{
		{ListOptions{Status: "opened"}, "valid values are TRACKING, OPEN, CLOSED, CANCELLED"},
		{ListOptions{Since: "last tuesday"}, `invalid --since "last tuesday": want RFC 3339 (2026-12-01T10:00:00Z), a date (2026-12-01) or a duration back from now`},
		{ListOptions{Since: "2026-11-20", Until: "2026-11-01"}, "is before --since"},
	} {
		srv := stubapi.New(t)
		_, err := run(t, srv, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) || len(srv.Requests()) != 0 {
			t.Errorf("%+v: err = %v", tc.opts, err)
		}
	}
}

func TestNewCmdList(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		check   func(*ListOptions) bool
	}{
		{args: []string{}, check: func(o *ListOptions) bool {
			lo, err := o.List.ListOptions()
			return o.Status == "" && o.Since == "" && o.Until == "" && err == nil &&
				lo.PageNum == 1 && lo.ItemsPerPage == 100 && !lo.All && lo.BackupJobsEnabledOnly == nil
		}},
		{args: []string{"--status", "OPEN", "--since", "7d", "--until", "2026-11-20", "--page", "2", "--limit", "10"}, check: func(o *ListOptions) bool {
			lo, err := o.List.ListOptions()
			return o.Status == "OPEN" && o.Since == "7d" && o.Until == "2026-11-20" && err == nil && lo.PageNum == 2 && lo.ItemsPerPage == 10
		}},
		{args: []string{"--all", "--backup-jobs-enabled-only"}, check: func(o *ListOptions) bool {
			lo, err := o.List.ListOptions()
			return err == nil && lo.All && lo.ItemsPerPage == client.MaxItemsPerPage && lo.BackupJobsEnabledOnly != nil && *lo.BackupJobsEnabledOnly
		}},
		// Values are checked by the run function, not by flag parsing.
		{args: []string{"--status", "open"}, check: func(o *ListOptions) bool { return o.Status == "open" }},
		{args: []string{"OPEN"}, wantErr: `unknown command "OPEN" for "list"`},
		{args: []string{"--limit", "ten"}, wantErr: `invalid argument "ten" for "--limit"`},
		{args: []string{"--status"}, wantErr: "flag needs an argument: --status"},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *ListOptions
		f := &cmdutil.Factory{IOStreams: ios, Now: func() time.Time { return now }}
		cmd := NewCmdList(f, func(_ context.Context, o *ListOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || !tt.check(got) {
			t.Errorf("%v: %v %+v", tt.args, err, got)
			continue
		}
		if got.Now == nil || !got.Now().Equal(now) {
			t.Errorf("%v: Now is not the factory's", tt.args)
		}
	}
}

func TestStatusCompletion(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdList(&cmdutil.Factory{IOStreams: ios}, nil)
	complete, ok := cmd.GetFlagCompletionFunc("status")
	if !ok {
		t.Fatal("--status has no completion")
	}
	got, _ := complete(cmd, nil, "")
	if len(got) != 4 || got[0] != "TRACKING" || got[1] != "OPEN" || got[2] != "CLOSED" || got[3] != "CANCELLED" {
		t.Errorf("completions = %v", got)
	}
}

func runWith(t *testing.T, srv *stubapi.Server, ios *iostreams.IOStreams, format string, opts ListOptions) error {
	t.Helper()
	opts.Client, opts.Printer, opts.Now = srv.Client(), cmdtest.Printer(ios, format, now), func() time.Time { return now }
	if opts.List == nil {
		opts.List = &cmdutil.ListFlags{Page: 1, Limit: 100}
	}
	return listRun(context.Background(), &opts)
}

func TestListOutputPerFormat(t *testing.T) {
	for _, tc := range []struct {
		format string
		tty    bool
		want   func(string) bool
	}{
		{"table", true, func(s string) bool {
			return trimLines(s) == ""+
				"ID                        STATUS  EVENT              CREATED      TARGET     ACK UNTIL\n"+
				"5f1a0c2e8f9d4b0012345678  OPEN    HOST_DOWN          3 hours ago  db1:27017\n"+
				"5f1a0c2e8f9d4b0012345679  CLOSED  BACKUP_AGENT_DOWN  2 days ago   Cluster0   in 1 day\n"
		}},
		{"table", false, func(s string) bool {
			return s == "5f1a0c2e8f9d4b0012345678\tOPEN\tHOST_DOWN\t2026-11-21T09:00:00Z\tdb1:27017\t\n"+
				"5f1a0c2e8f9d4b0012345679\tCLOSED\tBACKUP_AGENT_DOWN\t2026-11-19T12:00:00Z\tCluster0\t2026-11-22T12:00:00Z\n"
		}},
		{"json", false, func(s string) bool { return s == page+"\n" }},
		{"yaml", false, func(s string) bool {
			return strings.HasPrefix(s, "results:\n  - id: 5f1a0c2e8f9d4b0012345678\n    status: OPEN\n") && strings.HasSuffix(s, "totalCount: 2\n")
		}},
	} {
		srv := stubapi.New(t)
		srv.Reply("GET", "/globalAlerts", 200, page)
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(tc.tty)
		ios.SetNoColor(true)
		ios.SetTerminalWidth(200)
		if err := runWith(t, srv, ios, tc.format, ListOptions{}); err != nil {
			t.Fatalf("%s: %v", tc.format, err)
		}
		if !tc.want(out.String()) {
			t.Errorf("%s tty=%v: output\n%s", tc.format, tc.tty, out.String())
		}
		// No filter given, none sent.
		if q := srv.Only().Query; len(q) != 2 || q.Get("pageNum") != "1" || q.Get("itemsPerPage") != "100" {
			t.Errorf("%s: query = %v", tc.format, q)
		}
	}
}

// trimLines drops the padding a table leaves at the end of lines.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

func TestListEmptyOnTerminalSaysSo(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/globalAlerts", 200, `{"results":[],"totalCount":0}`)
	ios, _, out, errOut := iostreams.Test()
	ios.SetStdoutTTY(true)
	if err := runWith(t, srv, ios, "table", ListOptions{Status: "TRACKING"}); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 || errOut.String() != "No results.\n" {
		t.Errorf("stdout %q, stderr %q", out.String(), errOut.String())
	}
	if q := srv.Only().Query; q.Get("status") != "TRACKING" || q.Has("createdOnOrAfter") || q.Has("createdOnOrBefore") {
		t.Errorf("query = %v", q)
	}
}

func TestListAllMergesPagesAndKeepsFilters(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/globalAlerts", 200, `{"results":[`+alertA+`],"totalCount":2}`)
	srv.Reply("GET", "/globalAlerts", 200, `{"results":[`+alertB+`],"totalCount":2}`)
	ios, _, out, _ := iostreams.Test()
	err := runWith(t, srv, ios, "jsonl", ListOptions{Since: "2026-11-01T00:00:00+01:00", List: &cmdutil.ListFlags{Page: 1, Limit: 1, All: true, Parallel: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != alertA+"\n"+alertB+"\n" {
		t.Errorf("jsonl = %q", out.String())
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("requests = %v", reqs)
	}
	for i, r := range reqs {
		// Each page repeats the filter, in UTC.
		if r.Query.Get("createdOnOrAfter") != "2026-10-31T23:00:00Z" || r.Query.Get("pageNum") != []string{"1", "2"}[i] || r.Query.Get("itemsPerPage") != "1" {
			t.Errorf("page %d query = %v", i+1, r.Query)
		}
	}
}

func TestListUntilAloneIsADurationBack(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/globalAlerts", 200, page)
	ios, _, _, _ := iostreams.Test()
	if err := runWith(t, srv, ios, "json", ListOptions{Until: "1d"}); err != nil {
		t.Fatal(err)
	}
	if q := srv.Only().Query; q.Get("createdOnOrBefore") != "2026-11-20T12:00:00Z" || q.Has("createdOnOrAfter") {
		t.Errorf("query = %v", q)
	}
}

func TestListRefusesBadInputBeforeSending(t *testing.T) {
	for _, tc := range []struct {
		opts   ListOptions
		format string
		want   string
	}{
		{ListOptions{Until: "yesterday"}, "table", `invalid --until "yesterday"`},
		// 7 days ago is before 1 day ago.
		{ListOptions{Since: "1d", Until: "7d"}, "table", "--until 7d is before --since 1d"},
		{ListOptions{Status: "GONE"}, "table", `invalid --status "GONE"`},
		{ListOptions{List: &cmdutil.ListFlags{Page: 1, Limit: 0}}, "table", "invalid --limit 0"},
		{ListOptions{List: &cmdutil.ListFlags{Page: -1, Limit: 10}}, "table", "invalid --page -1"},
		{ListOptions{List: &cmdutil.ListFlags{Page: 1, Limit: 10, Parallel: 99}}, "table", "invalid --parallel 99"},
		{ListOptions{}, "csv", `invalid output format "csv"`},
	} {
		srv := stubapi.New(t)
		ios, _, out, _ := iostreams.Test()
		err := runWith(t, srv, ios, tc.format, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage || out.Len() != 0 {
			t.Errorf("%+v: err = %v", tc.opts, err)
		}
	}
}

func TestListServerErrorsMapToExitCodes(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		code   int
		want   string
	}{
		{401, `{"error":401,"reason":"Unauthorized","detail":"You are not authorized for this resource."}`, cmdutil.ExitAuth, "401 UNAUTHORIZED: You are not authorized"},
		{403, `{"error":403,"errorCode":"IP_ADDRESS_NOT_ON_ACCESS_LIST","reason":"Forbidden","detail":"no"}`, cmdutil.ExitAuth, "403 IP_ADDRESS_NOT_ON_ACCESS_LIST"},
		{400, `{"error":400,"errorCode":"INVALID_QUERY_PARAMETER","reason":"Bad Request","detail":"bad status"}`, cmdutil.ExitError, "400 INVALID_QUERY_PARAMETER: bad status"},
		{500, `{"error":500,"reason":"Internal Server Error","detail":"boom"}`, cmdutil.ExitError, "500 INTERNAL_SERVER_ERROR: boom"},
	} {
		srv := stubapi.New(t)
		srv.Reply("GET", "/globalAlerts", tc.status, tc.body)
		ios, _, out, _ := iostreams.Test()
		err := runWith(t, srv, ios, "json", ListOptions{Status: "OPEN"})
		if err == nil || cmdutil.ExitCode(err) != tc.code || !strings.Contains(err.Error(), tc.want) || out.Len() != 0 {
			t.Errorf("%d: err = %v, exit %d, output %q", tc.status, err, cmdutil.ExitCode(err), out.String())
		}
	}
}

func TestListWithoutClient(t *testing.T) {
	boom := errors.New("no credentials")
	ios, _, _, _ := iostreams.Test()
	err := listRun(context.Background(), &ListOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), Client: func() (*client.Client, error) { return nil, boom }}, Now: func() time.Time { return now }, List: &cmdutil.ListFlags{Page: 1, Limit: 100}})
	if !errors.Is(err, boom) {
		t.Errorf("err = %v", err)
	}
}

const (
	alertA = `{"id":"5f1a0c2e8f9d4b0012345678","status":"OPEN","eventTypeName":"HOST_DOWN","created":"2026-11-21T09:00:00Z","hostnameAndPort":"db1:27017"}`
	alertB = `{"id":"5f1a0c2e8f9d4b0012345679","status":"CLOSED","eventTypeName":"BACKUP_AGENT_DOWN","created":"2026-11-19T12:00:00Z","clusterName":"Cluster0","acknowledgedUntil":"2026-11-22T12:00:00Z"}`
	page   = `{"results":[` + alertA + `,` + alertB + `],"totalCount":2}`
)
