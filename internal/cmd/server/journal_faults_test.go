package server

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const demoKey, demoSecret = "demoowner", "11111111-aaaa-4bbb-8ccc-000000000001"

func TestRateLimitAndJournalSizeFlags(t *testing.T) {
	base, _, _, stop := start(t, &Options{Demo: true, RateLimit: 1, JournalSize: 0})
	defer stop()
	none := 0 // see the 429 itself, not the client waiting it out
	c, _ := client.New(client.Options{BaseURL: base, PublicKey: demoKey, PrivateKey: demoSecret, Retries: &none})
	var limited *client.APIError
	for range 5 {
		if _, err := c.Get(context.Background(), "/globalAlerts", nil); errors.As(err, &limited) {
			break
		}
	}
	if limited == nil || limited.StatusCode != 429 || limited.ErrorCode != "RATE_LIMITED" {
		t.Fatalf("five requests at --rate-limit 1: %v", limited)
	}
	body, err := c.Get(context.Background(), client.ControlPrefix+"requests", nil)
	if err != nil || !strings.Contains(string(body), `"totalCount":0`) {
		t.Errorf("--journal-size 0 kept requests: %v %s", err, body)
	}
	ios, _, _, _ := iostreams.Test()
	for _, o := range []*Options{{Deps: cmdutil.Deps{IO: ios}, Listen: "127.0.0.1:0", RateLimit: -1}, {Deps: cmdutil.Deps{IO: ios}, Listen: "127.0.0.1:0", JournalSize: -5}} {
		if err := Run(context.Background(), o); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

func TestFaultFlagsAreCheckedBeforeSending(t *testing.T) {
	ok := func(s string) *int64 { n := int64(len(s)); return &n }
	for _, c := range []struct {
		opts FaultsAddOptions
		want string
	}{
		{FaultsAddOptions{Path: "groups"}, "invalid --path"},
		{FaultsAddOptions{Path: "/x", Method: "get"}, "invalid --method"},
		{FaultsAddOptions{Path: "/x", Method: "GET", Status: 302}, "invalid --status 302"},
		{FaultsAddOptions{Path: "/x", Method: "GET", Status: 503, ErrorCode: "X", Delay: "soon"}, "invalid --delay"},
		{FaultsAddOptions{Path: "/x", Method: "GET", Status: 503, ErrorCode: "X", Delay: "1s", Times: ok("")}, "invalid --times 0"},
		{FaultsAddOptions{Path: "/x", Method: "GET", Status: 503, ErrorCode: "X", Delay: "1s", Probability: 1.5}, "invalid --probability"},
		// What the server refuses, the command refuses before sending.
		{FaultsAddOptions{Path: "/x", Method: "GET", Status: 503, ErrorCode: "X", Delay: "61s"}, `invalid --delay "61s" is not a Go duration from 0 to 1m0s`},
		{FaultsAddOptions{Path: "/x", Method: "GET", Status: 503, ErrorCode: "service unavailable"}, "invalid --error-code"},
		{FaultsAddOptions{Path: "/" + strings.Repeat("x", 1024)}, "longer than 1024 characters"},
		{FaultsAddOptions{Path: "/groups/**x"}, "** must be a whole segment"},
		{FaultsAddOptions{Path: "/x", Method: "GET", Status: 503, ErrorCode: "X", RetryAfter: ok(strings.Repeat("x", 86401))}, "invalid --retry-after 86401"},
	} {
		_, err := faultBody(&c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%+v: %v, want %s", c.opts, err, c.want)
		}
	}
	given := map[string]bool{"path": true, "status": true, "delay": true}
	body, err := faultBody(&FaultsAddOptions{Path: "/x", Status: 503, Delay: "1500ms", Probability: 1, Times: ok("ab"),
		Given: func(n string) bool { return given[n] }})
	if err != nil || len(body) != 4 || body["delay"] != "1500ms" || body["status"] != 503 || body["times"] != int64(2) {
		t.Errorf("body = %v, %v: want only the flags given", body, err)
	}
	if _, err := faultBody(&FaultsAddOptions{Path: "/x", ErrorCode: "X", Given: func(n string) bool { return n == "error-code" }}); err == nil {
		t.Error("--error-code without --status accepted")
	}
}

func TestRequestsSendsTheFiltersAndPrintsRows(t *testing.T) {
	srv := stubapi.New(t)
	srv.ReplyControl("GET", "requests", 200, `{"results":[{"id":"a","time":"2026-01-01T00:00:00Z","method":"GET","path":"/api/public/v1.0/globalAlerts","query":"pretty=true","status":0,"caller":"","remoteAddr":"127.0.0.1"}],"totalCount":1}`)
	ios, _, out, _ := iostreams.Test()
	zero, none := 0, ""
	err := requestsRun(context.Background(), &RequestsOptions{
		Deps:   srv.Deps(ios, "table", ""),
		Method: "GET", Path: "/globalAlerts", Status: &zero, Caller: &none, List: &cmdutil.ListFlags{Page: 1, Limit: 100},
	})
	if err != nil {
		t.Fatal(err)
	}
	q := srv.Only().Query
	if q.Get("method") != "GET" || q.Get("path") != "/globalAlerts" || q.Get("status") != "0" || !q.Has("caller") || q.Get("caller") != "" {
		t.Errorf("query = %v", q)
	}
	if want := "2026-01-01T00:00:00Z\tGET\t/globalAlerts?pretty=true\tclosed\t\t\t127.0.0.1\n"; out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
}

func TestRequestsClearTakesNoFilter(t *testing.T) {
	srv := stubapi.New(t)
	srv.ReplyControl("DELETE", "requests", 200, `{}`)
	ios, _, out, _ := iostreams.Test()
	opts := &RequestsOptions{Deps: srv.Deps(ios, "json", ""),
		Clear: true, List: &cmdutil.ListFlags{Page: 1, Limit: 100}}
	if err := requestsRun(context.Background(), opts); err != nil || strings.TrimSpace(out.String()) != "{}" {
		t.Errorf("--clear -o json: %v %q", err, out.String())
	}
	opts.Method = "GET"
	if err := requestsRun(context.Background(), opts); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("--clear with a filter: %v", err)
	}
}

func TestFaultsAddSendsTheFlagsGivenAndClearRemovesEachID(t *testing.T) {
	srv := stubapi.New(t)
	srv.ReplyControl("POST", "faults", 200, `{"id":"5f9f00000000000000000001","path":"/x","status":503,"errorCode":"SERVICE_UNAVAILABLE","probability":1,"reset":false}`)
	srv.ReplyControl("DELETE", "faults/5f9f00000000000000000001", 200, `{}`)
	ios, _, out, _ := iostreams.Test()
	co := srv.Deps(ios, "table", "")
	given := map[string]bool{"path": true, "status": true}
	err := faultsAddRun(context.Background(), &FaultsAddOptions{Deps: co, Path: "/x", Status: 503, Probability: 1,
		Given: func(n string) bool { return given[n] }})
	if err != nil {
		t.Fatal(err)
	}
	if body := srv.Requests()[0].JSON(t); len(body) != 2 || body["path"] != "/x" || body["status"] != float64(503) {
		t.Errorf("body = %v", body)
	}
	if !strings.HasPrefix(out.String(), "5f9f00000000000000000001\tany\t/x\t503 SERVICE_UNAVAILABLE\t\tno end\t1") {
		t.Errorf("output = %q", out.String())
	}
	if err := faultsClearRun(context.Background(), &FaultsClearOptions{Deps: co, IDs: []string{"5f9f00000000000000000001"}}); err != nil {
		t.Error(err)
	}
}
