package alerts

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const (
	alert2 = "5f1a0c2e8f9d4b0012345679"
	alert3 = "5f1a0c2e8f9d4b001234567a"
)

func alertWith(id, event, status string) string {
	s := strings.Replace(alertJSON, alertID, id, 1)
	s = strings.Replace(s, `"HOST_DOWN"`, `"`+event+`"`, 1)
	return strings.Replace(s, `"OPEN"`, `"`+status+`"`, 1)
}

func TestNewCmdAckAndUnackTakeSeveralIDsOrAFilter(t *testing.T) {
	for _, tt := range []struct {
		unack   bool
		args    []string
		wantErr string
		check   func(*AckOptions) bool
	}{
		{false, []string{alertID, "--until", "4h"}, "", func(o *AckOptions) bool { return o.AlertID == alertID && o.AlertIDs == nil && !o.bulk() }},
		{false, []string{alertID, alert2, "--forever"}, "", func(o *AckOptions) bool { return o.AlertID == "" && len(o.AlertIDs) == 2 && o.bulk() }},
		{false, []string{"-", "--until", "4h", "--dry-run"}, "", func(o *AckOptions) bool { return o.AlertIDs[0] == "-" && o.DryRun }},
		{false, []string{"--status", "OPEN", "--event", "HOST_DOWN", "--until", "4h"}, "", func(o *AckOptions) bool {
			return o.Status == "OPEN" && o.Event == "HOST_DOWN" && o.bulk()
		}},
		{false, []string{alertID}, "at least one of the flags in the group [until forever] is required", nil},
		{true, []string{alertID}, "", func(o *AckOptions) bool { return o.Unack && o.AlertID == alertID && !o.bulk() }},
		{true, []string{"--event", "HOST_DOWN"}, "", func(o *AckOptions) bool { return o.Unack && o.Event == "HOST_DOWN" }},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *AckOptions
		runF := func(_ context.Context, o *AckOptions) error { got = o; return nil }
		cmd := NewCmdAck(&cmdutil.Factory{IOStreams: ios}, runF)
		if tt.unack {
			cmd = NewCmdUnack(&cmdutil.Factory{IOStreams: ios}, runF)
		}
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

var bulkNow = func() time.Time { return time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC) }

func TestBulkAckFromStandardInputTriesAllAndFailsAfter(t *testing.T) {
	srv := stubapi.New(t)
	acked := strings.Replace(alertJSON, `"status":"OPEN"`, `"status":"OPEN","acknowledgedUntil":"2026-11-21T12:00:00Z"`, 1)
	srv.Reply("PATCH", "/groups/"+project+"/alerts/"+alertID, 200, acked)
	srv.Reply("PATCH", "/groups/"+project+"/alerts/"+alert2, 404, `{"detail":"No alert with ID `+alert2+`.","error":404,"errorCode":"ALERT_NOT_FOUND","reason":"Not Found"}`)
	srv.Reply("PATCH", "/groups/"+project+"/alerts/"+alert3, 200, strings.Replace(acked, alertID, alert3, 1))
	ios, stdin, out, _ := iostreams.Test()
	stdin.WriteString(alertID + "\tOPEN\tHOST_DOWN\n" + alert2 + "\tOPEN\n" + alert3 + "\n")
	err := ackRun(context.Background(), &AckOptions{Deps: srv.Deps(ios, "table", project), Now: bulkNow, AlertIDs: []string{"-"}, Until: "4h", Comment: "maintenance"})
	if err == nil || err.Error() != "1 of 3 alerts failed" || cmdutil.ExitCode(err) != cmdutil.ExitError {
		t.Errorf("err = %v", err)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Fatalf("%d requests, want 3", n)
	}
	for _, r := range srv.Requests() {
		if b := r.JSON(t); b["acknowledgedUntil"] != "2026-11-21T12:00:00Z" || b["acknowledgementComment"] != "maintenance" {
			t.Errorf("body = %v", b)
		}
	}
	want := alertID + "\tacknowledged\tuntil 2026-11-21T12:00:00Z\n" +
		alert2 + "\tfailed\t404 ALERT_NOT_FOUND: No alert with ID " + alert2 + ".\n" +
		alert3 + "\tacknowledged\tuntil 2026-11-21T12:00:00Z\n"
	if out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
}

func TestBulkAckByFilterListsThenPatchesTheMatches(t *testing.T) {
	srv := stubapi.New(t)
	list := `{"results":[` + alertWith(alertID, "HOST_DOWN", "OPEN") + `,` + alertWith(alert2, "REPLICA_SET", "OPEN") + `,` + alertWith(alert3, "HOST_DOWN", "OPEN") + `],"totalCount":3,"links":[]}`
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, list)
	srv.Reply("PATCH", "/groups/"+project+"/alerts/"+alertID, 200, alertJSON)
	srv.Reply("PATCH", "/groups/"+project+"/alerts/"+alert3, 200, alertJSON)
	ios, _, out, _ := iostreams.Test()
	err := ackRun(context.Background(), &AckOptions{Deps: srv.Deps(ios, "jsonl", project), Now: bulkNow, Status: "OPEN", Event: "HOST_DOWN", Unack: true})
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || reqs[0].Method != "GET" || reqs[0].Query.Get("status") != "OPEN" {
		t.Fatalf("requests = %+v", reqs)
	}
	patched := map[string]bool{}
	for _, r := range reqs[1:] {
		patched[r.Path[strings.LastIndex(r.Path, "/")+1:]] = true
	}
	if !patched[alertID] || !patched[alert3] || patched[alert2] {
		t.Errorf("patched %v", patched)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], `{"id":"`+alertID+`","ok":true,"outcome":"unacknowledged"`) || !strings.Contains(lines[0], `"resource":{"id":`) {
		t.Errorf("output = %q", out.String())
	}
}

func TestBulkAckDryRunSendsNothing(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts/"+alertID, 200, alertJSON)
	srv.Reply("GET", "/groups/"+project+"/alerts/"+alert2, 200, strings.Replace(alertJSON, alertID, alert2, 1))
	ios, _, out, stderr := iostreams.Test()
	err := ackRun(context.Background(), &AckOptions{Deps: srv.Deps(ios, "table", project), Now: bulkNow, AlertIDs: []string{alertID, alert2}, Until: "4h", DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range srv.Requests() {
		if r.Method != "GET" {
			t.Errorf("a dry run sent %s %s", r.Method, r.Path)
		}
	}
	got := out.String()
	for _, id := range []string{alertID, alert2} {
		if want := "PATCH /groups/" + project + "/alerts/" + id + "\n"; !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if n := strings.Count(got, `+  "acknowledgedUntil": "2026-11-21T12:00:00Z",`); n != 2 {
		t.Errorf("%d diffs show the new acknowledgedUntil:\n%s", n, got)
	}
	if !strings.Contains(stderr.String(), "2 alert(s) would be acknowledged; nothing was sent") {
		t.Errorf("stderr %q", stderr.String())
	}
}

// A filter without --status acknowledges only OPEN and TRACKING alerts,
// and keeps the comment of one acknowledged already.
func TestBulkAckByEventSkipsClosedAndCancelledAlerts(t *testing.T) {
	alert4 := "5f1a0c2e8f9d4b001234567b"
	tracking := strings.Replace(alertWith(alert2, "HOST_DOWN", "TRACKING"), `"status":"TRACKING"`,
		`"status":"TRACKING","acknowledgedUntil":"2026-11-21T09:00:00Z","acknowledgementComment":"rack 4"`, 1)
	list := `{"results":[` + alertWith(alertID, "HOST_DOWN", "OPEN") + `,` + tracking + `,` + alertWith(alert3, "HOST_DOWN", "CLOSED") + `,` +
		alertWith(alert4, "HOST_DOWN", "CANCELLED") + `,` + alertWith("5f1a0c2e8f9d4b001234567c", "REPLICA_SET", "OPEN") + `],"totalCount":5,"links":[]}`
	acked := func(id string) string {
		return strings.Replace(alertWith(id, "HOST_DOWN", "OPEN"), `"status":"OPEN"`, `"status":"OPEN","acknowledgedUntil":"2026-11-21T12:00:00Z"`, 1)
	}
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, list)
	srv.Reply("PATCH", "/groups/"+project+"/alerts/"+alertID, 200, acked(alertID))
	srv.Reply("PATCH", "/groups/"+project+"/alerts/"+alert2, 200, acked(alert2))
	ios, _, _, _ := iostreams.Test()
	err := ackRun(context.Background(), &AckOptions{Deps: srv.Deps(ios, "table", project), Now: bulkNow, Event: "HOST_DOWN", Until: "4h"})
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || reqs[0].Method != "GET" || reqs[0].Query.Get("status") != "" {
		t.Fatalf("requests = %+v", reqs)
	}
	comments := map[string]any{}
	for _, r := range reqs[1:] {
		comments[r.Path[strings.LastIndex(r.Path, "/")+1:]] = r.JSON(t)["acknowledgementComment"]
	}
	if len(comments) != 2 || comments[alertID] != nil || comments[alert2] != "rack 4" {
		t.Errorf("acknowledged %v, want %s (no comment) and %s (its comment kept)", comments, alertID, alert2)
	}
}

// unack by filter without --status removes only acknowledgements that exist.
func TestBulkUnackByEventTakesOnlyAcknowledgedAlerts(t *testing.T) {
	ackedOpen := strings.Replace(alertWith(alert2, "HOST_DOWN", "OPEN"), `"status":"OPEN"`, `"status":"OPEN","acknowledgedUntil":"2026-11-21T09:00:00Z"`, 1)
	ackedClosed := strings.Replace(alertWith(alert3, "HOST_DOWN", "CLOSED"), `"status":"CLOSED"`, `"status":"CLOSED","acknowledgedUntil":"2026-11-21T09:00:00Z"`, 1)
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, `{"results":[`+alertWith(alertID, "HOST_DOWN", "OPEN")+`,`+ackedOpen+`,`+ackedClosed+`],"totalCount":3}`)
	srv.Reply("PATCH", "/groups/"+project+"/alerts/"+alert2, 200, alertWith(alert2, "HOST_DOWN", "OPEN"))
	ios, _, _, _ := iostreams.Test()
	if err := ackRun(context.Background(), &AckOptions{Deps: srv.Deps(ios, "table", project), Now: bulkNow, Event: "HOST_DOWN", Unack: true}); err != nil {
		t.Fatal(err)
	}
	if reqs := srv.Requests(); len(reqs) != 2 || !strings.HasSuffix(reqs[1].Path, alert2) {
		t.Errorf("requests = %+v", reqs)
	}
}

func TestBulkAckRefusesBadInputBeforeSending(t *testing.T) {
	for _, tc := range []struct {
		opts  AckOptions
		stdin string
		want  string
	}{
		{AckOptions{AlertIDs: []string{alertID, "bad"}, Until: "4h"}, "", `invalid alert ID "bad"`},
		{AckOptions{AlertIDs: []string{"-"}, Until: "4h"}, alertID + "\nnope\n", "standard input, line 2"},
		{AckOptions{AlertIDs: []string{alertID, alert2}, Status: "OPEN", Until: "4h"}, "", "not both"},
		{AckOptions{Status: "LOST", Until: "4h"}, "", `invalid --status "LOST"`},
		{AckOptions{Event: "host down", Until: "4h"}, "", `invalid --event "host down"`},
		{AckOptions{Event: "HOST_DOWN"}, "", "--until TIME or --forever"},
		{AckOptions{DryRun: true, Until: "4h"}, "", "which alerts?"},
	} {
		srv := stubapi.New(t)
		ios, stdin, _, _ := iostreams.Test()
		stdin.WriteString(tc.stdin)
		o := tc.opts
		o.IO, o.Client, o.Printer, o.ProjectID, o.Now = ios, srv.Client(), stubapi.Printer(ios, "table", ""), stubapi.Project(project), bulkNow
		err := ackRun(context.Background(), &o)
		if err == nil || !strings.Contains(err.Error(), tc.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage || len(srv.Requests()) != 0 {
			t.Errorf("want %q: err = %v", tc.want, err)
		}
	}
}

func TestBulkAckWithNothingToDoSucceeds(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, out, stderr := iostreams.Test()
	err := ackRun(context.Background(), &AckOptions{Deps: srv.Deps(ios, "table", project), Now: bulkNow, AlertIDs: []string{"-"}, Until: "4h"})
	if err != nil || out.Len() != 0 || !strings.Contains(stderr.String(), "No alerts to change") || len(srv.Requests()) != 0 {
		t.Errorf("err = %v, out %q, stderr %q", err, out.String(), stderr.String())
	}
}
