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
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

// now is the printers' clock in these tests, so relative times are stable.
var now = time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)

const (
	project = "5e2b0c2e8f9d4b0012345678"
	cluster = "5e3c0c2e8f9d4b0012345678"
	// assignedJSON answers an assignment of shard0 and shard1.
	assignedJSON = `{"clusterId":"5e3c0c2e8f9d4b0012345678","groupId":"5e2b0c2e8f9d4b0012345678","statusName":"STARTED","storageEngineName":"WIRED_TIGER","encryptionEnabled":false,"sslEnabled":true,"multiRegionBackupEnabled":true,"multiRegionMisconfigured":false,"deploymentConfigs":[{"rsId":"shard0","deploymentId":"us-east"},{"rsId":"shard1","deploymentId":"eu-west"}]}`
	bcJSON       = `{"clusterId":"5e3c0c2e8f9d4b0012345678","groupId":"5e2b0c2e8f9d4b0012345678","statusName":"STARTED","storageEngineName":"WIRED_TIGER","encryptionEnabled":false,"sslEnabled":true,"multiRegionBackupEnabled":true,"multiRegionMisconfigured":false,"availableMembers":["db1:27017","db2:27017"]}`
)

func TestBackupConfigsGroup(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdBackupConfigs(&cmdutil.Factory{IOStreams: ios})
	names := cmdtest.Subcommands(cmd)
	if strings.Join(names, ",") != "assign-regions,describe,list" {
		t.Errorf("subcommands = %v", names)
	}
	if err := cmdtest.ExecuteToStdout(cmd, ios, "show"); cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), `unknown command "show"`) {
		t.Errorf("unknown subcommand: %v", err)
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
		err := describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster})
		if err == nil || cmdutil.ExitCode(err) != tc.code || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("describe %d: err = %v, exit %d", tc.status, err, cmdutil.ExitCode(err))
		}
		srv = stubapi.New(t)
		srv.Reply("PATCH", configPathWant, tc.status, tc.body)
		err = assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster, Regions: []string{"s=a"}, MultiRegion: true})
		if err == nil || cmdutil.ExitCode(err) != tc.code || !strings.Contains(err.Error(), tc.want) || out.Len() != 0 {
			t.Errorf("assign-regions %d: err = %v, output %q", tc.status, err, out.String())
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
		"describe without project": describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: noProject, Client: srv.Client()}, ClusterID: cluster}),
		"describe without client":  describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: noClient}, ClusterID: cluster}),
		"assign without project":   assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: noProject, Client: srv.Client()}, ClusterID: cluster, Regions: []string{"s=a"}}),
		"assign without client":    assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: noClient}, ClusterID: cluster, Regions: []string{"s=a"}}),
	} {
		if !errors.Is(err, boom) {
			t.Errorf("%s: %v", name, err)
		}
	}
	err := assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "xml", now), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster, Regions: []string{"s=a"}})
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("assign with a bad format: %v", err)
	}
}

const (
	configPathWant = "/groups/" + project + "/backupConfigs/" + cluster
	membersJSON    = `{"clusterId":"5e3c0c2e8f9d4b0012345678","groupId":"5e2b0c2e8f9d4b0012345678","statusName":"STARTED","storageEngineName":"WIRED_TIGER","encryptionEnabled":true,"sslEnabled":true,"authMechanismName":"SCRAM","multiRegionBackupEnabled":true,"multiRegionMisconfigured":true,"excludedNamespaces":["test.a","test.b"],"availableMembers":["db1:27017","db2:27017"],"preferredMember":"db2:27017"}`
	notFound       = `{"detail":"No backup configuration for cluster 5e3c0c2e8f9d4b0012345678 exists in group 5e2b0c2e8f9d4b0012345678.","error":404,"errorCode":"BACKUP_CONFIG_NOT_FOUND","reason":"Not Found"}`
)
