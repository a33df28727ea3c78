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
	"github.com/omctl/omctl/internal/output"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

var now = time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)

const (
	clusterPath = "/groups/" + project + "/clusters/" + cluster + "/snapshots"
	hostPath    = "/groups/" + project + "/hosts/" + host + "/snapshots"
	// A config-server snapshot: no cluster name, the source is its part's host.
	hostSnapJSON = `{"id":"5f3c0c2e8f9d4b0012345679","groupId":"5e2b0c2e8f9d4b0012345678","complete":false,"doNotDelete":true,"parts":[{"hostId":"a1b2c3d4e5f60718293a4b5c6d7e8f90","typeName":"CONFIG_SERVER"}]}`
	// A replica set part without a host ID: the source is the replica set.
	rsSnapJSON = `{"id":"5f3c0c2e8f9d4b001234567a","groupId":"5e2b0c2e8f9d4b0012345678","complete":true,"doNotDelete":false,"parts":[{"replicaSetName":"rs0","typeName":"REPLICA_SET"}]}`
	notFound   = `{"detail":"No snapshot with ID 5f3c0c2e8f9d4b0012345678 exists.","error":404,"errorCode":"SNAPSHOT_NOT_FOUND","reason":"Not Found"}`
)

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
		err := listRun(context.Background(), listOpts(srv, printer(ios, tc.format, now), source{ClusterID: cluster}, nil))
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

// trimLines drops the padding a table leaves at the end of lines.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

func TestListYAML(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", hostPath, 200, `{"results":[`+hostSnapJSON+`],"totalCount":1}`)
	ios, _, out, _ := iostreams.Test()
	err := listRun(context.Background(), listOpts(srv, printer(ios, "yaml", now), source{HostID: host}, nil))
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
	err := listRun(context.Background(), listOpts(srv, printer(ios, "json", now), source{ClusterID: cluster},
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
		err := listRun(context.Background(), listOpts(srv, printer(ios, tc.fmt, now), tc.src, tc.opts))
		if err == nil || !strings.Contains(err.Error(), tc.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage || out.Len() != 0 {
			t.Errorf("%s: err = %v", tc.want, err)
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
		{404, notFound, cmdutil.ExitNotFound, "404 SNAPSHOT_NOT_FOUND: No snapshot with ID"},
		{401, `{"error":401,"errorCode":"USER_UNAUTHORIZED","reason":"Unauthorized","detail":"no"}`, cmdutil.ExitAuth, "401 USER_UNAUTHORIZED"},
		{403, `{"error":403,"errorCode":"IP_ADDRESS_NOT_ON_ACCESS_LIST","reason":"Forbidden","detail":"no"}`, cmdutil.ExitAuth, "403 IP_ADDRESS_NOT_ON_ACCESS_LIST"},
		{500, `{"error":500,"reason":"Internal Server Error","detail":"boom"}`, cmdutil.ExitError, "500 INTERNAL_SERVER_ERROR: boom"},
	} {
		// list
		srv := stubapi.New(t)
		srv.Reply("GET", clusterPath, tc.status, tc.body)
		ios, _, _, _ := iostreams.Test()
		err := listRun(context.Background(), listOpts(srv, printer(ios, "json", now), source{ClusterID: cluster}, nil))
		if cmdutil.ExitCode(err) != tc.code || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("list %d: err = %v, exit %d", tc.status, err, cmdutil.ExitCode(err))
		}
		// describe
		srv = stubapi.New(t)
		srv.Reply("GET", clusterPath+"/"+snapshot, tc.status, tc.body)
		err = describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: srv.Client()}, SnapshotID: snapshot, Source: source{ClusterID: cluster}})
		if cmdutil.ExitCode(err) != tc.code || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("describe %d: err = %v", tc.status, err)
		}
		// expire
		srv = stubapi.New(t)
		srv.Reply("PATCH", clusterPath+"/"+snapshot, tc.status, tc.body)
		err = expireRun(context.Background(), &ExpireOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: srv.Client()}, Now: func() time.Time { return now }, SnapshotID: snapshot, ClusterID: cluster, DoNotDelete: true})
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

func TestDescribeDetailOnTerminal(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", clusterPath+"/"+snapshot, 200, fullSnapJSON)
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetNoColor(true)
	err := describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: srv.Client()}, SnapshotID: snapshot, Source: source{ClusterID: cluster}})
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
		err := describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: printer(ios, tc.format, now), ProjectID: stubapi.Project(project), Client: srv.Client()}, SnapshotID: snapshot, Source: tc.src})
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
		o.Client, o.Printer, o.ProjectID = srv.Client(), printer(ios, "table", now), stubapi.Project(project)
		if err := describeRun(context.Background(), &o); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%+v: err = %v", o, err)
		}
	}
}

func TestRunStopsAtTheFirstFailingDependency(t *testing.T) {
	boom := errors.New("no profile")
	fail := func() (string, error) { return "", boom }
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	if err := listRun(context.Background(), &ListOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table", now), ProjectID: fail, Client: srv.Client()}, Source: source{ClusterID: cluster}, List: &cmdutil.ListFlags{Page: 1, Limit: 100}}); !errors.Is(err, boom) {
		t.Errorf("list: %v", err)
	}
	if err := describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table", now), ProjectID: fail, Client: srv.Client()}, SnapshotID: snapshot, Source: source{ClusterID: cluster}}); !errors.Is(err, boom) {
		t.Errorf("describe: %v", err)
	}
	if err := expireRun(context.Background(), &ExpireOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table", now), ProjectID: fail, Client: srv.Client()}, Now: func() time.Time { return now }, SnapshotID: snapshot, ClusterID: cluster, DoNotDelete: true}); !errors.Is(err, boom) {
		t.Errorf("expire: %v", err)
	}
	noClient := func() (*client.Client, error) { return nil, boom }
	if err := describeRun(context.Background(), &DescribeOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: noClient}, SnapshotID: snapshot, Source: source{ClusterID: cluster}}); !errors.Is(err, boom) {
		t.Errorf("describe without client: %v", err)
	}
	if err := listRun(context.Background(), &ListOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: noClient}, Source: source{ClusterID: cluster}, List: &cmdutil.ListFlags{Page: 1, Limit: 100}}); !errors.Is(err, boom) {
		t.Errorf("list without client: %v", err)
	}
	if err := expireRun(context.Background(), &ExpireOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: noClient}, Now: func() time.Time { return now }, SnapshotID: snapshot, ClusterID: cluster, DoNotDelete: true}); !errors.Is(err, boom) {
		t.Errorf("expire without client: %v", err)
	}
	if err := expireRun(context.Background(), &ExpireOptions{Deps: cmdutil.Deps{Printer: printer(ios, "xml", now), ProjectID: stubapi.Project(project), Client: noClient}, Now: func() time.Time { return now }, SnapshotID: snapshot, ClusterID: cluster, DoNotDelete: true}); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("expire with a bad format: %v", err)
	}
}

func TestExpireConfirmations(t *testing.T) {
	for _, tc := range []struct {
		answer string
		want   string
	}{
		{snapJSON, "✓ Snapshot " + snapshot + " expires at 2026-12-01T00:00:00Z\n"},
		// The same instant written with an offset is the change asked for.
		{strings.Replace(snapJSON, `"2026-12-01T00:00:00Z"`, `"2026-12-01T01:00:00+01:00"`, 1), "✓ Snapshot " + snapshot + " expires at 2026-12-01T01:00:00+01:00\n"},
	} {
		srv := stubapi.New(t)
		srv.Reply("PATCH", clusterPath+"/"+snapshot, 200, tc.answer)
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(true)
		ios.SetNoColor(true)
		err := expireRun(context.Background(), &ExpireOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: srv.Client()}, Now: func() time.Time { return now },
			SnapshotID: snapshot, ClusterID: cluster, Expires: "2026-12-01T00:00:00Z"})
		if err != nil || out.String() != tc.want {
			t.Errorf("err = %v, output %q, want %q", err, out.String(), tc.want)
		}
		if req := srv.Only(); req.Method != "PATCH" || string(req.Body) != `{"doNotDelete":false,"expires":"2026-12-01T00:00:00Z"}` {
			t.Errorf("request = %s %s", req.Method, req.Body)
		}
	}
}

func TestExpireScriptsGetTheSnapshot(t *testing.T) {
	for _, tc := range []struct {
		format string
		want   string
	}{
		{"json", snapJSON + "\n"},
		{"table", snapshot + "\ttrue\t2026-11-01T00:00:00Z\t2026-12-01T00:00:00Z\tfalse\tCluster0\n"},
	} {
		srv := stubapi.New(t)
		srv.Reply("PATCH", clusterPath+"/"+snapshot, 200, snapJSON)
		ios, _, out, _ := iostreams.Test()
		// An offset is sent in UTC, whole seconds.
		err := expireRun(context.Background(), &ExpireOptions{Deps: cmdutil.Deps{Printer: printer(ios, tc.format, now), ProjectID: stubapi.Project(project), Client: srv.Client()}, Now: func() time.Time { return now },
			SnapshotID: snapshot, ClusterID: cluster, Expires: "2026-12-01T02:00:00+02:00"})
		if err != nil || out.String() != tc.want {
			t.Errorf("%s: err = %v, output %q", tc.format, err, out.String())
		}
		if got := srv.Only().JSON(t)["expires"]; got != "2026-12-01T00:00:00Z" {
			t.Errorf("expires = %v", got)
		}
	}
}

func TestExpireRefusesAnAnswerThatIsNotASnapshot(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("PATCH", clusterPath+"/"+snapshot, 200, `["not","a","snapshot"]`)
	ios, _, out, _ := iostreams.Test()
	err := expireRun(context.Background(), &ExpireOptions{Deps: cmdutil.Deps{Printer: printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: srv.Client()}, Now: func() time.Time { return now }, SnapshotID: snapshot, ClusterID: cluster, DoNotDelete: true})
	if err == nil || !strings.Contains(err.Error(), "not a snapshot") || cmdutil.ExitCode(err) != cmdutil.ExitError || out.Len() != 0 {
		t.Errorf("err = %v, output %q", err, out.String())
	}
}

func TestExpireRefusesBadIDs(t *testing.T) {
	for _, o := range []ExpireOptions{
		{SnapshotID: "s1", ClusterID: cluster, DoNotDelete: true},
		{SnapshotID: snapshot, ClusterID: "Cluster0", DoNotDelete: true},
	} {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		o.Client, o.Printer, o.ProjectID, o.Now = srv.Client(), printer(ios, "table", now), stubapi.Project(project), func() time.Time { return now }
		err := expireRun(context.Background(), &o)
		if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "24 hexadecimal digits") {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

func TestHumanBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB", 1 << 20: "1.0 MiB", 5 << 40: "5.0 TiB"} {
		if got := humanBytes(n); got != want {
			t.Errorf("humanBytes(%d) = %q, want %q", n, got, want)
		}
	}
}
