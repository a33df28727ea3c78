package snapshots

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
		usage   bool
		warn    bool
		want    DescribeOptions
	}{
		{args: []string{snapshot, "--cluster", cluster}, want: DescribeOptions{SnapshotID: snapshot, Source: source{ClusterID: cluster}}},
		{args: []string{"--host", host, snapshot}, warn: true, want: DescribeOptions{SnapshotID: snapshot, Source: source{HostID: host}}},
		{args: []string{"--cluster", cluster}, wantErr: "missing SNAPSHOT_ID: usage: describe SNAPSHOT_ID", usage: true},
		{args: []string{snapshot, snapshot, "--cluster", cluster}, wantErr: "too many arguments", usage: true},
		{args: []string{snapshot}, wantErr: "at least one of the flags in the group [cluster host] is required"},
		{args: []string{snapshot, "--cluster", cluster, "--host", host}, wantErr: "none of the others can be"},
		{args: []string{snapshot, "--cluster"}, wantErr: "flag needs an argument: --cluster"},
	} {
		ios, _, stdout, stderr := iostreams.Test()
		var got *DescribeOptions
		cmd := NewCmdDescribe(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *DescribeOptions) error { got = o; return nil })
		err := cmdtest.ExecuteToStdout(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			checkErr(t, tt.args, err, tt.wantErr, tt.usage)
			if got != nil {
				t.Errorf("%v: run was called", tt.args)
			}
			continue
		}
		if err != nil || got == nil || got.SnapshotID != tt.want.SnapshotID || got.Source != tt.want.Source {
			t.Errorf("%v: %v %+v", tt.args, err, got)
			continue
		}
		if warned := strings.Contains(stderr.String(), "--host is deprecated"); warned != tt.warn || stdout.Len() != 0 {
			t.Errorf("%v: stderr = %q", tt.args, stderr.String())
		}
	}
}

func TestDescribeDetailOnTerminal(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", clusterPath+"/"+snapshot, 200, fullSnapJSON)
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetNoColor(true)
	err := describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: srv.Client()}, SnapshotID: snapshot, Source: source{ClusterID: cluster}})
	if err != nil {
		t.Fatal(err)
	}
	want := "" +
		"ID:                    5f3c0c2e8f9d4b0012345678\n" +
		"Cluster:               Cluster0 5e3c0c2e8f9d4b0012345678\n" +
		"Complete:              true\n" +
		"Created:               2026-11-01T00:00:00Z (20 days ago)\n" +
		"Expires:               2026-12-01T00:00:00Z (in 10 days)\n" +
		"Do not delete:         false\n" +
		"Last oplog applied:    2026-11-20T00:00:00Z (1 day ago)\n" +
		"Possibly inconsistent: false\n" +
		"Missing shards:        1\n" +
		"Namespaces:            include: db.a, db.b\n" +
		"Part 1:                REPLICA_SET shard0 PRIMARY\n" +
		"                       data 1.5 GiB, storage 2.0 KiB, file 512 B\n" +
		"                       version 7.0.2 fcv 7.0\n" +
		"                       completed 2026-11-01T00:05:00Z\n" +
		"Part 2:                CONFIG_SERVER h1\n"
	if out.String() != want {
		t.Errorf("detail view\n%s\nwant\n%s", out.String(), want)
	}
}

func TestDescribeOtherFormats(t *testing.T) {
	for _, tc := range []struct {
		format string
		src    source
		path   string
		want   func(string) bool
	}{
		{"json", source{HostID: host}, hostPath + "/" + snapshot, func(s string) bool { return s == snapJSON+"\n" }},
		{"yaml", source{ClusterID: cluster}, clusterPath + "/" + snapshot, func(s string) bool {
			return strings.HasPrefix(s, "id: "+snapshot+"\n") && strings.Contains(s, "created:\n  date: \"2026-11-01T00:00:00Z\"\n  increment: 1\n")
		}},
		// Piped, a table is one TSV row.
		{"table", source{ClusterID: cluster}, clusterPath + "/" + snapshot, func(s string) bool {
			return s == snapshot+"\ttrue\t2026-11-01T00:00:00Z\t2026-12-01T00:00:00Z\tfalse\tCluster0\n"
		}},
	} {
		srv := stubapi.New(t)
		srv.Reply("GET", tc.path, 200, snapJSON)
		ios, _, out, _ := iostreams.Test()
		err := describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, tc.format, now), ProjectID: stubapi.Project(project), Client: srv.Client()}, SnapshotID: snapshot, Source: tc.src})
		if err != nil || !tc.want(out.String()) {
			t.Errorf("%s: err = %v, output\n%s", tc.format, err, out.String())
		}
	}
}

func TestDescribeRefusesBadInputBeforeSending(t *testing.T) {
	for _, o := range []DescribeOptions{
		{SnapshotID: "latest", Source: source{ClusterID: cluster}},
		{SnapshotID: snapshot},
		{SnapshotID: snapshot, Source: source{ClusterID: cluster, HostID: host}},
		{SnapshotID: snapshot, Source: source{ClusterID: "c0"}},
	} {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		o.Client, o.Printer, o.ProjectID = srv.Client(), cmdtest.Printer(ios, "table", now), stubapi.Project(project)
		if err := describeRun(context.Background(), &o); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%+v: err = %v", o, err)
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
