package alerts

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const (
	project = "5e2b0c2e8f9d4b0012345678"
	alertID = "5f1a0c2e8f9d4b0012345678"
)

const alertJSON = `{"id":"5f1a0c2e8f9d4b0012345678","groupId":"5e2b0c2e8f9d4b0012345678","eventTypeName":"HOST_DOWN","status":"OPEN","created":"2026-11-01T10:00:00Z","hostnameAndPort":"db1.example.com:27017","futureField":{"kept":true}}`

func page(items string, total int, next bool) string {
	links := `[{"href":"x","rel":"self"}`
	if next {
		links += `,{"href":"y","rel":"next"}`
	}
	return `{"results":[` + items + `],"links":` + links + `],"totalCount":` + strconv.Itoa(total) + `}`
}

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
	if len(lines) != 2 || !strings.Contains(lines[0], "ID") || !strings.Contains(lines[0], "ACK UNTIL") || !strings.Contains(lines[1], alertID) {
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
		{"unknown status", ListOptions{Status: "CANCELLED", List: &cmdutil.ListFlags{Page: 1, Limit: 100}}, "", "TRACKING, OPEN, CLOSED"},
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

func TestDescribeNotFoundIsTypedError(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts/"+alertID, 404,
		`{"detail":"No alert with ID 5f1a0c2e8f9d4b0012345678 exists in group 5e2b0c2e8f9d4b0012345678.","error":404,"errorCode":"ALERT_NOT_FOUND","parameters":[],"reason":"Not Found"}`)
	ios, _, out, _ := iostreams.Test()
	err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "json", project), AlertID: alertID})
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || apiErr.ErrorCode != "ALERT_NOT_FOUND" {
		t.Fatalf("err = %v", err)
	}
	if err.Error() != "404 ALERT_NOT_FOUND: No alert with ID 5f1a0c2e8f9d4b0012345678 exists in group 5e2b0c2e8f9d4b0012345678." {
		t.Errorf("message = %q", err.Error())
	}
	if cmdutil.ExitCode(err) != cmdutil.ExitNotFound || out.Len() != 0 {
		t.Errorf("exit %d, stdout %q", cmdutil.ExitCode(err), out.String())
	}
}

func TestDescribePrintsJSONAsReceived(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts/"+alertID, 200, alertJSON)
	ios, _, out, _ := iostreams.Test()
	err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "json", project), AlertID: alertID})
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != alertJSON+"\n" {
		t.Errorf("output = %s", out.String())
	}
}

func TestDescribeRejectsMalformedID(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "json", project), AlertID: "nope"})
	if err == nil || !strings.Contains(err.Error(), "24 hexadecimal digits") || len(srv.Requests()) != 0 {
		t.Fatalf("err = %v, requests = %d", err, len(srv.Requests()))
	}
}

func TestAckSendsUntilAndComment(t *testing.T) {
	now := time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)
	cases := []struct {
		name      string
		until     string
		forever   bool
		wantUntil string
	}{
		{"duration", "4h", false, "2026-11-21T12:00:00Z"},
		{"rfc3339 with offset", "2026-12-01T10:00:00+02:00", false, "2026-12-01T08:00:00Z"},
		// 100 calendar years, not 36,500 days.
		{"forever", "", true, "2126-11-21T08:00:00Z"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := stubapi.New(t)
			srv.Reply("PATCH", "/groups/"+project+"/alerts/"+alertID, 200, strings.Replace(alertJSON, `"status":"OPEN"`, `"status":"OPEN","acknowledgedUntil":"`+tc.wantUntil+`"`, 1))
			ios, _, _, _ := iostreams.Test()
			err := ackRun(context.Background(), &AckOptions{Deps: srv.Deps(ios, "json", project), Now: func() time.Time { return now },
				AlertID: alertID, Until: tc.until, Forever: tc.forever, Comment: "on it"})
			if err != nil {
				t.Fatal(err)
			}
			body := srv.Only().JSON(t)
			if body["acknowledgedUntil"] != tc.wantUntil || body["acknowledgementComment"] != "on it" {
				t.Errorf("body = %v", body)
			}
		})
	}
}

func TestAckRefusesPastOrMissingTime(t *testing.T) {
	now := time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)
	for _, until := range []string{"", "2020-01-01", "yesterday"} {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		err := ackRun(context.Background(), &AckOptions{Deps: srv.Deps(ios, "json", project), Now: func() time.Time { return now }, AlertID: alertID, Until: until})
		if cmdutil.ExitCode(err) != cmdutil.ExitUsage || len(srv.Requests()) != 0 {
			t.Errorf("until %q: err = %v, requests = %d", until, err, len(srv.Requests()))
		}
	}
}

func TestUnackSendsNoAcknowledgedUntil(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("PATCH", "/groups/"+project+"/alerts/"+alertID, 200, alertJSON)
	ios, _, _, _ := iostreams.Test()
	err := ackRun(context.Background(), &AckOptions{Deps: srv.Deps(ios, "json", project), Now: time.Now, AlertID: alertID, Unack: true})
	if err != nil {
		t.Fatal(err)
	}
	if body := srv.Only().JSON(t); len(body) != 0 {
		t.Errorf("unack body = %v, want {}", body)
	}
}

func TestAckConfirmsWhatTheServerAnswered(t *testing.T) {
	acked := strings.Replace(alertJSON, `"status":"OPEN"`, `"status":"OPEN","acknowledgedUntil":"2026-11-21T12:00:05Z"`, 1)
	for _, tc := range []struct{ name, answer, want, wantErr string }{
		// The server's value, not the one asked for (12:00:00).
		{"acknowledged", acked, "✓ Alert " + alertID + " acknowledged until 2026-11-21T12:00:05Z\n", ""},
		// An end already past on the server's clock acknowledges nothing:
		// the answer says the change did not happen, which is an error.
		{"not acknowledged", alertJSON, "", "Alert " + alertID + " is not acknowledged: the server's answer has no acknowledgedUntil"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := stubapi.New(t)
			srv.Reply("GET", "/groups/"+project+"/alerts/"+alertID, 200, alertJSON)
			srv.Reply("PATCH", "/groups/"+project+"/alerts/"+alertID, 200, tc.answer)
			ios, _, out, _ := iostreams.Test()
			ios.SetStdoutTTY(true)
			ios.SetNoColor(true)
			now := time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)
			err := ackRun(context.Background(), &AckOptions{Deps: srv.Deps(ios, "table", project), Now: func() time.Time { return now }, AlertID: alertID, Until: "4h"})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || cmdutil.ExitCode(err) != cmdutil.ExitError || out.Len() != 0 {
					t.Errorf("err = %v, output %q", err, out.String())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if out.String() != tc.want {
				t.Errorf("output = %q, want %q", out.String(), tc.want)
			}
		})
	}
}

// Acknowledging again without --comment keeps the alert's comment; an
// explicit --comment, even empty, replaces it.
func TestAckAgainKeepsTheComment(t *testing.T) {
	current := strings.Replace(alertJSON, `"status":"OPEN"`, `"status":"OPEN","acknowledgedUntil":"2026-11-21T09:00:00Z","acknowledgementComment":"disk swap","acknowledgingUsername":"ann"`, 1)
	answer := strings.Replace(current, "09:00:00Z", "12:00:00Z", 1)
	now := func() time.Time { return time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC) }
	for _, tc := range []struct {
		name       string
		comment    string
		commentSet bool
		want       any
	}{
		{"no --comment", "", false, "disk swap"},
		{"--comment text", "new", true, "new"},
		{"--comment empty", "", true, nil},
	} {
		srv := stubapi.New(t)
		if !tc.commentSet {
			srv.Reply("GET", "/groups/"+project+"/alerts/"+alertID, 200, current)
		}
		srv.Reply("PATCH", "/groups/"+project+"/alerts/"+alertID, 200, answer)
		ios, _, _, _ := iostreams.Test()
		err := ackRun(context.Background(), &AckOptions{Deps: srv.Deps(ios, "json", project), Now: now, AlertID: alertID, Until: "4h", Comment: tc.comment, CommentSet: tc.commentSet})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		reqs := srv.Requests()
		if body := reqs[len(reqs)-1].JSON(t); body["acknowledgementComment"] != tc.want {
			t.Errorf("%s: body %v, want comment %v", tc.name, body, tc.want)
		}
	}
}

// describe prints an alert only when the answer is that alert: a list,
// another alert or something else is an error, in every format.
func TestDescribeRefusesAnAnswerThatIsNotTheAlert(t *testing.T) {
	other := strings.Replace(alertJSON, alertID, "5f1a0c2e8f9d4b00123456ff", 1)
	for _, tt := range []struct {
		name, body, format, want string
	}{
		{"a list", page(alertJSON, 1, false), "json", "the server answered a list where an alert was asked for"},
		{"a list, in a table", page(alertJSON, 1, false), "table", "the server answered a list where an alert was asked for"},
		{"another alert", other, "json", `the server answered with id "5f1a0c2e8f9d4b00123456ff" where id "` + alertID + `" was asked for`},
		{"an array", `[` + alertJSON + `]`, "yaml", "the server's answer is not an alert: it is not a JSON object"},
		{"no id", `{"status":"OPEN"}`, "jsonl", "the server's answer is not an alert: it has no id"},
		{"a wrong shape", `{"id":"` + alertID + `","status":7}`, "json", "the server's answer is not an alert"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := stubapi.New(t)
			srv.Reply("GET", "/groups/"+project+"/alerts/"+alertID, 200, tt.body)
			ios, _, out, _ := iostreams.Test()
			err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, tt.format, project), AlertID: alertID})
			if err == nil || !strings.Contains(err.Error(), tt.want) || cmdutil.ExitCode(err) == 0 || out.Len() != 0 {
				t.Errorf("err = %v, stdout %q; want %q", err, out.String(), tt.want)
			}
		})
	}
}
