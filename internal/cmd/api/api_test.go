package api

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const project = "5e2b0c2e8f9d4b0012345678"

func opts(srv *stubapi.Server, ios *iostreams.IOStreams, format, jq string) *Options {
	return &Options{Deps: cmdutil.Deps{IO: ios, Printer: stubapi.Printer(ios, format, jq), ProjectID: stubapi.Project(project), OrgID: stubapi.Project("5e1a0c2e8f9d4b0012345678"), Client: srv.Client()}, Method: "GET", Parallel: client.DefaultParallel}
}

func TestAPIExpandsPlaceholdersAndKeepsQuery(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, `{"results":[],"totalCount":0}`)
	ios, _, out, _ := iostreams.Test()
	o := opts(srv, ios, "json", "")
	o.Path = "/groups/{project_id}/alerts?status=OPEN"
	if err := apiRun(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if q := srv.Only().Query; q.Get("status") != "OPEN" {
		t.Errorf("query = %v", q)
	}
	if out.String() != `{"results":[],"totalCount":0}`+"\n" {
		t.Errorf("output = %q", out.String())
	}
}

func TestAPISendsMethodAndInput(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("PATCH", "/groups/"+project+"/alertConfigs/5f2a0c2e8f9d4b0012345678", 200, `{"enabled":false}`)
	ios, stdin, _, _ := iostreams.Test()
	stdin.WriteString(`{"enabled":false}`)
	o := opts(srv, ios, "json", "")
	o.Method, o.Path, o.Input = "patch", "groups/{project_id}/alertConfigs/5f2a0c2e8f9d4b0012345678", "-"
	if err := apiRun(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	req := srv.Only()
	if req.Method != "PATCH" || string(req.Body) != `{"enabled":false}` || req.Header.Get("Content-Type") != "application/json" {
		t.Errorf("sent %s %s %v", req.Method, req.Body, req.Header)
	}
}

func TestAPIPaginateMergesEveryPage(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/globalAlerts", 200, `{"results":[{"id":"a"}],"totalCount":2,"links":[{"rel":"next","href":"n"}]}`)
	srv.Reply("GET", "/globalAlerts", 200, `{"results":[{"id":"b"}],"totalCount":2,"links":[]}`)
	ios, _, out, _ := iostreams.Test()
	o := opts(srv, ios, "json", "[.results[].id] | join(\" \")")
	o.Path, o.Paginate = "/globalAlerts", true
	if err := apiRun(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Query.Get("itemsPerPage") != "500" {
		t.Errorf("requests = %+v", reqs)
	}
	if out.String() != "a b\n" {
		t.Errorf("output = %q", out.String())
	}
}

func TestAPIRejectsBadMethodAndPaginatedWrites(t *testing.T) {
	for _, tc := range []struct{ method, want string }{{"FETCH", "invalid method"}, {"POST", "GET only"}} {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		o := opts(srv, ios, "json", "")
		o.Method, o.Path, o.Paginate = tc.method, "/x", true
		if err := apiRun(context.Background(), o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v", tc.method, err)
		}
	}
}

// Like `gh api --paginate`, a single resource is printed as it is, not as
// an empty list.
func TestAPIPaginateOnASingleResourcePrintsIt(t *testing.T) {
	const alert = `{"id":"5f1a0c2e8f9d4b0000000025","status":"OPEN","links":[{"rel":"self","href":"x"}]}`
	for _, tc := range []struct{ format, jq, want string }{
		{"json", "", alert + "\n"},
		{"json", ".id", "5f1a0c2e8f9d4b0000000025\n"},
		{"jsonl", "", alert + "\n"},
	} {
		srv := stubapi.New(t)
		srv.Reply("GET", "/groups/"+project+"/alerts/5f1a0c2e8f9d4b0000000025", 200, alert)
		ios, _, out, _ := iostreams.Test()
		o := opts(srv, ios, tc.format, tc.jq)
		o.Path, o.Paginate = "/groups/{project_id}/alerts/5f1a0c2e8f9d4b0000000025", true
		if err := apiRun(context.Background(), o); err != nil {
			t.Fatal(err)
		}
		if out.String() != tc.want || len(srv.Requests()) != 1 {
			t.Errorf("-o %s --jq %q: %q after %d requests, want %q", tc.format, tc.jq, out.String(), len(srv.Requests()), tc.want)
		}
	}
}

func TestAPIPaginateTakesPageSizeFromPath(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/globalAlerts", 200, `{"results":[{"id":"a"}],"totalCount":1}`)
	ios, _, _, _ := iostreams.Test()
	o := opts(srv, ios, "jsonl", "")
	o.Path, o.Paginate = "/globalAlerts?itemsPerPage=7&pageNum=2", true
	if err := apiRun(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if q := srv.Only().Query; q.Get("itemsPerPage") != "7" || q.Get("pageNum") != "2" {
		t.Errorf("query = %v", q)
	}
	o.Path = "/globalAlerts?itemsPerPage=501"
	if err := apiRun(context.Background(), o); err == nil || !strings.Contains(err.Error(), `invalid itemsPerPage "501" in PATH: want a whole number from 1 to 500`) {
		t.Errorf("err = %v", err)
	}
}

// omctl api sends a body as given, but says when a secret in it is only
// the redacted form the server shows.
func TestAPIWarnsOfARedactedSecretAndSendsIt(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("PUT", "/groups/"+project+"/alertConfigs/5f2a0c2e8f9d4b0012345678", 200, `{}`)
	ios, stdin, _, errOut := iostreams.Test()
	stdin.WriteString(`{"eventTypeName":"HOST_DOWN","notifications":[{"typeName":"WEBHOOK","webhookSecret":"******"}]}`)
	o := opts(srv, ios, "json", "")
	o.Method, o.Path, o.Input = "PUT", "/groups/{project_id}/alertConfigs/5f2a0c2e8f9d4b0012345678", "-"
	if err := apiRun(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(srv.Only().Body), `"******"`) || !strings.Contains(errOut.String(), "Warning: the body's notifications[0].webhookSecret holds a redacted value") {
		t.Errorf("body %s, stderr %q", srv.Only().Body, errOut.String())
	}
}
