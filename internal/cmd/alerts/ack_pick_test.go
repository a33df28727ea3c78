package alerts

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/prompt"
	"github.com/omctl/omctl/internal/testutil/prompttest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const (
	openAlert     = "5f1a0c2e8f9d4b00123456a1"
	trackingAlert = "5f1a0c2e8f9d4b00123456a2"
	otherAlert    = "5f1a0c2e8f9d4b00123456a3"
)

func pickPage(alerts ...string) string {
	return `{"results":[` + strings.Join(alerts, ",") + `],"totalCount":` + strconv.Itoa(len(alerts)) + `}`
}

func alert(id, status, event, host string) string {
	return `{"id":"` + id + `","status":"` + status + `","eventTypeName":"` + event + `","created":"2026-11-20T22:00:00Z","hostnameAndPort":"` + host + `"}`
}

// With no id at a terminal, ack offers the OPEN and TRACKING alerts and
// acknowledges those chosen, without a second question.
func TestAckWithoutIDPicksFromOpenAndTrackingAlerts(t *testing.T) {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, pickPage(alert(openAlert, "OPEN", "HOST_DOWN", "db1:27017"), alert(otherAlert, "OPEN", "REPLICATION_OPLOG_WINDOW_RUNNING_OUT", "db3:27017")))
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, pickPage(alert(trackingAlert, "TRACKING", "HOST_DOWN", "db2:27017")))
	// Without --comment each alert is read first, to keep its comment.
	srv.Reply("GET", "/groups/"+project+"/alerts/"+openAlert, 200, alert(openAlert, "OPEN", "HOST_DOWN", "db1:27017"))
	srv.Reply("GET", "/groups/"+project+"/alerts/"+trackingAlert, 200, alert(trackingAlert, "TRACKING", "HOST_DOWN", "db2:27017"))
	for _, id := range []string{openAlert, trackingAlert} {
		srv.Reply("PATCH", "/groups/"+project+"/alerts/"+id, 200, `{"id":"`+id+`","acknowledgedUntil":"2026-11-21T04:00:00Z"}`)
	}
	ios, _, out, _ := iostreams.Test()
	ios.SetStdinTTY(true)
	ios.SetStdoutTTY(true)
	ios.SetTerminalWidth(120)
	script := prompttest.New(t, []string{openAlert, trackingAlert})
	deps := srv.Deps(ios, "table", project)
	deps.Prompter = script
	err := ackRun(context.Background(), &AckOptions{Deps: deps, Now: func() time.Time { return now }, Until: "4h"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(script.Asked, []string{"Alerts to acknowledge"}) {
		t.Errorf("asked %q", script.Asked)
	}
	offered := script.Offered["Alerts to acknowledge"]
	if len(offered) != 3 || offered[0].Value != openAlert || offered[2].Value != trackingAlert {
		t.Fatalf("offered %+v", offered)
	}
	if l := offered[0].Label; !strings.HasPrefix(l, openAlert+"  OPEN") || !strings.Contains(l, "HOST_DOWN") || !strings.Contains(l, "db1:27017") || !strings.Contains(l, "2 hours ago") {
		t.Errorf("label %q: want the id, then status, event, target and age", l)
	}
	var statuses, patched []string
	for _, r := range srv.Requests() {
		switch r.Method {
		case "GET":
			if !strings.HasSuffix(r.Path, "/alerts") {
				continue // one alert read, to keep its comment
			}
			statuses = append(statuses, r.Query.Get("status"))
		case "PATCH":
			patched = append(patched, r.Path[strings.LastIndex(r.Path, "/")+1:])
		}
	}
	slices.Sort(patched)
	if !slices.Equal(statuses, []string{"OPEN", "TRACKING"}) || !slices.Equal(patched, []string{openAlert, trackingAlert}) {
		t.Errorf("listed %v, patched %v", statuses, patched)
	}
	if !strings.Contains(out.String(), openAlert) || !strings.Contains(out.String(), trackingAlert) {
		t.Errorf("output %q", out.String())
	}
}

// Without a terminal, a missing id stays a usage error: nothing is
// listed, nobody is waited for.
func TestAckWithoutIDAndTerminalIsAUsageError(t *testing.T) {
	srv := stubapi.New(t)
	for _, tty := range [][2]bool{{false, false}, {true, false}, {false, true}} {
		ios, _, _, _ := iostreams.Test()
		ios.SetStdinTTY(tty[0])
		ios.SetStdoutTTY(tty[1])
		deps := srv.Deps(ios, "table", project)
		deps.Prompter = prompttest.New(t)
		err := ackRun(context.Background(), &AckOptions{Deps: deps, Now: time.Now, Until: "4h"})
		if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "which alerts?") {
			t.Errorf("tty %v: %v", tty, err)
		}
	}
	if len(srv.Requests()) != 0 {
		t.Errorf("requests %v", srv.Requests())
	}
}

// A bulk change asks first at a terminal; no changes nothing, --yes and
// a pipe do not ask.
func TestBulkAckAsksAtATerminal(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	ios.SetStdinTTY(true)
	ios.SetStderrTTY(true)
	script := prompttest.New(t, false)
	deps := srv.Deps(ios, "table", project)
	deps.Prompter = script
	err := ackRun(context.Background(), &AckOptions{Deps: deps, Now: time.Now, Until: "4h", AlertIDs: []string{openAlert, trackingAlert}})
	if err == nil || !strings.Contains(err.Error(), "not confirmed") || len(srv.Requests()) != 0 {
		t.Errorf("declined: %v, requests %v", err, srv.Requests())
	}
	if len(script.Asked) != 1 || script.Asked[0] != "Acknowledge 2 alert(s) of project "+project+"?" {
		t.Errorf("asked %q", script.Asked)
	}
	srv.Reply("GET", "/groups/"+project+"/alerts/"+openAlert, 200, alert(openAlert, "OPEN", "HOST_DOWN", "db1:27017"))
	srv.Reply("PATCH", "/groups/"+project+"/alerts/"+openAlert, 200, `{"id":"`+openAlert+`","acknowledgedUntil":"2030-01-01T00:00:00Z"}`)
	err = ackRun(context.Background(), &AckOptions{Deps: deps, Now: time.Now, Until: "4h", AlertIDs: []string{openAlert, "-"}[:1], Yes: true})
	if err != nil || len(srv.Requests()) != 2 {
		t.Errorf("--yes: %v, requests %d", err, len(srv.Requests()))
	}
}

// unack offers only the alerts still acknowledged: unacknowledging the
// others changes nothing (issue 32).
func TestUnackPickerOffersOnlyAcknowledgedAlerts(t *testing.T) {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	acked := func(id, until string) string {
		return strings.Replace(alert(id, "OPEN", "HOST_DOWN", "db1:27017"), `"status"`, `"acknowledgedUntil":"`+until+`","status"`, 1)
	}
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, pickPage(acked(openAlert, "2026-11-22T00:00:00Z"), alert(otherAlert, "OPEN", "HOST_DOWN", "db3:27017")))
	// An acknowledgement that has run out is none.
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, pickPage(acked(trackingAlert, "2026-11-20T00:00:00Z")))
	ios, _, _, _ := iostreams.Test()
	ios.SetStdinTTY(true)
	ios.SetStdoutTTY(true)
	script := prompttest.New(t, cmdutil.ErrInterrupted)
	deps := srv.Deps(ios, "table", project)
	deps.Prompter = script
	_ = ackRun(context.Background(), &AckOptions{Deps: deps, Now: func() time.Time { return now }, Unack: true})
	offered := script.Offered["Alerts to unacknowledge"]
	if len(offered) != 1 || offered[0].Value != openAlert {
		t.Errorf("offered %+v, want only %s", offered, openAlert)
	}
}

// Each option of the picker fits the terminal, its id first and whole.
func TestPickerLabelsFitTheTerminal(t *testing.T) {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	for _, width := range []int{60, 80, 120} {
		srv := stubapi.New(t)
		srv.Reply("GET", "/groups/"+project+"/alerts", 200, pickPage(alert(openAlert, "OPEN", "OUTSIDE_METRIC_THRESHOLD", "db-a1.example.com:27017"), alert(otherAlert, "OPEN", "REPLICATION_OPLOG_WINDOW_RUNNING_OUT", "db3:27017")))
		srv.Reply("GET", "/groups/"+project+"/alerts", 200, pickPage(alert(trackingAlert, "TRACKING", "HOST_DOWN", "db2:27017")))
		ios, _, _, _ := iostreams.Test()
		ios.SetStdinTTY(true)
		ios.SetStdoutTTY(true)
		ios.SetTerminalWidth(width)
		script := prompttest.New(t, prompt.ErrCancelled)
		deps := srv.Deps(ios, "table", project)
		deps.Prompter = script
		_ = ackRun(context.Background(), &AckOptions{Deps: deps, Now: func() time.Time { return now }, Until: "4h"})
		offered := script.Offered["Alerts to acknowledge"]
		if len(offered) != 3 {
			t.Fatalf("offered %+v", offered)
		}
		for _, o := range offered {
			if w := twwidth.Width(o.Label); w > prompt.LabelWidth(ios, true) || !strings.HasPrefix(o.Label, o.Value+"  ") {
				t.Errorf("at %d columns the label %q (%d wide) does not fit or does not start with its id", width, o.Label, w)
			}
		}
	}
}
