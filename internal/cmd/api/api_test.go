package api

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const project = "5e2b0c2e8f9d4b0012345678"

func opts(srv *stubapi.Server, ios *iostreams.IOStreams, format, jq string) *Options {
	return &Options{IO: ios, Client: srv.Client(), Printer: stubapi.Printer(ios, format, jq),
		ProjectID: stubapi.Project(project), OrgID: stubapi.Project("5e1a0c2e8f9d4b0012345678"), Method: "GET"}
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
