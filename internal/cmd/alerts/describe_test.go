package alerts

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

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

func TestNewCmdDescribeRunsDescribeRunWithoutRunF(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdDescribe(&cmdutil.Factory{IOStreams: ios}, nil)
	err := cmdtest.Execute(cmd, ios, "not-an-id")
	if err == nil || !strings.Contains(err.Error(), "24 hexadecimal digits") {
		t.Errorf("err = %v", err)
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

func decodeAlert(t *testing.T, s string) api.Alert {
	t.Helper()
	var a api.Alert
	if err := json.Unmarshal([]byte(s), &a); err != nil {
		t.Fatal(err)
	}
	return a
}
