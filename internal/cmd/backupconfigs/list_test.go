package backupconfigs

import (
	"context"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestNewCmdList(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var got *ListOptions
	cmd := NewCmdList(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *ListOptions) error { got = o; return nil })
	if err := cmdtest.Execute(cmd, ios, "--all", "--backup-jobs-enabled-only"); err != nil || got == nil {
		t.Fatal(err)
	}
	if lo, _ := got.List.ListOptions(); !lo.All || lo.BackupJobsEnabledOnly == nil || !*lo.BackupJobsEnabledOnly {
		t.Errorf("options %+v", lo)
	}
	cmd = NewCmdList(&cmdutil.Factory{IOStreams: ios}, func(context.Context, *ListOptions) error { t.Error("ran"); return nil })
	if err := cmdtest.Execute(cmd, ios, cluster); err == nil {
		t.Error("a CLUSTER_ID was accepted")
	}
}

func TestListShowsEachConfiguration(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/backupConfigs", 200, `{"results":[`+bcJSON+`],"totalCount":1}`)
	ios, _, out, _ := iostreams.Test()
	lf := &cmdutil.ListFlags{Page: 1, Limit: 100}
	if err := listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, "jsonl", project), List: lf}); err != nil {
		t.Fatal(err)
	}
	if out.String() != bcJSON+"\n" {
		t.Errorf("jsonl items as received: %q", out.String())
	}
	if q := srv.Only().Query; q.Get("itemsPerPage") != "100" {
		t.Errorf("query %v", q)
	}
}
