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
