package orgs

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
)

const (
	org     = "5e1a0c2e8f9d4b0012345678"
	orgJSON = `{"id":"5e1a0c2e8f9d4b0012345678","name":"Acme"}`
)

func TestNewCmds(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		check   func(any) bool
	}{
		{[]string{"list", "--name", "acme"}, "", func(o any) bool { return o.(*ListOptions).Name == "acme" }},
		{[]string{"list", "acme"}, `unknown command "acme"`, nil},
		{[]string{"describe", org}, "", func(o any) bool { return o.(*DescribeOptions).OrgID == org }},
		{[]string{"describe"}, "ORG_ID", nil},
		{[]string{"projects", org, "--name", "shop", "--all"}, "", func(o any) bool {
			p := o.(*ProjectsOptions)
			return p.OrgID == org && p.Name == "shop" && p.List.All
		}},
		{[]string{"projects"}, "ORG_ID", nil},
	} {
		ios, _, _, _ := iostreams.Test()
		f := &cmdutil.Factory{IOStreams: ios}
		var got any
		cmds := map[string]func() error{
			"list": func() error {
				return cmdtest.Execute(NewCmdList(f, func(_ context.Context, o *ListOptions) error { got = o; return nil }), ios, tt.args[1:]...)
			},
			"describe": func() error {
				return cmdtest.Execute(NewCmdDescribe(f, func(_ context.Context, o *DescribeOptions) error { got = o; return nil }), ios, tt.args[1:]...)
			},
			"projects": func() error {
				return cmdtest.Execute(NewCmdProjects(f, func(_ context.Context, o *ProjectsOptions) error { got = o; return nil }), ios, tt.args[1:]...)
			},
		}
		err := cmds[tt.args[0]]()
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
