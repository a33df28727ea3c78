package api

import (
	"context"
	"errors"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestAPISendsHeaders(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, `{"results":[],"totalCount":0}`)
	ios, _, _, _ := iostreams.Test()
	o := opts(srv, ios, "json", "")
	o.Path = "/groups/{project_id}/alerts"
	o.Headers = []string{"X-Trace: abc 123", "Accept: application/json; charset=utf-8"}
	if err := apiRun(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	h := srv.Only().Header
	if h.Get("X-Trace") != "abc 123" || h.Get("Accept") != "application/json; charset=utf-8" {
		t.Errorf("headers = %v", h)
	}
}

func TestAPIRefusesHeadersItSetsItself(t *testing.T) {
	for _, bad := range []string{"Authorization: Basic x", "host: evil", "no colon", ": empty name"} {
		o := &Options{Method: "GET", Path: "/x", Headers: []string{bad}}
		var fe *cmdutil.FlagError
		if err := apiRun(context.Background(), o); !errors.As(err, &fe) {
			t.Errorf("%q: %v, want a usage error", bad, err)
		}
	}
}
