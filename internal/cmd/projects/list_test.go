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
