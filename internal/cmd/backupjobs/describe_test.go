package backupjobs

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/output"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const project = "5e2b0c2e8f9d4b0012345678"

func TestDescribeUsesArgumentOrDefaultProject(t *testing.T) {
	other := "5e2b0c2e8f9d4b00123456ff"
	for _, tc := range []struct{ arg, path string }{{"", project}, {other, other}} {
		srv := stubapi.New(t)
		srv.Reply("GET", "/admin/backup/groups/"+tc.path, 200, `{"id":"`+tc.path+`","labelFilter":["l1"],"oplogStoreFilter":[{"id":"oplog-1","type":"oplogStore"}],"daemonFilter":[{"machine":"d1","headRootDirectory":"/h"}]}`)
		ios, _, out, _ := iostreams.Test()
		err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "table", project), Project: tc.arg})
		if err != nil {
			t.Fatal(err)
		}
		if want := tc.path + "\tl1\toplog-1\t\t\td1\n"; out.String() != want {
			t.Errorf("output = %q, want %q", out.String(), want)
		}
	}
}

func TestDescribeAbsentConfigIsNotFound(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/groups/"+project, 404, `{"detail":"No backup jobs configuration for project.","error":404,"errorCode":"RESOURCE_NOT_FOUND","reason":"Not Found"}`)
	ios, _, _, _ := iostreams.Test()
	err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "table", project)})
	if cmdutil.ExitCode(err) != cmdutil.ExitNotFound {
		t.Fatalf("err = %v", err)
	}
}

func TestNewCmdDescribe(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		project string
	}{
		{[]string{}, "", ""},
		{[]string{project}, "", project},
		{[]string{project, project}, "PROJECT_ID", ""},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *DescribeOptions
		cmd := NewCmdDescribe(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *DescribeOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || got.Project != tt.project || got.Client == nil || got.Printer == nil || got.ProjectID == nil {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
}

func TestBackupJobsGroupHasDescribeAndUpdate(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdBackupJobs(&cmdutil.Factory{IOStreams: ios})
	for _, name := range []string{"describe", "update"} {
		sub, rest, err := cmd.Find([]string{name})
		if err != nil || len(rest) != 0 || sub.Name() != name {
			t.Errorf("%s: %v %v %v", name, sub, rest, err)
		}
	}
}

func TestDescribeRefusesABadProjectIDBeforeSending(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	noRequest := func() (*client.Client, error) {
		t.Error("a client was asked for")
		return nil, errors.New("no client")
	}
	err := describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: stubapi.Printer(ios, "table", ""), Client: noRequest}, Project: "123"})
	var fe *cmdutil.FlagError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), `invalid project ID "123"`) {
		t.Errorf("err = %v", err)
	}
}

func TestDescribeStopsAtTheFirstMissingDependency(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	noProject, noPrinter, noClient := errors.New("no project"), errors.New("no printer"), errors.New("no client")
	for _, tt := range []struct {
		opts DescribeOptions
		want error
	}{
		{DescribeOptions{Deps: cmdutil.Deps{ProjectID: func() (string, error) { return "", noProject }}}, noProject},
		{DescribeOptions{Deps: cmdutil.Deps{Printer: func() (*output.Printer, error) { return nil, noPrinter }, ProjectID: stubapi.Project(project)}}, noPrinter},
		{DescribeOptions{Deps: cmdutil.Deps{Printer: stubapi.Printer(ios, "table", ""), ProjectID: stubapi.Project(project), Client: func() (*client.Client, error) { return nil, noClient }}}, noClient},
	} {
		if err := describeRun(context.Background(), &tt.opts); !errors.Is(err, tt.want) {
			t.Errorf("err = %v, want %v", err, tt.want)
		}
	}
}

func TestDescribeOutputPerFormat(t *testing.T) {
	const body = `{"id":"` + project + `","labelFilter":["us","eu"],"oplogStoreFilter":[{"id":"oplog-1","type":"oplogStore"}],` +
		`"snapshotStoreFilter":[{"id":"b1","type":"blockstore"},{"id":"s3-1","type":"s3blockstore"}],"syncStoreFilter":["sync-1"],` +
		`"daemonFilter":[{"machine":"d1","headRootDirectory":"/h"},{"machine":"d2"}],"kmipClientCertPath":"/certs/kmip.pem"}`
	for _, tt := range []struct {
		format string
		tty    bool
		check  func(string) bool
	}{
		{"table", false, func(s string) bool { return s == project+"\tus,eu\toplog-1\tb1,s3-1\tsync-1\td1,d2\n" }},
		{"table", true, func(s string) bool {
			return strings.Contains(s, "Project") && strings.Contains(s, project) && strings.Contains(s, "us\n") && strings.Contains(s, " eu\n") &&
				strings.Contains(s, "d1 /h") && strings.Contains(s, "d2") && strings.Contains(s, "/certs/kmip.pem")
		}},
		{"json", false, func(s string) bool {
			return strings.Contains(s, `"kmipClientCertPath"`) && strings.Contains(s, `"s3blockstore"`)
		}},
	} {
		srv := stubapi.New(t)
		srv.Reply("GET", "/admin/backup/groups/"+project, 200, body)
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(tt.tty)
		err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, tt.format, project)})
		if err != nil || !tt.check(out.String()) {
			t.Errorf("%s tty=%v: %v\n%s", tt.format, tt.tty, err, out.String())
		}
	}
}

func TestDescribeServerErrorKeepsItsExitCode(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/groups/"+project, 403, `{"detail":"Needs GLOBAL_OWNER.","error":403,"errorCode":"USER_CANNOT_ACCESS","reason":"Forbidden"}`)
	ios, _, out, _ := iostreams.Test()
	err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "table", project)})
	if cmdutil.ExitCode(err) != cmdutil.ExitAuth || out.Len() != 0 {
		t.Errorf("403: %v (exit %d), output %q", err, cmdutil.ExitCode(err), out.String())
	}
}

// At a terminal the KMIP certificate's password is masked, as a diff
// masks it, in the detail view and with -o yaml; -o json shows it as the
// server sent it.
func TestDescribeAtATerminalMasksTheKMIPPassword(t *testing.T) {
	body := `{"id":"` + project + `","kmipClientCertPath":"/certs/kmip.pem","kmipClientCertPassword":"kmip-secret!"}`
	for format, want := range map[string]string{"table": "KMIP password:    ********", "yaml": "kmipClientCertPassword: '********'", "json": `"kmipClientCertPassword": "kmip-secret!"`} {
		srv := stubapi.New(t)
		srv.Reply("GET", "/admin/backup/groups/"+project, 200, body)
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(true)
		err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, format, project)})
		if err != nil || !strings.Contains(out.String(), want) || (format != "json" && strings.Contains(out.String(), "kmip-secret!")) {
			t.Errorf("-o %s: err %v, output:\n%s\nwant %q", format, err, out.String(), want)
		}
	}
}
