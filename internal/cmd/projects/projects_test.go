package projects

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const (
	project     = "5e2b0c2e8f9d4b0012345678"
	projectJSON = `{"id":"5e2b0c2e8f9d4b0012345678","name":"shop","orgId":"5e1a0c2e8f9d4b0012345678","tags":["prod","eu"],"future":1}`
)

func TestNewCmdList(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		check   func(*ListOptions) bool
	}{
		{nil, "", func(o *ListOptions) bool {
			lo, err := o.List.ListOptions()
			return err == nil && lo.PageNum == 1 && !lo.All
		}},
		{[]string{"--all", "--limit", "7"}, "", func(o *ListOptions) bool { lo, _ := o.List.ListOptions(); return lo.All && lo.ItemsPerPage == 7 }},
		{[]string{"shop"}, `unknown command "shop"`, nil},
		{[]string{"--backup-jobs-enabled-only"}, "unknown flag", nil},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *ListOptions
		cmd := NewCmdList(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *ListOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || !tt.check(got) {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
}

func TestNewCmdDescribe(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		want    string
	}{
		{[]string{project}, "", project},
		{[]string{"my shop"}, "", "my shop"},
		{nil, "PROJECT_ID|NAME", ""},
		{[]string{"a", "b"}, "", ""},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *DescribeOptions
		cmd := NewCmdDescribe(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *DescribeOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		switch {
		case tt.want != "":
			if err != nil || got == nil || got.Project != tt.want {
				t.Errorf("%v: %v %+v", tt.args, err, got)
			}
		case err == nil || got != nil || (tt.wantErr != "" && !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%v: error %v, want one naming %q", tt.args, err, tt.wantErr)
		}
	}
}

func TestListSendsPagingAndPrintsRows(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups", 200, `{"results":[`+projectJSON+`],"totalCount":1}`)
	ios, _, out, _ := iostreams.Test()
	opts := &ListOptions{Deps: srv.Deps(ios, "table", ""), List: &cmdutil.ListFlags{Page: 2, Limit: 10}}
	if err := listRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if q := srv.Only().Query; q.Get("pageNum") != "2" || q.Get("itemsPerPage") != "10" {
		t.Errorf("query %v", q)
	}
	if got := out.String(); got != project+"\tshop\t5e1a0c2e8f9d4b0012345678\tprod,eu\n" {
		t.Errorf("output %q", got)
	}
}

func TestDescribeByIDOrName(t *testing.T) {
	for _, tc := range []struct{ arg, path string }{
		{project, "/groups/" + project},
		{"my shop/eu", "/groups/byName/my%20shop%2Feu"},
	} {
		srv := stubapi.New(t)
		srv.Reply("GET", tc.path, 200, projectJSON)
		ios, _, out, _ := iostreams.Test()
		if err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "json", ""), Project: tc.arg}); err != nil {
			t.Fatalf("%s: %v", tc.arg, err)
		}
		if strings.TrimSpace(out.String()) != projectJSON {
			t.Errorf("%s: -o json is not the answer as received: %s", tc.arg, out.String())
		}
	}
	// An answer about another project is refused.
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project, 200, strings.Replace(projectJSON, "5678", "5679", 1))
	ios, _, _, _ := iostreams.Test()
	if err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "table", ""), Project: project}); err == nil {
		t.Error("another project's answer was accepted")
	}
	srv = stubapi.New(t)
	srv.Reply("GET", "/groups/byName/nope", 404, `{"error":404,"errorCode":"GROUP_NAME_NOT_FOUND","detail":"No group with name \"nope\" exists.","reason":"Not Found"}`)
	err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "table", ""), Project: "nope"})
	if err == nil || !strings.Contains(err.Error(), "GROUP_NAME_NOT_FOUND") {
		t.Errorf("404: %v", err)
	}
}
