package clusters

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
	if err := cmdtest.Execute(cmd, ios, "--backup-jobs-enabled-only=false", "--page", "2"); err != nil || got == nil {
		t.Fatal(err)
	}
	if lo, _ := got.List.ListOptions(); lo.BackupJobsEnabledOnly == nil || *lo.BackupJobsEnabledOnly || lo.PageNum != 2 {
		t.Errorf("options %+v", lo)
	}
	cmd = NewCmdList(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *ListOptions) error { t.Error("ran"); return nil })
	if err := cmdtest.Execute(cmd, ios, cluster); err == nil {
		t.Error("an argument was accepted")
	}
}

func TestListPrintsClusters(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/clusters", 200, `{"results":[`+clusterJSON+`],"totalCount":1}`)
	ios, _, out, _ := iostreams.Test()
	if err := listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, "table", project), List: &cmdutil.ListFlags{Page: 1, Limit: 100}}); err != nil {
		t.Fatal(err)
	}
	if want := cluster + "\tAnimals\tREPLICA_SET\trs0\tAnimals-0\t2014-04-03T15:26:58Z\n"; out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}
	if q := srv.Only().Query; q.Has("backupJobsEnabledOnly") {
		t.Errorf("sent a default it was not given: %v", q)
	}
}
