package backupjobs

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestNewCmdUpdate(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		check   func(*UpdateOptions) bool
	}{
		{[]string{"--label", "us", "--label", "eu", "--oplog-store", "o1"}, "", func(o *UpdateOptions) bool {
			return o.Project == "" && strings.Join(o.Labels, ",") == "us,eu" && o.OplogStores[0] == "o1" && o.SnapshotStores == nil && o.KMIPCertPath == nil
		}},
		{[]string{project, "--file", "-", "--kmip-cert-path", ""}, "", func(o *UpdateOptions) bool {
			return o.Project == project && o.File == "-" && o.KMIPCertPath != nil && *o.KMIPCertPath == ""
		}},
		{[]string{"--snapshot-store", "b1:blockstore", "--sync-store", "s1"}, "", func(o *UpdateOptions) bool {
			return o.SnapshotStores[0] == "b1:blockstore" && o.SyncStores[0] == "s1"
		}},
		{[]string{project, project}, "PROJECT_ID", nil},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *UpdateOptions
		cmd := NewCmdUpdate(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *UpdateOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !tt.check(got) {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
}

func TestUpdateFromFlagsPutsTheFilters(t *testing.T) {
	answer := `{"id":"` + project + `","labelFilter":["us"],"oplogStoreFilter":[{"id":"o1","type":"oplogStore"}],"snapshotStoreFilter":[{"id":"b1","type":"s3blockstore"},{"id":"fs","type":"fileSystemStore"}]}`
	srv := stubapi.New(t)
	srv.Reply("PUT", "/admin/backup/groups/"+project, 200, answer)
	ios, _, out, _ := iostreams.Test()
	err := updateRun(context.Background(), &UpdateOptions{Deps: srv.Deps(ios, "table", project), Replace: true, Labels: []string{"us"}, OplogStores: []string{"o1"}, SnapshotStores: []string{"b1", "fs:fileSystemStore"}})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.Only()
	if want := `{"labelFilter":["us"],"oplogStoreFilter":[{"id":"o1","type":"oplogStore"}],"snapshotStoreFilter":[{"id":"b1","type":"s3blockstore"},{"id":"fs","type":"fileSystemStore"}]}`; r.Method != "PUT" || string(r.Body) != want {
		t.Errorf("sent %s %s", r.Method, r.Body)
	}
	if want := project + "\tus\to1\tb1,fs\t\t\n"; out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
}

func TestUpdateFileWithFlagsReplacingItsFields(t *testing.T) {
	other := "5e2b0c2e8f9d4b00123456ff"
	srv := stubapi.New(t)
	srv.Reply("PUT", "/admin/backup/groups/"+other, 200, `{"id":"`+other+`"}`)
	ios, stdin, out, _ := iostreams.Test()
	stdin.WriteString(`{"id":"` + other + `","labelFilter":["old"],"kmipClientCertPassword":"pw","syncStoreFilter":["s"]}`)
	err := updateRun(context.Background(), &UpdateOptions{Deps: srv.Deps(ios, "json", project), Project: other, File: "-", Labels: []string{"new"}})
	if err != nil {
		t.Fatal(err)
	}
	body := srv.Only().JSON(t)
	if body["labelFilter"].([]any)[0] != "new" || body["kmipClientCertPassword"] != "pw" || body["id"] != other {
		t.Errorf("body = %v", body)
	}
	if out.String() != `{"id":"`+other+`"}`+"\n" {
		t.Errorf("output = %q", out.String())
	}
}

func TestUpdateChecksBeforeSending(t *testing.T) {
	for _, tc := range []struct {
		opts UpdateOptions
		doc  string
		want string
	}{
		{UpdateOptions{}, "", "nothing to set"},
		{UpdateOptions{File: "-"}, `{"id":"5e2b0c2e8f9d4b00123456ff"}`, "is not the project " + project},
		{UpdateOptions{File: "-"}, `{"oplogStoreFilter":[{"type":"oplogStore"}]}`, "oplogStoreFilter[0] has no id"},
		{UpdateOptions{File: "-"}, `{"oplogStoreFilter":[{"id":"o","type":"s3blockstore"}]}`, "the only valid type is oplogStore"},
		{UpdateOptions{File: "-"}, `{"snapshotStoreFilter":[{"id":"b","type":"tape"}]}`, "valid types are s3blockstore, blockstore, fileSystemStore"},
		{UpdateOptions{File: "-"}, `{"labelFilter":"us"}`, "labelFilter"},
		{UpdateOptions{File: "-"}, `[1]`, "must be a JSON object"},
		{UpdateOptions{SnapshotStores: []string{"b:tape"}}, "", `invalid type "tape"`},
		{UpdateOptions{SnapshotStores: []string{":blockstore"}}, "", "must name a store"},
		{UpdateOptions{OplogStores: []string{""}}, "", "--oplog-store must name a store"},
		{UpdateOptions{Project: "nope", Labels: []string{"x"}}, "", "project"},
	} {
		srv := stubapi.New(t)
		ios, stdin, _, _ := iostreams.Test()
		stdin.WriteString(tc.doc)
		o := tc.opts
		o.IO, o.Client, o.Printer, o.ProjectID = ios, srv.Client(), stubapi.Printer(ios, "json", ""), stubapi.Project(project)
		err := updateRun(context.Background(), &o)
		if err == nil || !strings.Contains(err.Error(), tc.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage || len(srv.Requests()) != 0 {
			t.Errorf("want %q, err = %v", tc.want, err)
		}
	}
}

func TestUpdateUnknownStoreIsTheServersAnswer(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/groups/"+project, 404, `{"detail":"No backup jobs configuration exists.","error":404,"errorCode":"RESOURCE_NOT_FOUND","reason":"Not Found"}`)
	srv.Reply("PUT", "/admin/backup/groups/"+project, 400, `{"detail":"Invalid attribute oplogStoreFilter[0].id specified: no oplog store with ID nope exists.","error":400,"errorCode":"INVALID_ATTRIBUTE","parameters":["oplogStoreFilter[0].id","nope"],"reason":"Bad Request"}`)
	ios, _, _, _ := iostreams.Test()
	err := updateRun(context.Background(), &UpdateOptions{Deps: srv.Deps(ios, "json", project), OplogStores: []string{"nope"}})
	if err == nil || !strings.Contains(err.Error(), "no oplog store with ID nope") {
		t.Errorf("err = %v", err)
	}
}

// current is a project's settings with every kind of field a flag does not
// name: a flag-driven update must send them back unchanged.
const current = `{"id":"` + project + `","labelFilter":["us","ssd"],"daemonFilter":[{"machine":"daemon1.example.com","headRootDirectory":"/heads"}],` +
	`"kmipClientCertPath":"/etc/kmip","kmipClientCertPassword":"kmip-pass","oplogStoreFilter":[{"id":"old","type":"oplogStore"}],` +
	`"syncStoreFilter":["sync1"],"links":[{"href":"x","rel":"self"}]}`

func TestUpdateFromFlagsChangesOnlyWhatTheyName(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/groups/"+project, 200, current)
	answer := strings.Replace(current, `[{"id":"old","type":"oplogStore"}]`, `[{"id":"oplog-us-east-1","type":"oplogStore"}]`, 1)
	srv.Reply("PUT", "/admin/backup/groups/"+project, 200, answer)
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetNoColor(true)
	err := updateRun(context.Background(), &UpdateOptions{Deps: srv.Deps(ios, "table", project), OplogStores: []string{"oplog-us-east-1"}})
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Method != "GET" || reqs[1].Method != "PUT" {
		t.Fatalf("requests = %v", reqs)
	}
	want := `{"daemonFilter":[{"headRootDirectory":"/heads","machine":"daemon1.example.com"}],"id":"` + project + `",` +
		`"kmipClientCertPassword":"kmip-pass","kmipClientCertPath":"/etc/kmip","labelFilter":["us","ssd"],` +
		`"oplogStoreFilter":[{"id":"oplog-us-east-1","type":"oplogStore"}],"syncStoreFilter":["sync1"]}`
	if string(reqs[1].Body) != want {
		t.Errorf("PUT body:\n%s\nwant\n%s", reqs[1].Body, want)
	}
	if want := "✓ Backup job settings of project " + project + " saved: changed oplogStoreFilter\n"; out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}
}

func TestUpdateFromFlagsCreatesMissingSettings(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/groups/"+project, 404, `{"detail":"none","error":404,"errorCode":"RESOURCE_NOT_FOUND","reason":"Not Found"}`)
	srv.Reply("PUT", "/admin/backup/groups/"+project, 200, `{"id":"`+project+`","labelFilter":["us"]}`)
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetNoColor(true)
	if err := updateRun(context.Background(), &UpdateOptions{Deps: srv.Deps(ios, "table", project), Labels: []string{"us"}}); err != nil {
		t.Fatal(err)
	}
	if body := srv.Requests()[1].Body; string(body) != `{"labelFilter":["us"]}` {
		t.Errorf("PUT body %s", body)
	}
	if want := "✓ Backup job settings of project " + project + " created\n"; out.String() != want {
		t.Errorf("output %q", out.String())
	}
}

func TestUpdateRefusesToSendBackARedactedSecret(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/groups/"+project, 200, strings.Replace(current, `"kmip-pass"`, `"********"`, 1))
	ios, _, _, _ := iostreams.Test()
	err := updateRun(context.Background(), &UpdateOptions{Deps: srv.Deps(ios, "table", project), Labels: []string{"eu"}})
	if err == nil || !strings.Contains(err.Error(), "kmipClientCertPassword only redacted") || !strings.Contains(err.Error(), "--replace") {
		t.Errorf("err = %v", err)
	}
	if r := srv.Only(); r.Method != "GET" {
		t.Errorf("sent %s", r.Method)
	}
}

func TestUpdateAnswerWithoutTheChangeIsAnError(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/groups/"+project, 200, current)
	srv.Reply("PUT", "/admin/backup/groups/"+project, 200, current)
	ios, _, _, _ := iostreams.Test()
	err := updateRun(context.Background(), &UpdateOptions{Deps: srv.Deps(ios, "json", project), Labels: []string{"eu"}})
	if err == nil || !strings.Contains(err.Error(), "does not show the new labelFilter") {
		t.Errorf("err = %v", err)
	}
}

func TestUpdateDryRunSendsNothing(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/groups/"+project, 200, current)
	ios, _, out, _ := iostreams.Test()
	err := updateRun(context.Background(), &UpdateOptions{Deps: srv.Deps(ios, "table", project), Labels: []string{"eu"}, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := srv.Only(); r.Method != "GET" {
		t.Errorf("sent %s", r.Method)
	}
	got := out.String()
	for _, want := range []string{"PUT /admin/backup/groups/" + project, `"kmipClientCertPassword": "********"`, "--- current", "+++ after",
		`-    "us",`, `-    "ssd"`, `+    "eu"`} {
		if !strings.Contains(got, want) {
			t.Errorf("preview has no %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "kmip-pass") {
		t.Errorf("preview shows the secret:\n%s", got)
	}
}
