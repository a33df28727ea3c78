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

func TestAssignRegionsBody(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("PATCH", "/groups/"+project+"/backupConfigs/"+cluster, 200, assignedJSON)
	ios, _, _, _ := iostreams.Test()
	err := assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: srv.Deps(ios, "json", project), ClusterID: cluster, Regions: []string{"shard0=us-east", "shard1=eu-west"}, MultiRegion: true})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"multiRegionBackupEnabled":true,"deploymentConfigs":[{"rsId":"shard0","deploymentId":"us-east"},{"rsId":"shard1","deploymentId":"eu-west"}]}`
	if got := string(srv.Only().Body); got != want {
		t.Errorf("body = %s", got)
	}
}

func TestAssignRegionsRejectsBadInput(t *testing.T) {
	for _, tc := range []struct {
		cluster string
		regions []string
		want    string
	}{
		{cluster, []string{"shard0"}, "RS_ID=DEPLOYMENT_ID"},
		{cluster, []string{"=us-east"}, "both non-empty"},
		{cluster, []string{"s=a", "s=b"}, "twice"},
		{cluster, nil, "at least one --region"},
		{"cluster0", []string{"s=a"}, "24 hexadecimal"},
	} {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		err := assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: srv.Deps(ios, "json", project), ClusterID: tc.cluster, Regions: tc.regions})
		if err == nil || !strings.Contains(err.Error(), tc.want) || len(srv.Requests()) != 0 {
			t.Errorf("%v: err = %v", tc.regions, err)
		}
	}
}

func TestNewCmdAssignRegions(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		usage   bool
		want    AssignRegionsOptions
	}{
		// --multi-region is on unless turned off.
		{args: []string{cluster, "--region", "shard0=us-east", "--region", "shard1=eu-west"},
			want: AssignRegionsOptions{ClusterID: cluster, Regions: []string{"shard0=us-east", "shard1=eu-west"}, MultiRegion: true}},
		// A comma is part of the value: --region is not split.
		{args: []string{"--region", "shard0=us-east,eu", "--multi-region=false", cluster},
			want: AssignRegionsOptions{ClusterID: cluster, Regions: []string{"shard0=us-east,eu"}}},
		{args: []string{cluster}, wantErr: `required flag(s) "region" not set`},
		{args: []string{"--region", "s=a"}, wantErr: "missing CLUSTER_ID", usage: true},
		{args: []string{cluster, cluster, "--region", "s=a"}, wantErr: "too many arguments", usage: true},
		{args: []string{cluster, "--region", "s=a", "--multi-region=yes"}, wantErr: `invalid argument "yes"`},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *AssignRegionsOptions
		cmd := NewCmdAssignRegions(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *AssignRegionsOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			var fe *cmdutil.FlagError
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || got != nil || (tt.usage && !errors.As(err, &fe)) {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || got.ClusterID != tt.want.ClusterID || got.MultiRegion != tt.want.MultiRegion ||
			strings.Join(got.Regions, "|") != strings.Join(tt.want.Regions, "|") {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
}

func TestAssignRegionsConfirmsOnTerminal(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("PATCH", configPathWant, 200, strings.Replace(assignedJSON, `"multiRegionBackupEnabled":true`, `"multiRegionBackupEnabled":false`, 1))
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetNoColor(true)
	err := assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster, Regions: []string{" shard0 = us-east ", "shard1=eu-west"}})
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

// The confirmation comes from the answer: an answer that shows another
// region, or another multi-region setting, than was sent is an error, not
// a ✓.
func TestAssignRegionsAnswerShowingOtherRegionsIsAnError(t *testing.T) {
	for answer, want := range map[string]string{
		strings.Replace(assignedJSON, `"eu-west"`, `"ap-south"`, 1):                                             "does not show the region of shard1=eu-west",
		strings.Replace(assignedJSON, `"multiRegionBackupEnabled":true`, `"multiRegionBackupEnabled":false`, 1): "does not show the new multiRegionBackupEnabled",
	} {
		srv := stubapi.New(t)
		srv.Reply("PATCH", configPathWant, 200, answer)
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(true)
		err := assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster, Regions: []string{"shard1=eu-west"}, MultiRegion: true})
		if err == nil || !strings.Contains(err.Error(), want) || cmdutil.ExitCode(err) != cmdutil.ExitError || out.Len() != 0 {
			t.Errorf("err = %v, output %q, want %q", err, out.String(), want)
		}
	}
}

// The real service answers with a backup configuration as the API defines
// it, which has no deploymentConfigs (only omctl server adds them), and
// its vendor's client shows answers without multiRegionBackupEnabled
// either: such an answer neither confirms nor denies the regions, so the
// 2xx is the server's word, and the confirmation says so.
func TestAssignRegionsAnswerAsTheAPIDefinesItSucceeds(t *testing.T) {
	for _, answer := range []string{
		`{"clusterId":"` + cluster + `","groupId":"` + project + `","statusName":"STARTED","storageEngineName":"WIRED_TIGER","encryptionEnabled":false,"sslEnabled":true,"multiRegionBackupEnabled":true,"multiRegionMisconfigured":false,"links":[]}`,
		`{"clusterId":"` + cluster + `","encryptionEnabled":false,"groupId":"` + project + `","SSLEnabled":false,"statusName":"STARTED","storageEngineName":"WIRED_TIGER"}`,
	} {
		srv := stubapi.New(t)
		srv.Reply("PATCH", configPathWant, 200, answer)
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(true)
		ios.SetNoColor(true)
		err := assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster, Regions: []string{"shard1=eu-west"}, MultiRegion: true})
		want := "✓ Cluster " + cluster + ": deployment regions shard1=eu-west sent (multi-region backup enabled); the answer does not show regions, so that is the server's word\n"
		if err != nil || out.String() != want {
			t.Errorf("err = %v, output %q, want %q", err, out.String(), want)
		}
	}
}

func TestAssignRegionsDryRunSendsNothing(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", configPathWant, 200, bcJSON)
	ios, _, out, _ := iostreams.Test()
	err := assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: cmdutil.Deps{IO: ios, Printer: cmdtest.Printer(ios, "table", now), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster, Regions: []string{"shard0=us-east"}, MultiRegion: true, DryRun: true})
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
		err := assignRegionsRun(context.Background(), &AssignRegionsOptions{Deps: cmdutil.Deps{Printer: cmdtest.Printer(ios, tc.format, now), ProjectID: stubapi.Project(project), Client: srv.Client()}, ClusterID: cluster, Regions: []string{"shard0=us-east"}, MultiRegion: true})
		if err != nil || out.String() != tc.want {
			t.Errorf("%s: err = %v, output %q", tc.format, err, out.String())
		}
		srv.Only()
	}
}
