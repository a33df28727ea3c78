package alerts

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

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
