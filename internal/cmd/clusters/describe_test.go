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
