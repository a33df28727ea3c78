package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const project = "5e2b0c2e8f9d4b0012345678"

func TestNewCmdTrigger(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		check   func(*TriggerOptions) bool
	}{
		{[]string{"HOST_DOWN", "--host", "db1:27017", "--resolve"}, "", func(o *TriggerOptions) bool {
			return o.Event == "HOST_DOWN" && o.Resolve && *o.Target["hostnameAndPort"] == "db1:27017"
		}},
		{[]string{"--metric", "CONNECTIONS", "--value", "150", "--units", "RAW", "--shard", "s0"}, "", func(o *TriggerOptions) bool {
			return o.Metric == "CONNECTIONS" && o.Value == "150" && o.Units == "RAW" && *o.Target["shardName"] == "s0"
		}},
		{[]string{"HOST_DOWN", "REPLICA_SET"}, "accepts at most 1 arg", nil},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *TriggerOptions
		cmd := NewCmdTrigger(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *TriggerOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !tt.check(got) {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
}

func TestTriggerSendsTheConditionAndPrintsTheAlerts(t *testing.T) {
	srv := stubapi.New(t)
	srv.ReplyControl("POST", "events", 200, `{"alerts":[{"id":"5f1a0c2e8f9d4b0012345678","status":"TRACKING","eventTypeName":"HOST_DOWN","created":"2026-01-01T00:00:00Z","hostnameAndPort":"db1:27017"}]}`)
	ios, _, out, _ := iostreams.Test()
	host := "db1:27017"
	err := triggerRun(context.Background(), &TriggerOptions{
		Deps:  cmdutil.Deps{ProjectID: stubapi.Project(project), Client: srv.Client(), Printer: stubapi.Printer(ios, "table", "")},
		Event: "HOST_DOWN", Target: map[string]*string{"hostnameAndPort": &host},
	})
	if err != nil {
		t.Fatal(err)
	}
	body := srv.Only().JSON(t)
	target, _ := body["target"].(map[string]any)
	if body["groupId"] != project || body["eventTypeName"] != "HOST_DOWN" || target["hostnameAndPort"] != host || body["resolved"] != nil {
		t.Errorf("body = %v", body)
	}
	if !strings.HasPrefix(out.String(), "5f1a0c2e8f9d4b0012345678\tTRACKING\tHOST_DOWN\t") {
		t.Errorf("output = %q", out.String())
	}
}

// Without a target the condition is the project's own, and the command
// says so: an alert naming no host would look like a mistake.
func TestTriggerWithoutATargetSaysTheAlertIsAboutTheProject(t *testing.T) {
	srv := stubapi.New(t)
	srv.ReplyControl("POST", "events", 200, `{"alerts":[{"id":"5f1a0c2e8f9d4b0012345678","status":"OPEN","eventTypeName":"HOST_DOWN","created":"2026-01-01T00:00:00Z"}]}`)
	ios, _, _, errOut := iostreams.Test()
	err := triggerRun(context.Background(), &TriggerOptions{Deps: srv.Deps(ios, "table", project), Event: "HOST_DOWN", Target: map[string]*string{}})
	if want := "the condition was reported for project " + project + " itself, so its alerts name no host, replica set or cluster"; err != nil || !strings.Contains(errOut.String(), want) {
		t.Errorf("err %v, stderr %q", err, errOut.String())
	}
	if _, sent := srv.Only().JSON(t)["target"]; sent {
		t.Error("an empty target was sent")
	}
}

// Against a server that is not omctl server (the real service answers the
// unknown control path with an HTML page and no API error body), every
// control command says so, not "501 … an HTML page".
func TestControlsAgainstAnotherServerSayItIsNotOmctlServer(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotImplemented)
		io.WriteString(w, "<html><head><title>Not Implemented</title></head></html>")
	}))
	defer other.Close()
	none := 0
	deps := func(ios *iostreams.IOStreams) cmdutil.Deps {
		return cmdutil.Deps{IO: ios, ProjectID: stubapi.Project(project), Printer: stubapi.Printer(ios, "table", ""),
			Client: func() (*client.Client, error) { return client.New(client.Options{BaseURL: other.URL, Retries: &none}) }}
	}
	ios, _, _, _ := iostreams.Test()
	for name, run := range map[string]func() error{
		"trigger": func() error {
			return triggerRun(context.Background(), &TriggerOptions{Deps: deps(ios), Event: "HOST_DOWN", Target: map[string]*string{}})
		},
		"requests": func() error {
			return requestsRun(context.Background(), &RequestsOptions{Deps: deps(ios), List: &cmdutil.ListFlags{Page: 1, Limit: 100}})
		},
	} {
		err := run()
		if err == nil || !strings.Contains(err.Error(), "the base URL's server is not omctl server: it answered") || !strings.Contains(err.Error(), "501 Not Implemented") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestTriggerRefusesWhatTheEngineWouldNot(t *testing.T) {
	for _, o := range []TriggerOptions{
		{},
		{Event: "HOST_DOWN", Metric: "CONNECTIONS"},
		{Metric: "CONNECTIONS", Value: "lots"},
		{Metric: "CONNECTIONS", Value: "5", Resolve: true},
		{Metric: "NOT_A_METRIC", Value: "5"},
		{Event: "NOT_AN_EVENT"},
		{Event: "HOST_DOWN", Value: "5"},
	} {
		o.Deps = cmdutil.Deps{Client: nil}
		err := triggerRun(context.Background(), &o)
		var fe *cmdutil.FlagError
		if !errors.As(err, &fe) {
			t.Errorf("%+v: %v, want a usage error", o, err)
		}
	}
}

func TestClockAdvancesAndPrintsNow(t *testing.T) {
	srv := stubapi.New(t)
	srv.ReplyControl("POST", "clock", 200, `{"now":"2026-01-01T00:15:00Z"}`)
	ios, _, out, _ := iostreams.Test()
	err := clockRun(context.Background(), &ClockOptions{Action: "advance", Value: "15m",
		Deps: srv.Deps(ios, "table", "")})
	if err != nil {
		t.Fatal(err)
	}
	if body := srv.Only().JSON(t); body["advance"] != "15m" {
		t.Errorf("body = %v", body)
	}
	if strings.TrimSpace(out.String()) != "2026-01-01T00:15:00Z" {
		t.Errorf("output = %q", out.String())
	}
	if err := clockRun(context.Background(), &ClockOptions{Action: "advance", Value: "soon"}); err == nil {
		t.Error("a bad duration was sent")
	}
}

func TestNotificationsSendTheFilters(t *testing.T) {
	srv := stubapi.New(t)
	srv.ReplyControl("GET", "notifications", 200, `{"results":[{"id":"n1","alertId":"a1","event":"alert.open","typeName":"WEBHOOK","sentAt":"2026-01-01T00:05:00Z","delivery":{"status":"DELIVERED","attempts":1}}],"links":[],"totalCount":1}`)
	ios, _, out, _ := iostreams.Test()
	err := notificationsRun(context.Background(), &NotificationsOptions{AlertID: "a1", Event: "alert.open", List: &cmdutil.ListFlags{Page: 1, Limit: 100},
		Deps: srv.Deps(ios, "table", "")})
	if err != nil {
		t.Fatal(err)
	}
	q := srv.Only().Query
	if q.Get("alertId") != "a1" || q.Get("event") != "alert.open" || q.Has("typeName") {
		t.Errorf("query = %v", q)
	}
	if out.String() != "2026-01-01T00:05:00Z\talert.open\tWEBHOOK\ta1\tDELIVERED\n" {
		t.Errorf("output = %q", out.String())
	}
}
