package clusters

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
	cluster     = "5e3c0c2e8f9d4b0012345678"
	clusterJSON = `{"id":"5e3c0c2e8f9d4b0012345678","groupId":"5e2b0c2e8f9d4b0012345678","clusterName":"Animals","typeName":"REPLICA_SET","replicaSetName":"rs0","shardName":"Animals-0","lastHeartbeat":"2014-04-03T15:26:58Z"}`
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

func TestNewCmdDescribe(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var got *DescribeOptions
	cmd := NewCmdDescribe(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *DescribeOptions) error { got = o; return nil })
	if err := cmdtest.Execute(cmd, ios, cluster); err != nil || got == nil || got.ClusterID != cluster {
		t.Fatalf("%v %+v", err, got)
	}
	got = nil
	cmd = NewCmdDescribe(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *DescribeOptions) error { got = o; return nil })
	if err := cmdtest.Execute(cmd, ios); err == nil || !strings.Contains(err.Error(), "CLUSTER_ID") || got != nil {
		t.Errorf("no argument: %v", err)
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

func TestDescribeChecksTheAnswer(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/clusters/"+cluster, 200, clusterJSON)
	ios, _, out, _ := iostreams.Test()
	if err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "jsonl", project), ClusterID: cluster}); err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(out.String()) != clusterJSON {
		t.Errorf("output %q", out.String())
	}
	ios, _, _, _ = iostreams.Test()
	if err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "table", project), ClusterID: "Animals"}); err == nil || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("a name for an id: %v", err)
	}
	srv2 := stubapi.New(t)
	srv2.Reply("GET", "/groups/"+project+"/clusters/"+cluster, 404, `{"error":404,"errorCode":"CLUSTER_NOT_FOUND","detail":"No cluster.","reason":"Not Found"}`)
	if err := describeRun(context.Background(), &DescribeOptions{Deps: srv2.Deps(ios, "table", project), ClusterID: cluster}); err == nil || !strings.Contains(err.Error(), "CLUSTER_NOT_FOUND") {
		t.Errorf("404: %v", err)
	}
}
