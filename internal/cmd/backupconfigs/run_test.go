package backupconfigs

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/output"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const (
	configPathWant = "/groups/" + project + "/backupConfigs/" + cluster
	membersJSON    = `{"clusterId":"5e3c0c2e8f9d4b0012345678","groupId":"5e2b0c2e8f9d4b0012345678","statusName":"STARTED","storageEngineName":"WIRED_TIGER","encryptionEnabled":true,"sslEnabled":true,"authMechanismName":"SCRAM","multiRegionBackupEnabled":true,"multiRegionMisconfigured":true,"excludedNamespaces":["test.a","test.b"],"availableMembers":["db1:27017","db2:27017"],"preferredMember":"db2:27017"}`
	notFound       = `{"detail":"No backup configuration for cluster 5e3c0c2e8f9d4b0012345678 exists in group 5e2b0c2e8f9d4b0012345678.","error":404,"errorCode":"BACKUP_CONFIG_NOT_FOUND","reason":"Not Found"}`
)

func printer(ios *iostreams.IOStreams, format string) func() (*output.Printer, error) {
	return func() (*output.Printer, error) {
		return output.New(ios, output.Options{Format: format, Now: func() time.Time { return time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC) }})
	}
}

func TestDescribeDetailOnTerminal(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", configPathWant+"/availableMembers", 200, membersJSON)
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetNoColor(true)
	err := describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table"), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster, Members: true})
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
		err := describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: printer(ios, tc.format), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster})
		if err != nil || !tc.want(out.String()) {
			t.Errorf("%s tty=%v: err = %v, output\n%s", tc.format, tc.tty, err, out.String())
		}
	}
}

func TestServerErrorsMapToExitCodes(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		code   int
		want   string
	}{
		{404, notFound, cmdutil.ExitNotFound, "404 BACKUP_CONFIG_NOT_FOUND: No backup configuration for cluster"},
		{401, `{"error":401,"errorCode":"NOT_IN_GROUP","reason":"Unauthorized","detail":"no"}`, cmdutil.ExitAuth, "401 NOT_IN_GROUP"},
		{403, `{"error":403,"errorCode":"IP_ADDRESS_NOT_ON_ACCESS_LIST","reason":"Forbidden","detail":"no"}`, cmdutil.ExitAuth, "403 IP_ADDRESS_NOT_ON_ACCESS_LIST"},
		{400, `{"error":400,"errorCode":"SYNC_SOURCE_REQUIRED","reason":"Bad Request","detail":"resync"}`, cmdutil.ExitError, "400 SYNC_SOURCE_REQUIRED: resync"},
		{500, `{"error":500,"reason":"Internal Server Error","detail":"boom"}`, cmdutil.ExitError, "500 INTERNAL_SERVER_ERROR: boom"},
	} {
		srv := stubapi.New(t)
		srv.Reply("GET", configPathWant, tc.status, tc.body)
		ios, _, out, _ := iostreams.Test()
		err := describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table"), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster})
		if err == nil || cmdutil.ExitCode(err) != tc.code || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("describe %d: err = %v, exit %d", tc.status, err, cmdutil.ExitCode(err))
		}
		srv = stubapi.New(t)
		srv.Reply("PATCH", configPathWant, tc.status, tc.body)
		err = assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table"), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster, Regions: []string{"s=a"}, MultiRegion: true})
		if err == nil || cmdutil.ExitCode(err) != tc.code || !strings.Contains(err.Error(), tc.want) || out.Len() != 0 {
			t.Errorf("assign-regions %d: err = %v, output %q", tc.status, err, out.String())
		}
	}
}

func TestAssignRegionsConfirmsOnTerminal(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("PATCH", configPathWant, 200, strings.Replace(assignedJSON, `"multiRegionBackupEnabled":true`, `"multiRegionBackupEnabled":false`, 1))
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetNoColor(true)
	err := assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table"), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster, Regions: []string{" shard0 = us-east ", "shard1=eu-west"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "✓ Cluster " + cluster + ": deployment regions shard0=us-east, shard1=eu-west (multi-region backup disabled)\n"; out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
	// Spaces around the names are trimmed; --multi-region=false is sent as false.
	want := `{"multiRegionBackupEnabled":false,"deploymentConfigs":[{"rsId":"shard0","deploymentId":"us-east"},{"rsId":"shard1","deploymentId":"eu-west"}]}`
	if r := srv.Only(); r.Method != "PATCH" || string(r.Body) != want || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("request = %s %s %v", r.Method, r.Body, r.Header.Get("Content-Type"))
	}
}

// The confirmation comes from the answer: an answer that does not show a
// region assigned (as the server of old answered) is an error, not a ✓.
func TestAssignRegionsAnswerWithoutTheRegionsIsAnError(t *testing.T) {
	for _, answer := range []string{bcJSON, strings.Replace(assignedJSON, `"eu-west"`, `"ap-south"`, 1)} {
		srv := stubapi.New(t)
		srv.Reply("PATCH", configPathWant, 200, answer)
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(true)
		err := assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table"), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster, Regions: []string{"shard1=eu-west"}, MultiRegion: true})
		if err == nil || !strings.Contains(err.Error(), "does not show the region of shard1=eu-west") || cmdutil.ExitCode(err) != cmdutil.ExitError || out.Len() != 0 {
			t.Errorf("err = %v, output %q", err, out.String())
		}
	}
}

func TestAssignRegionsDryRunSendsNothing(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", configPathWant, 200, bcJSON)
	ios, _, out, _ := iostreams.Test()
	err := assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: cmdutil.Deps{IO: ios, Printer: printer(ios, "table"), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster, Regions: []string{"shard0=us-east"}, MultiRegion: true, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := srv.Only(); r.Method != "GET" {
		t.Errorf("sent %s", r.Method)
	}
	for _, want := range []string{"PATCH /groups/" + project + "/backupConfigs/" + cluster, `+  "deploymentConfigs": [`, `+      "rsId": "shard0"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
}

func TestAssignRegionsPipedPrintsTheConfiguration(t *testing.T) {
	for _, tc := range []struct {
		format, want string
	}{
		{"table", cluster + "\tSTARTED\tWIRED_TIGER\tfalse\ttrue\tfalse\t\n"},
		{"json", assignedJSON + "\n"},
	} {
		srv := stubapi.New(t)
		srv.Reply("PATCH", configPathWant, 200, assignedJSON)
		ios, _, out, _ := iostreams.Test()
		err := assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: cmdutil.Deps{Printer: printer(ios, tc.format), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster, Regions: []string{"shard0=us-east"}, MultiRegion: true})
		if err != nil || out.String() != tc.want {
			t.Errorf("%s: err = %v, output %q", tc.format, err, out.String())
		}
		srv.Only()
	}
}

func TestDescribeRefusesBadInputBeforeSending(t *testing.T) {
	for _, o := range []DescribeOptions{
		{ClusterID: "Cluster0"},
		{Deps: cmdutil.Deps{Printer: printer(nil, "xml")}, ClusterID: cluster},
	} {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		if o.Printer == nil {
			o.Printer = printer(ios, "table")
		}
		o.Client, o.ProjectID = srv.Client(), stubapi.Project(project)
		if err := describeRun(context.Background(), &o); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%+v: err = %v", o, err)
		}
	}
}

func TestRunStopsAtTheFirstFailingDependency(t *testing.T) {
	boom := errors.New("no profile")
	noProject := func() (string, error) { return "", boom }
	noClient := func() (*client.Client, error) { return nil, boom }
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	for name, err := range map[string]error{
		"describe without project": describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table"), ProjectID: noProject, Client: srv.Client()}, ClusterID: cluster}),
		"describe without client":  describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table"), ProjectID: stubapi.Project(project), Client: noClient}, ClusterID: cluster}),
		"assign without project":   assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table"), ProjectID: noProject, Client: srv.Client()}, ClusterID: cluster, Regions: []string{"s=a"}}),
		"assign without client":    assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table"), ProjectID: stubapi.Project(project), Client: noClient}, ClusterID: cluster, Regions: []string{"s=a"}}),
	} {
		if !errors.Is(err, boom) {
			t.Errorf("%s: %v", name, err)
		}
	}
	err := assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: cmdutil.Deps{Printer: printer(ios, "xml"), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster, Regions: []string{"s=a"}})
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("assign with a bad format: %v", err)
	}
}
