package backupconfigs

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestDescribeWithAndWithoutMembers(t *testing.T) {
	for _, members := range []bool{false, true} {
		srv := stubapi.New(t)
		path := "/groups/" + project + "/backupConfigs/" + cluster
		if members {
			path += "/availableMembers"
		}
		srv.Reply("GET", path, 200, bcJSON)
		ios, _, out, _ := iostreams.Test()
		err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "table", project), ClusterID: cluster, Members: members})
		if err != nil {
			t.Fatalf("members=%v: %v", members, err)
		}
		if want := cluster + "\tSTARTED\tWIRED_TIGER\tfalse\ttrue\tfalse\tdb1:27017,db2:27017\n"; out.String() != want {
			t.Errorf("output = %q", out.String())
		}
	}
}

func TestNewCmdDescribe(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		want    DescribeOptions
	}{
		{args: []string{cluster}, want: DescribeOptions{ClusterID: cluster}},
		{args: []string{"--members", cluster}, want: DescribeOptions{ClusterID: cluster, Members: true}},
		{args: []string{cluster, "--members=false"}, want: DescribeOptions{ClusterID: cluster}},
		{args: []string{}, wantErr: "missing CLUSTER_ID: usage: describe CLUSTER_ID [--members]"},
		{args: []string{cluster, cluster}, wantErr: "too many arguments"},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *DescribeOptions
		cmd := NewCmdDescribe(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *DescribeOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			var fe *cmdutil.FlagError
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &fe) || cmdutil.ExitCode(err) != cmdutil.ExitUsage || got != nil {
				t.Errorf("%v: error %v, want usage error %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || got.ClusterID != tt.want.ClusterID || got.Members != tt.want.Members {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
}

func TestDescribeDetailOnTerminal(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", configPathWant+"/availableMembers", 200, membersJSON)
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetNoColor(true)
	err := describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster, Members: true})
	if err != nil {
		t.Fatal(err)
	}
	// Fields without a value (included namespaces) are left out; members
	// are one a line.
	want := "" +
		"Cluster:             5e3c0c2e8f9d4b0012345678\n" +
		"Project:             5e2b0c2e8f9d4b0012345678\n" +
		"Status:              STARTED\n" +
		"Storage engine:      WIRED_TIGER\n" +
		"Encrypted:           true\n" +
		"TLS:                 true\n" +
		"Auth mechanism:      SCRAM\n" +
		"Multi-region:        true\n" +
		"Misconfigured:       true\n" +
		"Excluded namespaces: test.a\n" +
		"                     test.b\n" +
		"Preferred member:    db2:27017\n" +
		"Available members:   db1:27017\n" +
		"                     db2:27017\n"
	if out.String() != want {
		t.Errorf("detail view\n%s\nwant\n%s", out.String(), want)
	}
	if r := srv.Only(); r.Method != "GET" || len(r.Query) != 0 || len(r.Body) != 0 {
		t.Errorf("request = %+v", r)
	}
}

func TestDescribeOtherFormats(t *testing.T) {
	for _, tc := range []struct {
		format string
		tty    bool
		want   func(string) bool
	}{
		{"json", false, func(s string) bool { return s == bcJSON+"\n" }},
		// Indented on a terminal.
		{"json", true, func(s string) bool { return strings.HasPrefix(s, "{\n  \"clusterId\": \""+cluster+"\",\n") }},
		{"yaml", false, func(s string) bool {
			return strings.HasPrefix(s, "clusterId: "+cluster+"\n") && strings.Contains(s, "availableMembers:\n  - db1:27017\n  - db2:27017\n")
		}},
		{"jsonl", false, func(s string) bool { return s == bcJSON+"\n" }},
	} {
		srv := stubapi.New(t)
		srv.Reply("GET", configPathWant, 200, bcJSON)
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(tc.tty)
		err := describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, tc.format, now), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster})
		if err != nil || !tc.want(out.String()) {
			t.Errorf("%s tty=%v: err = %v, output\n%s", tc.format, tc.tty, err, out.String())
		}
	}
}

func TestDescribeRefusesBadInputBeforeSending(t *testing.T) {
	for _, o := range []DescribeOptions{
		{ClusterID: "Cluster0"},
		{Deps: cmdutil.Deps{Printer: cmdtest.Printer(nil, "xml", now)}, ClusterID: cluster},
	} {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		if o.Printer == nil {
			o.Printer = cmdtest.Printer(ios, "table", now)
		}
		o.Client, o.ProjectID = srv.Client(), stubapi.Project(project)
		if err := describeRun(context.Background(), &o); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%+v: err = %v", o, err)
		}
	}
}
