package snapshots

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestNewCmdExpire(t *testing.T) {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		args    []string
		wantErr string
		usage   bool
		want    ExpireOptions
	}{
		{args: []string{snapshot, "--cluster", cluster, "--expires", "30d"}, want: ExpireOptions{SnapshotID: snapshot, ClusterID: cluster, Expires: "30d"}},
		{args: []string{"--do-not-delete", "--cluster", cluster, snapshot}, want: ExpireOptions{SnapshotID: snapshot, ClusterID: cluster, DoNotDelete: true}},
		// Without SNAPSHOT_ID, run offers a picker or refuses (TestExpireWithoutIDPicksOrRefuses).
		{args: []string{"--cluster", cluster, "--expires", "30d"}, want: ExpireOptions{ClusterID: cluster, Expires: "30d"}},
		{args: []string{snapshot, "x", "--cluster", cluster, "--expires", "30d"}, wantErr: `too many arguments ["x"]`, usage: true},
		{args: []string{snapshot, "--expires", "30d"}, wantErr: `required flag(s) "cluster" not set`},
		{args: []string{snapshot, "--cluster", cluster}, wantErr: "at least one of the flags in the group [expires do-not-delete] is required"},
		{args: []string{snapshot, "--cluster", cluster, "--expires", "30d", "--do-not-delete"}, wantErr: "none of the others can be"},
		{args: []string{snapshot, "--cluster", cluster, "--do-not-delete=maybe"}, wantErr: `invalid argument "maybe"`},
		// expire changes cluster snapshots only.
		{args: []string{snapshot, "--host", host, "--do-not-delete"}, wantErr: "unknown flag: --host"},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *ExpireOptions
		f := &cmdutil.Factory{IOStreams: ios, Now: func() time.Time { return now }}
		cmd := NewCmdExpire(f, func(_ context.Context, o *ExpireOptions) error { got = o; return nil })
		err := cmdtest.ExecuteToStdout(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			checkErr(t, tt.args, err, tt.wantErr, tt.usage)
			if got != nil {
				t.Errorf("%v: run was called", tt.args)
			}
			continue
		}
		if err != nil || got == nil || got.SnapshotID != tt.want.SnapshotID || got.ClusterID != tt.want.ClusterID ||
			got.Expires != tt.want.Expires || got.DoNotDelete != tt.want.DoNotDelete {
			t.Errorf("%v: %v %+v", tt.args, err, got)
			continue
		}
		// The clock is the factory's, so tests and the command agree on now.
		if got.Now == nil || !got.Now().Equal(now) {
			t.Errorf("%v: Now is not the factory's", tt.args)
		}
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
		err := expireRun(context.Background(), &ExpireOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: srv.Client()}, Now: func() time.Time { return now },
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
		err := expireRun(context.Background(), &ExpireOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, tc.format, now), ProjectID: stubapi.Project(project), Client: srv.Client()}, Now: func() time.Time { return now },
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
	err := expireRun(context.Background(), &ExpireOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: srv.Client()}, Now: func() time.Time { return now }, SnapshotID: snapshot, ClusterID: cluster, DoNotDelete: true})
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
		o.Client, o.Printer, o.ProjectID, o.Now = srv.Client(), cmdtest.Printer(ios, "table", now), stubapi.Project(project), func() time.Time { return now }
		err := expireRun(context.Background(), &o)
		if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "24 hexadecimal digits") {
			t.Errorf("%+v: %v", o, err)
		}
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
