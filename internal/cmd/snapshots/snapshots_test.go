package snapshots

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const (
	project  = "5e2b0c2e8f9d4b0012345678"
	cluster  = "5e3c0c2e8f9d4b0012345678"
	snapshot = "5f3c0c2e8f9d4b0012345678"
	snapJSON = `{"id":"5f3c0c2e8f9d4b0012345678","groupId":"5e2b0c2e8f9d4b0012345678","clusterId":"5e3c0c2e8f9d4b0012345678","clusterName":"Cluster0","complete":true,"created":{"date":"2026-11-01T00:00:00Z","increment":1},"doNotDelete":false,"expires":"2026-12-01T00:00:00Z"}`
)

func TestListByClusterOrHost(t *testing.T) {
	for _, tc := range []struct {
		src  source
		path string
	}{
		{source{ClusterID: cluster}, "/groups/" + project + "/clusters/" + cluster + "/snapshots"},
		{source{HostID: "a1b2c3d4e5f60718293a4b5c6d7e8f90"}, "/groups/" + project + "/hosts/a1b2c3d4e5f60718293a4b5c6d7e8f90/snapshots"},
	} {
		srv := stubapi.New(t)
		srv.Reply("GET", tc.path, 200, `{"results":[`+snapJSON+`],"totalCount":1}`)
		ios, _, out, _ := iostreams.Test()
		err := listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, "table", project), Source: tc.src, List: &cmdutil.ListFlags{Page: 1, Limit: 100}})
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if want := snapshot + "\ttrue\t2026-11-01T00:00:00Z\t2026-12-01T00:00:00Z\tfalse\tCluster0\n"; out.String() != want {
			t.Errorf("output = %q", out.String())
		}
	}
}

func TestListNeedsExactlyOneSource(t *testing.T) {
	for _, src := range []source{{}, {ClusterID: cluster, HostID: "h"}} {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		err := listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, "table", project), Source: src, List: &cmdutil.ListFlags{Page: 1, Limit: 100}})
		if cmdutil.ExitCode(err) != cmdutil.ExitUsage || len(srv.Requests()) != 0 {
			t.Errorf("%+v: err = %v", src, err)
		}
	}
}

func TestDescribeGetsOneSnapshot(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/clusters/"+cluster+"/snapshots/"+snapshot, 200, snapJSON)
	ios, _, out, _ := iostreams.Test()
	err := describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: stubapi.Printer(ios, "json", ".clusterName"), ProjectID: stubapi.Project(project), Client: srv.Client()}, SnapshotID: snapshot, Source: source{ClusterID: cluster}})
	if err != nil || out.String() != "Cluster0\n" {
		t.Fatalf("err = %v, out = %q", err, out.String())
	}
}

func TestExpireBodies(t *testing.T) {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		expires     string
		doNotDelete bool
		want        string
	}{
		{"30d", false, `{"doNotDelete":false,"expires":"2026-12-21T00:00:00Z"}`},
		{"", true, `{"doNotDelete":true}`},
	} {
		srv := stubapi.New(t)
		answer := strings.Replace(snapJSON, `"2026-12-01T00:00:00Z"`, `"2026-12-21T00:00:00Z"`, 1)
		if tc.doNotDelete {
			answer = strings.Replace(snapJSON, `"doNotDelete":false,"expires":"2026-12-01T00:00:00Z"`, `"doNotDelete":true`, 1)
		}
		srv.Reply("PATCH", "/groups/"+project+"/clusters/"+cluster+"/snapshots/"+snapshot, 200, answer)
		ios, _, _, _ := iostreams.Test()
		err := expireRun(context.Background(), &ExpireOptions{Deps: srv.Deps(ios, "json", project), Now: func() time.Time { return now },
			SnapshotID: snapshot, ClusterID: cluster, Expires: tc.expires, DoNotDelete: tc.doNotDelete})
		if err != nil {
			t.Fatal(err)
		}
		if got := string(srv.Only().Body); got != tc.want {
			t.Errorf("body = %s, want %s", got, tc.want)
		}
	}
}

func TestExpireRejectsBothOrNeither(t *testing.T) {
	for _, tc := range []ExpireOptions{
		{SnapshotID: snapshot, ClusterID: cluster, Expires: "1d", DoNotDelete: true},
		{SnapshotID: snapshot, ClusterID: cluster},
		{SnapshotID: snapshot, Expires: "1d"},
		{SnapshotID: snapshot, ClusterID: cluster, Expires: "soon"},
		// A past expiry could never be changed again.
		{SnapshotID: snapshot, ClusterID: cluster, Expires: "2020-01-01"},
		{SnapshotID: snapshot, ClusterID: cluster, Expires: "0s"},
	} {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		opts := tc
		opts.Client, opts.Printer, opts.ProjectID, opts.Now = srv.Client(), stubapi.Printer(ios, "json", ""), stubapi.Project(project), time.Now
		err := expireRun(context.Background(), &opts)
		if cmdutil.ExitCode(err) != cmdutil.ExitUsage || len(srv.Requests()) != 0 || !strings.Contains(err.Error(), "-") {
			t.Errorf("%+v: err = %v", tc, err)
		}
	}
}

func TestExpireAnswerWithoutTheChangeIsAnError(t *testing.T) {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	for _, answer := range []string{
		// The server keeps the snapshot for good whatever was asked.
		strings.Replace(snapJSON, `"doNotDelete":false,"expires":"2026-12-01T00:00:00Z"`, `"doNotDelete":true`, 1),
		// The old expiry.
		snapJSON,
		strings.Replace(snapJSON, `,"expires":"2026-12-01T00:00:00Z"`, "", 1),
	} {
		srv := stubapi.New(t)
		srv.Reply("PATCH", "/groups/"+project+"/clusters/"+cluster+"/snapshots/"+snapshot, 200, answer)
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(true)
		err := expireRun(context.Background(), &ExpireOptions{Deps: srv.Deps(ios, "table", project), Now: func() time.Time { return now },
			SnapshotID: snapshot, ClusterID: cluster, Expires: "30d"})
		if err == nil || !strings.Contains(err.Error(), "does not show the new expires") || out.Len() != 0 {
			t.Errorf("err = %v, output %q", err, out.String())
		}
	}
}

func TestExpireDryRunSendsNothing(t *testing.T) {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/clusters/"+cluster+"/snapshots/"+snapshot, 200, snapJSON)
	ios, _, out, _ := iostreams.Test()
	err := expireRun(context.Background(), &ExpireOptions{Deps: srv.Deps(ios, "table", project), Now: func() time.Time { return now },
		SnapshotID: snapshot, ClusterID: cluster, DoNotDelete: true, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := srv.Only(); r.Method != "GET" {
		t.Errorf("sent %s", r.Method)
	}
	for _, want := range []string{"PATCH /groups/" + project + "/clusters/" + cluster + "/snapshots/" + snapshot + "\n", `-  "expires": "2026-12-01T00:00:00Z",`, `+  "doNotDelete": true,`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
}
