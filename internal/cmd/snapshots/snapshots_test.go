package snapshots

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

const (
	project  = "5e2b0c2e8f9d4b0012345678"
	cluster  = "5e3c0c2e8f9d4b0012345678"
	snapshot = "5f3c0c2e8f9d4b0012345678"
	snapJSON = `{"id":"5f3c0c2e8f9d4b0012345678","groupId":"5e2b0c2e8f9d4b0012345678","clusterId":"5e3c0c2e8f9d4b0012345678","clusterName":"Cluster0","complete":true,"created":{"date":"2026-11-01T00:00:00Z","increment":1},"doNotDelete":false,"expires":"2026-12-01T00:00:00Z"}`
)

const host = "a1b2c3d4e5f60718293a4b5c6d7e8f90"

// checkErr says whether err is the error wanted: a usage error (exit 2)
// when usage is set (cobra's own flag-group errors become usage errors
// only in root, which TestUsageErrorsExitTwo covers), containing want.
func checkErr(t *testing.T, args []string, err error, want string, usage bool) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%v: error %v, want %q", args, err, want)
		return
	}
	var fe *cmdutil.FlagError
	if usage && (!errors.As(err, &fe) || cmdutil.ExitCode(err) != cmdutil.ExitUsage) {
		t.Errorf("%v: %T %v is not a usage error", args, err, err)
	}
}

func TestSnapshotsGroup(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdSnapshots(&cmdutil.Factory{IOStreams: ios})
	names := cmdtest.Subcommands(cmd)
	if strings.Join(names, ",") != "describe,expire,list" {
		t.Errorf("subcommands = %v", names)
	}
	err := cmdtest.ExecuteToStdout(cmd, ios, "lst")
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "did you mean list?") {
		t.Errorf("unknown subcommand: %v", err)
	}
}

var now = time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)

// trimLines drops the padding a table leaves at the end of lines.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

func TestServerErrorsMapToExitCodes(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		code   int
		want   string
	}{
		{404, notFound, cmdutil.ExitNotFound, "404 SNAPSHOT_NOT_FOUND: No snapshot with ID"},
		{401, `{"error":401,"errorCode":"USER_UNAUTHORIZED","reason":"Unauthorized","detail":"no"}`, cmdutil.ExitAuth, "401 USER_UNAUTHORIZED"},
		{403, `{"error":403,"errorCode":"IP_ADDRESS_NOT_ON_ACCESS_LIST","reason":"Forbidden","detail":"no"}`, cmdutil.ExitAuth, "403 IP_ADDRESS_NOT_ON_ACCESS_LIST"},
		{500, `{"error":500,"reason":"Internal Server Error","detail":"boom"}`, cmdutil.ExitError, "500 INTERNAL_SERVER_ERROR: boom"},
	} {
		// list
		srv := stubapi.New(t)
		srv.Reply("GET", clusterPath, tc.status, tc.body)
		ios, _, _, _ := iostreams.Test()
		err := listRun(context.Background(), listOpts(srv, cmdtest.Printer(ios, "json", now), source{ClusterID: cluster}, nil))
		if cmdutil.ExitCode(err) != tc.code || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("list %d: err = %v, exit %d", tc.status, err, cmdutil.ExitCode(err))
		}
		// describe
		srv = stubapi.New(t)
		srv.Reply("GET", clusterPath+"/"+snapshot, tc.status, tc.body)
		err = describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: srv.Client()}, SnapshotID: snapshot, Source: source{ClusterID: cluster}})
		if cmdutil.ExitCode(err) != tc.code || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("describe %d: err = %v", tc.status, err)
		}
		// expire
		srv = stubapi.New(t)
		srv.Reply("PATCH", clusterPath+"/"+snapshot, tc.status, tc.body)
		err = expireRun(context.Background(), &ExpireOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: srv.Client()}, Now: func() time.Time { return now }, SnapshotID: snapshot, ClusterID: cluster, DoNotDelete: true})
		if cmdutil.ExitCode(err) != tc.code || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("expire %d: err = %v", tc.status, err)
		}
	}
}

const fullSnapJSON = `{"id":"5f3c0c2e8f9d4b0012345678","groupId":"5e2b0c2e8f9d4b0012345678","clusterId":"5e3c0c2e8f9d4b0012345678","clusterName":"Cluster0",` +
	`"complete":true,"created":{"date":"2026-11-01T00:00:00Z","increment":1},"doNotDelete":false,"expires":"2026-12-01T00:00:00Z",` +
	`"isPossiblyInconsistent":false,"lastOplogAppliedTimestamp":{"date":"2026-11-20T00:00:00Z","increment":3},` +
	`"missingShards":[{"id":"s2"}],"namespaceFilterList":{"filterList":["db.a","db.b"],"filterType":"INCLUDE"},` +
	`"parts":[{"replicaSetName":"shard0","typeName":"REPLICA_SET","replicaState":"PRIMARY","dataSizeBytes":1610612736,"storageSizeBytes":2048,"fileSizeBytes":512,"mongodVersion":"7.0.2","fcv":"7.0","completedTime":"2026-11-01T00:05:00Z"},` +
	`{"hostId":"h1","typeName":"CONFIG_SERVER"}]}`

func TestRunStopsAtTheFirstFailingDependency(t *testing.T) {
	boom := errors.New("no profile")
	fail := func() (string, error) { return "", boom }
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	if err := listRun(context.Background(), &ListOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: fail, Client: srv.Client()}, Source: source{ClusterID: cluster}, List: &cmdutil.ListFlags{Page: 1, Limit: 100}}); !errors.Is(err, boom) {
		t.Errorf("list: %v", err)
	}
	if err := describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: fail, Client: srv.Client()}, SnapshotID: snapshot, Source: source{ClusterID: cluster}}); !errors.Is(err, boom) {
		t.Errorf("describe: %v", err)
	}
	if err := expireRun(context.Background(), &ExpireOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: fail, Client: srv.Client()}, Now: func() time.Time { return now }, SnapshotID: snapshot, ClusterID: cluster, DoNotDelete: true}); !errors.Is(err, boom) {
		t.Errorf("expire: %v", err)
	}
	noClient := func() (*client.Client, error) { return nil, boom }
	if err := describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: noClient}, SnapshotID: snapshot, Source: source{ClusterID: cluster}}); !errors.Is(err, boom) {
		t.Errorf("describe without client: %v", err)
	}
	if err := listRun(context.Background(), &ListOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: noClient}, Source: source{ClusterID: cluster}, List: &cmdutil.ListFlags{Page: 1, Limit: 100}}); !errors.Is(err, boom) {
		t.Errorf("list without client: %v", err)
	}
	if err := expireRun(context.Background(), &ExpireOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: noClient}, Now: func() time.Time { return now }, SnapshotID: snapshot, ClusterID: cluster, DoNotDelete: true}); !errors.Is(err, boom) {
		t.Errorf("expire without client: %v", err)
	}
	if err := expireRun(context.Background(), &ExpireOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "xml", now), ProjectID: stubapi.Project(project), Client: noClient}, Now: func() time.Time { return now }, SnapshotID: snapshot, ClusterID: cluster, DoNotDelete: true}); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("expire with a bad format: %v", err)
	}
}

const (
	clusterPath = "/groups/" + project + "/clusters/" + cluster + "/snapshots"
	hostPath    = "/groups/" + project + "/hosts/" + host + "/snapshots"
	// A config-server snapshot: no cluster name, the source is its part's host.
	hostSnapJSON = `{"id":"5f3c0c2e8f9d4b0012345679","groupId":"5e2b0c2e8f9d4b0012345678","complete":false,"doNotDelete":true,"parts":[{"hostId":"a1b2c3d4e5f60718293a4b5c6d7e8f90","typeName":"CONFIG_SERVER"}]}`
	// A replica set part without a host ID: the source is the replica set.
	rsSnapJSON = `{"id":"5f3c0c2e8f9d4b001234567a","groupId":"5e2b0c2e8f9d4b0012345678","complete":true,"doNotDelete":false,"parts":[{"replicaSetName":"rs0","typeName":"REPLICA_SET"}]}`
	notFound   = `{"detail":"No snapshot with ID 5f3c0c2e8f9d4b0012345678 exists.","error":404,"errorCode":"SNAPSHOT_NOT_FOUND","reason":"Not Found"}`
)
