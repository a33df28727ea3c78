package api

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestAPIFieldsMakeATypedBodyAndAPost(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("POST", "/groups/"+project+"/apiKeys", 201, `{"id":"k"}`)
	note := filepath.Join(t.TempDir(), "desc.txt")
	if err := os.WriteFile(note, []byte("from a file"), 0o600); err != nil {
		t.Fatal(err)
	}
	ios, _, _, _ := iostreams.Test()
	o := opts(srv, ios, "json", "")
	o.Path = "/groups/{project_id}/apiKeys"
	o.Fields = Fields{Raw: []string{"code=007"}, Typed: []string{"desc=@" + note, "n=5", "x=1.5", "on=true", "none=null", "word=five"}}
	if err := apiRun(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	req := srv.Only()
	want := `{"code":"007","desc":"from a file","n":5,"none":null,"on":true,"word":"five","x":1.5}`
	if req.Method != "POST" || string(req.Body) != want {
		t.Errorf("sent %s %s, want POST %s", req.Method, req.Body, want)
	}
}

func TestAPIFieldsOfAGetGoInTheQueryAndIncludeShowsHeaders(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, `{"results":[],"totalCount":0}`)
	ios, _, out, _ := iostreams.Test()
	o := opts(srv, ios, "json", "")
	o.Path, o.MethodSet, o.Include = "/groups/{project_id}/alerts", true, true
	o.Fields = Fields{Raw: []string{"status=OPEN"}, Typed: []string{"itemsPerPage=5"}}
	if err := apiRun(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if q := srv.Only().Query; q.Get("status") != "OPEN" || q.Get("itemsPerPage") != "5" {
		t.Errorf("query = %v", q)
	}
	if got := out.String(); !strings.HasPrefix(got, "HTTP 200 OK\n") || !strings.Contains(got, "Content-Type: application/json\n") ||
		!strings.HasSuffix(got, "\n\n"+`{"results":[],"totalCount":0}`+"\n") {
		t.Errorf("output = %q", got)
	}
}

func TestAPIRefusesBadFields(t *testing.T) {
	for _, tc := range []struct {
		fields  Fields
		include bool
		want    string
	}{
		{Fields{Raw: []string{"novalue"}}, false, `invalid -f "novalue": want key=value`},
		{Fields{Raw: []string{"a=1"}, Typed: []string{"a=2"}}, false, `field "a" is given twice`},
		{Fields{Typed: []string{"f=@" + filepath.Join(os.TempDir(), "no-such-field-file")}}, false, "cannot read -F f: no such file"},
	} {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		o := opts(srv, ios, "json", "")
		o.Path, o.Fields = "/groups", tc.fields
		err := apiRun(context.Background(), o)
		if cmdutil.ExitCode(err) != cmdutil.ExitUsage || err == nil || !strings.Contains(err.Error(), tc.want) || len(srv.Requests()) != 0 {
			t.Errorf("%+v: err = %v", tc.fields, err)
		}
	}
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	o := opts(srv, ios, "json", "")
	o.Path, o.Paginate, o.Include = "/groups", true, true
	if err := apiRun(context.Background(), o); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("--paginate -i: err = %v", err)
	}
}
