package api

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestAPIFollowsAFullURLOfTheSameServer(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, `{"results":[],"totalCount":0}`)
	ios, _, _, _ := iostreams.Test()
	o := opts(srv, ios, "json", "")
	// As found in links[].href: the base path is not added twice.
	o.Path = srv.URL + "/api/public/v1.0/groups/" + project + "/alerts?pageNum=2"
	if err := apiRun(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if req := srv.Only(); req.Path != "/api/public/v1.0/groups/"+project+"/alerts" || req.Query.Get("pageNum") != "2" {
		t.Errorf("sent %s ?%v", req.Path, req.Query)
	}
}

func TestAPIRefusesAURLOfAnotherServer(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	o := opts(srv, ios, "json", "")
	o.Path = "https://elsewhere.example.com/api/public/v1.0/groups"
	err := apiRun(context.Background(), o)
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "credentials to that server only") || len(srv.Requests()) != 0 {
		t.Errorf("err = %v, requests %d", err, len(srv.Requests()))
	}
}
