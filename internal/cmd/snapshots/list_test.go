package snapshots

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/output"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestNewCmdList(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		usage   bool
		warn    bool
		check   func(*ListOptions) bool
	}{
		{args: []string{"--cluster", cluster}, check: func(o *ListOptions) bool {
			lo, err := o.List.ListOptions()
			return o.Source == source{ClusterID: cluster} && err == nil && lo.PageNum == 1 && lo.ItemsPerPage == 100 &&
				!lo.All && lo.BackupJobsEnabledOnly == nil
		}},
		{args: []string{"--host", host, "--all", "--page", "3", "--parallel", "2"}, warn: true, check: func(o *ListOptions) bool {
			lo, err := o.List.ListOptions()
			// --all without --limit asks for the largest pages.
			return o.Source == source{HostID: host} && err == nil && lo.PageNum == 3 && lo.ItemsPerPage == client.MaxItemsPerPage &&
				lo.All && lo.Parallel == 2
		}},
		{args: []string{"--cluster", cluster, "--all", "--limit", "20", "--backup-jobs-enabled-only=false"}, check: func(o *ListOptions) bool {
			lo, err := o.List.ListOptions()
			return err == nil && lo.ItemsPerPage == 20 && lo.BackupJobsEnabledOnly != nil && !*lo.BackupJobsEnabledOnly
		}},
		{args: []string{}, wantErr: "at least one of the flags in the group [cluster host] is required"},
		{args: []string{"--cluster", cluster, "--host", host}, wantErr: "none of the others can be"},
		{args: []string{"--cluster", cluster, cluster}, wantErr: `unknown command "` + cluster + `"`},
		{args: []string{"--cluster", cluster, "--limit", "many"}, wantErr: `invalid argument "many" for "--limit"`},
	} {
		ios, _, stdout, stderr := iostreams.Test()
		var got *ListOptions
		cmd := NewCmdList(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *ListOptions) error { got = o; return nil })
		err := cmdtest.ExecuteToStdout(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			checkErr(t, tt.args, err, tt.wantErr, tt.usage)
			if got != nil {
				t.Errorf("%v: run was called", tt.args)
			}
			continue
		}
		if err != nil || got == nil || !tt.check(got) {
			t.Errorf("%v: %v %+v", tt.args, err, got)
			continue
		}
		if warned := strings.Contains(stderr.String(), "Warning: --host is deprecated: "+hostDeprecation); warned != tt.warn || stdout.Len() != 0 {
			t.Errorf("%v: stderr = %q", tt.args, stderr.String())
		}
	}
}

func listOpts(srv *stubapi.Server, p func() (*output.Printer, error), src source, lf *cmdutil.ListFlags) *ListOptions {
	if lf == nil {
		lf = &cmdutil.ListFlags{Page: 1, Limit: 100}
	}
	return &ListOptions{Deps: cmdutil.Deps{Printer: p, ProjectID: stubapi.Project(project), Client: srv.Client()}, Source: src, List: lf}
}

func TestListOutputPerFormat(t *testing.T) {
	page := `{"results":[` + snapJSON + `,` + hostSnapJSON + `,` + rsSnapJSON + `],"totalCount":3}`
	for _, tc := range []struct {
		format string
		tty    bool
		want   string
	}{
		{"table", true, "" +
			"ID                        COMPLETE  CREATED      EXPIRES     DO NOT DELETE  SOURCE\n" +
			"5f3c0c2e8f9d4b0012345678  true      20 days ago  in 10 days  false          Cluster0\n" +
			"5f3c0c2e8f9d4b0012345679  false                              true           a1b2c3d4e5f60718293a4b5c6d7e8f90\n" +
			"5f3c0c2e8f9d4b001234567a  true                               false          rs0\n"},
		{"table", false, "" +
			"5f3c0c2e8f9d4b0012345678\ttrue\t2026-11-01T00:00:00Z\t2026-12-01T00:00:00Z\tfalse\tCluster0\n" +
			"5f3c0c2e8f9d4b0012345679\tfalse\t\t\ttrue\ta1b2c3d4e5f60718293a4b5c6d7e8f90\n" +
			"5f3c0c2e8f9d4b001234567a\ttrue\t\t\tfalse\trs0\n"},
		// JSON as the server sent it (compact when piped).
		{"json", false, page + "\n"},
		{"jsonl", false, snapJSON + "\n" + hostSnapJSON + "\n" + rsSnapJSON + "\n"},
	} {
		srv := stubapi.New(t)
		srv.Reply("GET", clusterPath, 200, page)
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(tc.tty)
		ios.SetNoColor(true)
		ios.SetTerminalWidth(200)
		err := listRun(context.Background(), listOpts(srv, cmdtest.Printer(ios, tc.format, now), source{ClusterID: cluster}, nil))
		if err != nil {
			t.Fatalf("%s tty=%v: %v", tc.format, tc.tty, err)
		}
		if got := trimLines(out.String()); got != tc.want {
			t.Errorf("%s tty=%v: output\n%s\nwant\n%s", tc.format, tc.tty, got, tc.want)
		}
		q := srv.Only().Query
		if q.Get("pageNum") != "1" || q.Get("itemsPerPage") != "100" || len(q) != 2 {
			t.Errorf("%s: query = %v", tc.format, q)
		}
	}
}

func TestListYAML(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", hostPath, 200, `{"results":[`+hostSnapJSON+`],"totalCount":1}`)
	ios, _, out, _ := iostreams.Test()
	err := listRun(context.Background(), listOpts(srv, cmdtest.Printer(ios, "yaml", now), source{HostID: host}, nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"results:\n", "  - id: 5f3c0c2e8f9d4b0012345679\n", "    doNotDelete: true\n", "      - hostId: " + host + "\n", "totalCount: 1\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("yaml lacks %q:\n%s", want, out.String())
		}
	}
}

func TestListAllFetchesEveryPage(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", clusterPath, 200, `{"results":[`+snapJSON+`],"totalCount":2}`)
	srv.Reply("GET", clusterPath, 200, `{"results":[`+rsSnapJSON+`],"totalCount":2}`)
	ios, _, out, _ := iostreams.Test()
	err := listRun(context.Background(), listOpts(srv, cmdtest.Printer(ios, "json", now), source{ClusterID: cluster},
		&cmdutil.ListFlags{Page: 1, Limit: 1, All: true, Parallel: 1}))
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Query.Get("pageNum") != "1" || reqs[1].Query.Get("pageNum") != "2" || reqs[1].Query.Get("itemsPerPage") != "1" {
		t.Fatalf("requests = %v", reqs)
	}
	if want := `{"results":[` + snapJSON + `,` + rsSnapJSON + `],"totalCount":2}` + "\n"; out.String() != want {
		t.Errorf("merged = %s", out.String())
	}
}

func TestListRefusesBadInputBeforeSending(t *testing.T) {
	for _, tc := range []struct {
		opts *cmdutil.ListFlags
		src  source
		fmt  string
		want string
	}{
		{&cmdutil.ListFlags{Page: 0, Limit: 100}, source{ClusterID: cluster}, "table", "invalid --page 0"},
		{&cmdutil.ListFlags{Page: 1, Limit: 501}, source{ClusterID: cluster}, "table", "invalid --limit 501"},
		{nil, source{ClusterID: "Cluster0"}, "table", `invalid cluster ID "Cluster0"`},
		{nil, source{ClusterID: cluster}, "xml", "invalid output format"},
	} {
		srv := stubapi.New(t)
		ios, _, out, _ := iostreams.Test()
		err := listRun(context.Background(), listOpts(srv, cmdtest.Printer(ios, tc.fmt, now), tc.src, tc.opts))
		if err == nil || !strings.Contains(err.Error(), tc.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage || out.Len() != 0 {
			t.Errorf("%s: err = %v", tc.want, err)
		}
	}
}

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
