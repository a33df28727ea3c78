package apply

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/server"
	omstore "github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/demo"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const project = "5e2b0c2e8f9d4b0012340001"

func TestNewCmdApplyAndDiff(t *testing.T) {
	for _, tt := range []struct {
		name    string
		build   func(*cmdutil.Factory, func(context.Context, *Options) error) *cobra.Command
		args    []string
		wantErr string
		want    Options
	}{
		{"apply", NewCmdApply, []string{"-f", "a.yaml", "-f", "dir"}, "", Options{Files: []string{"a.yaml", "dir"}}},
		{"apply dry run", NewCmdApply, []string{"-f", "-", "--dry-run", "--exit-code"}, "", Options{Files: []string{"-"}, DryRun: true, ExitCode: true}},
		{"apply exit code alone", NewCmdApply, []string{"-f", "a.yaml", "--exit-code"}, "--exit-code goes with --dry-run", Options{}},
		{"apply without file", NewCmdApply, nil, `"file" not set`, Options{}},
		{"apply with argument", NewCmdApply, []string{"-f", "a.yaml", "b.yaml"}, "unknown command", Options{}},
		{"diff", NewCmdDiff, []string{"-f", "a.yaml", "--exit-code"}, "", Options{Files: []string{"a.yaml"}, DryRun: true, ExitCode: true}},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *Options
		cmd := tt.build(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *Options) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !reflect.DeepEqual(got.Files, tt.want.Files) || got.DryRun != tt.want.DryRun || got.ExitCode != tt.want.ExitCode {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func write(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func runApply(t *testing.T, srv *stubapi.Server, text string, dry bool) (string, string, error) {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	opts := &Options{Deps: cmdutil.Deps{IO: ios, ProjectID: stubapi.Project(project), OrgID: stubapi.Project("5e1a0c2e8f9d4b0012340001"), Client: srv.Client()}, Files: []string{write(t, "docs.yaml", text)}, DryRun: dry, ExitCode: dry}
	err := applyRun(context.Background(), opts)
	return out.String(), errOut.String(), err
}

const (
	store = `{"id":"o1","links":[{"rel":"self"}],"acceptedTos":true,"s3MaxConnections":10,"cloudSecretKey":"k3y","uri":"mongodb://m",` + storeRest + `}`
	// storeRest are the other fields the server requires of a store.
	storeRest = `"pathStyleAccessEnabled":false,"s3BucketEndpoint":"https://s3.example.com","s3BucketName":"b","sseEnabled":true`
	// storeDoc is a whole new store's document, less its id.
	storeDoc = "acceptedTos: true\npathStyleAccessEnabled: false\ns3BucketEndpoint: https://s3.example.com\ns3BucketName: b\nsseEnabled: true\nuri: mongodb://m\n"
)

func TestApplyLeavesAnEqualStoreAlone(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/oplog/s3Configs/o1", 200, store)
	// Only the GET is registered: any write fails the test.
	out, _, err := runApply(t, srv, "kind: OplogStore\nid: o1\ns3MaxConnections: 10\ncloudSecretKey: '********'\nlinks: []\n", false)
	if err != nil || out != "unchanged OplogStore o1\nNo changes: 1 resource(s) already as the documents say.\n" {
		t.Fatalf("%v %q", err, out)
	}
}

func TestApplyUpdatesAStoreKeepingWhatTheDocumentLeavesOut(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/oplog/s3Configs/o1", 200, store)
	srv.Reply("PUT", "/admin/backup/oplog/s3Configs/o1", 200, store)
	out, _, err := runApply(t, srv, "kind: OplogStore\nid: o1\ns3MaxConnections: 20\ncloudSecretKey: '********'\n", false)
	if err != nil || !strings.Contains(out, "updated OplogStore o1\n") {
		t.Fatalf("%v %q", err, out)
	}
	body := srv.Requests()[1].JSON(t)
	want := map[string]any{"acceptedTos": true, "s3MaxConnections": float64(20), "cloudSecretKey": "k3y", "uri": "mongodb://m",
		"pathStyleAccessEnabled": false, "s3BucketEndpoint": "https://s3.example.com", "s3BucketName": "b", "sseEnabled": true}
	if !reflect.DeepEqual(body, want) {
		t.Errorf("PUT body %v, want %v", body, want)
	}
}

func TestApplyCreatesAMissingStore(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/snapshot/s3Configs/s1", 404, `{"error":404,"errorCode":"RESOURCE_NOT_FOUND"}`)
	srv.Reply("POST", "/admin/backup/snapshot/s3Configs", 200, `{"id":"s1"}`)
	out, _, err := runApply(t, srv, "kind: SnapshotStore\nid: s1\n"+storeDoc, false)
	if err != nil || !strings.Contains(out, "created SnapshotStore s1\n1 created, 0 updated, 0 unchanged.\n") {
		t.Fatalf("%v %q", err, out)
	}
	if body := srv.Requests()[1].JSON(t); body["id"] != "s1" || body["s3BucketName"] != "b" || len(body) != 7 {
		t.Errorf("POST body %v", body)
	}
}

func TestApplyFindsANamedAlertConfigByItsTag(t *testing.T) {
	srv := stubapi.New(t)
	base := "/groups/" + project + "/alertConfigs"
	srv.Reply("GET", base, 200, `{"results":[
		{"id":"5f2a0c2e8f9d4b0000000001","eventTypeName":"HOST_DOWN","enabled":true,"tags":["omctl:name=other"],"notifications":[]},
		{"id":"5f2a0c2e8f9d4b0000000002","eventTypeName":"HOST_DOWN","enabled":true,"tags":["omctl:name=down"],"created":"2026-01-01T00:00:00Z",
		 "notifications":[{"typeName":"WEBHOOK","webhookUrl":"https://h.example.com/****","webhookSecret":"******","delayMin":0}]}],"totalCount":2}`)
	srv.Reply("PUT", base+"/5f2a0c2e8f9d4b0000000002", 200, `{}`)
	doc := "kind: AlertConfig\nname: down\nenabled: false\nnotifications: [{typeName: WEBHOOK, webhookUrl: 'https://h.example.com/x', webhookSecret: s, delayMin: 0}]\n"
	out, _, err := runApply(t, srv, doc, false)
	if err != nil || !strings.Contains(out, "updated AlertConfig down (id 5f2a0c2e8f9d4b0000000002)") {
		t.Fatalf("%v %q", err, out)
	}
	body := srv.Requests()[1].JSON(t)
	if body["enabled"] != false || body["eventTypeName"] != "HOST_DOWN" || !reflect.DeepEqual(body["tags"], []any{"omctl:name=down"}) ||
		body["notifications"].([]any)[0].(map[string]any)["webhookSecret"] != "s" || body["created"] != nil {
		t.Errorf("PUT body %v", body)
	}
}

func TestApplyRefusesGlobalConfigEditsAndSendsNothing(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/globalAlertConfigs/5f2b0c2e8f9d4b0012340001", 200, `{"id":"5f2b0c2e8f9d4b0012340001","eventTypeName":"HOST_DOWN","enabled":true}`)
	_, errOut, err := runApply(t, srv, "kind: GlobalAlertConfig\nid: 5f2b0c2e8f9d4b0012340001\nenabled: false\neventTypeName: HOST_UP\n", false)
	if cmdutil.ExitCode(err) != 1 || !strings.Contains(errOut, "field eventTypeName differs: a global alert configuration can only be enabled or disabled") {
		t.Fatalf("%v %q", err, errOut)
	}
}

// A valid store followed by documents the server would refuse: no write
// is sent, not even the valid one's (only reads: the strict stub fails on
// any other request), and every problem is listed.
func TestApplySendsNothingWhenAnyDocumentIsRefused(t *testing.T) {
	for bad, second := range map[string]string{
		"s3MaxConnections: 0": storeDoc + "s3MaxConnections: 0\n",
		"acceptedTos: false":  strings.Replace(storeDoc, "acceptedTos: true", "acceptedTos: false", 1) + "s3MaxConnections: 5\n",
	} {
		srv := stubapi.New(t)
		srv.Reply("GET", "/admin/backup/oplog/s3Configs/o1", 404, `{"error":404,"errorCode":"RESOURCE_NOT_FOUND"}`)
		text := "kind: OplogStore\nid: o1\n" + storeDoc + "s3MaxConnections: 5\n---\nkind: OplogStore\nid: o2\n" + second + "---\nkind: OplogStore\nid: o3\nssl: 'no'\n"
		out, errOut, err := runApply(t, srv, text, false)
		if cmdutil.ExitCode(err) != 1 || out != "Nothing was sent: 2 of 3 document(s) cannot be applied.\n" {
			t.Fatalf("%s: exit %d, stdout %q", bad, cmdutil.ExitCode(err), out)
		}
		for _, r := range srv.Requests() {
			if r.Method != "GET" {
				t.Errorf("%s: sent %s %s", bad, r.Method, r.Path)
			}
		}
		for _, want := range []string{"docs.yaml#2 (OplogStore): ", "docs.yaml#3 (OplogStore): field ssl must be true or false"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("%s: %q lacks %q", bad, errOut, want)
			}
		}
	}
}

// The first check lists every problem of a run at once: each field's of
// an invalid document (the rules stop at a body's first), its secret
// references', and those of the valid documents once read and merged
// with what the server has, so that one fix-and-run finds them all.
func TestApplyListsEveryProblemOfEveryStageAtOnce(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/oplog/s3Configs/o2", 404, `{"error":404,"errorCode":"RESOURCE_NOT_FOUND"}`)
	t.Setenv("OMCTL_TEST_UNSET_SECRET", "")
	text := "kind: OplogStore\nid: o1\nssl: 'no'\nloadFactor: x\ncloudSecretKey: ${env:OMCTL_TEST_UNSET_SECRET}\n---\nkind: OplogStore\nid: o2\ns3MaxConnections: 5\n"
	out, errOut, err := runApply(t, srv, text, false)
	if cmdutil.ExitCode(err) != 1 || out != "Nothing was sent: 2 of 2 document(s) cannot be applied.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", cmdutil.ExitCode(err), out, errOut)
	}
	for _, want := range []string{
		"docs.yaml#1 (OplogStore):\n",
		"\n  field ssl must be true or false",
		"\n  unknown field loadFactor: valid fields are",
		"\n  the environment variable of 1 secret reference is not set:\n    OMCTL_TEST_UNSET_SECRET  cloudSecretKey\n",
		"docs.yaml#2) cannot be applied, nothing of it is sent:\n  the server would refuse it: The required attribute acceptedTos was not specified",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// A document the server would refuse once merged with what it has (here,
// a store missing what the server requires) refuses the plan: the reads
// are sent, no write.
func TestApplyRefusesAPlanThatTheServerWouldRefuseBeforeAnyWrite(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/oplog/s3Configs/o1", 404, `{"error":404,"errorCode":"RESOURCE_NOT_FOUND"}`)
	srv.Reply("GET", "/admin/backup/oplog/s3Configs/o2", 404, `{"error":404,"errorCode":"RESOURCE_NOT_FOUND"}`)
	out, errOut, err := runApply(t, srv, "kind: OplogStore\nid: o1\n"+storeDoc+"s3MaxConnections: 5\n---\nkind: OplogStore\nid: o2\ns3MaxConnections: 5\n", false)
	if cmdutil.ExitCode(err) != 1 || out != "Nothing was sent: 1 of 2 document(s) cannot be applied.\n" ||
		!strings.Contains(errOut, "OplogStore o2") || !strings.Contains(errOut, "acceptedTos") {
		t.Fatalf("%v %q %q", err, out, errOut)
	}
	for _, r := range srv.Requests() {
		if r.Method != "GET" {
			t.Errorf("sent %s %s", r.Method, r.Path)
		}
	}
}

// A directory is applied in dependency order, not file name order: the
// store jobs.yaml names is created (stores.yaml) before the backup jobs
// configuration is written.
func TestApplyOrdersADirectoryByDependency(t *testing.T) {
	dir := t.TempDir()
	jobs := "kind: BackupJobsConfig\noplogStoreFilter: [{id: oplog-new, type: oplogStore}]\n"
	stores := "kind: OplogStore\nid: oplog-new\n" + storeDoc + "s3MaxConnections: 5\n"
	for name, text := range map[string]string{"a-jobs.yaml": jobs, "b-stores.yaml": stores} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/oplog/s3Configs/oplog-new", 404, `{"error":404,"errorCode":"RESOURCE_NOT_FOUND"}`)
	srv.Reply("GET", "/admin/backup/groups/"+project, 200, `{"id":"`+project+`","labelFilter":["a"]}`)
	srv.Reply("POST", "/admin/backup/oplog/s3Configs", 201, `{"id":"oplog-new"}`)
	srv.Reply("PUT", "/admin/backup/groups/"+project, 200, `{}`)
	ios, _, out, errOut := iostreams.Test()
	opts := &Options{Deps: cmdutil.Deps{IO: ios, ProjectID: stubapi.Project(project), OrgID: stubapi.Project(org), Client: srv.Client()}, Files: []string{dir}}
	if err := applyRun(context.Background(), opts); err != nil {
		t.Fatalf("%v %q %q", err, out, errOut)
	}
	var writes []string
	for _, r := range srv.Requests() {
		if r.Method != "GET" {
			writes = append(writes, r.Method+" "+r.Path)
		}
	}
	if len(writes) != 2 || !strings.HasPrefix(writes[0], "POST /api/public/v1.0/admin/backup/oplog/s3Configs") || !strings.HasPrefix(writes[1], "PUT ") {
		t.Errorf("writes in order %v, want the store first", writes)
	}
	if !strings.HasSuffix(out.String(), "1 created, 1 updated, 0 unchanged.\n") {
		t.Errorf("stdout %q", out.String())
	}
}

// A backup jobs configuration naming a store that neither the server nor
// the documents have is refused before any write.
func TestApplyRefusesJobsNamingAStoreNobodyHas(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/groups/"+project, 200, `{"id":"`+project+`"}`)
	srv.Reply("GET", "/admin/backup/oplog/s3Configs/nowhere", 404, `{"error":404,"errorCode":"RESOURCE_NOT_FOUND"}`)
	_, errOut, err := runApply(t, srv, "kind: BackupJobsConfig\noplogStoreFilter: [{id: nowhere, type: oplogStore}]\n", false)
	if cmdutil.ExitCode(err) != 1 || !strings.Contains(errOut, "oplogStoreFilter[0] names the OplogStore nowhere, which neither the server nor the documents have") {
		t.Fatalf("%v %q", err, errOut)
	}
}

// A write that fails stops the run: what was done and what was not are
// said, and the summary line comes last.
func TestApplyFailureSaysWhatWasDoneAndNot(t *testing.T) {
	srv := stubapi.New(t)
	for _, id := range []string{"o1", "o2", "o3"} {
		srv.Reply("GET", "/admin/backup/oplog/s3Configs/"+id, 200, strings.Replace(store, `"o1"`, `"`+id+`"`, 1))
	}
	srv.Reply("PUT", "/admin/backup/oplog/s3Configs/o1", 200, store)
	srv.Reply("PUT", "/admin/backup/oplog/s3Configs/o2", 503, `{"error":503,"errorCode":"SERVICE_UNAVAILABLE","detail":"down"}`)
	text := "kind: OplogStore\nid: o1\ns3MaxConnections: 20\n---\nkind: OplogStore\nid: o2\ns3MaxConnections: 20\n---\nkind: OplogStore\nid: o3\ns3MaxConnections: 20\n"
	out, errOut, err := runApply(t, srv, text, false)
	if cmdutil.ExitCode(err) != 1 {
		t.Fatalf("exit %d (%v)", cmdutil.ExitCode(err), err)
	}
	if out != "updated OplogStore o1\nStopped at a failure: 0 created, 1 updated, 0 unchanged, 1 failed, 1 not sent.\n" {
		t.Errorf("stdout %q", out)
	}
	if !strings.Contains(errOut, "Error: OplogStore o2 (") || !strings.Contains(errOut, "Not sent, after the failure:\n  update OplogStore o3 (") {
		t.Errorf("stderr %q", errOut)
	}
}

// demoDeps runs commands as the demo's global owner against a fresh
// in-process server with the demo data.
func demoDeps(t *testing.T) (func() (cmdutil.Deps, *strings.Builder, *strings.Builder), *client.Client) {
	t.Helper()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	s, err := server.New(server.Options{Fixtures: demo.Fixtures(now), Clock: omstore.VirtualClock(now)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	cmdtest.Env(t, ts.URL, demo.ProjectID)
	t.Setenv("OMCTL_PUBLIC_KEY", "demoowner")
	t.Setenv("OMCTL_PRIVATE_KEY", "11111111-aaaa-4bbb-8ccc-000000000001")
	t.Setenv("OMCTL_ORG_ID", demo.OrgID)
	deps := func() (cmdutil.Deps, *strings.Builder, *strings.Builder) {
		ios, _, _, _ := iostreams.Test()
		out, errOut := &strings.Builder{}, &strings.Builder{}
		ios.Out, ios.ErrOut = out, errOut
		return cmdutil.NewDeps(cmdutil.New(ios)), out, errOut
	}
	d, _, _ := deps()
	c, err := d.Client()
	if err != nil {
		t.Fatal(err)
	}
	return deps, c
}

// writesJournaled counts the writes the server's request journal holds.
func writesJournaled(t *testing.T, c *client.Client) int {
	t.Helper()
	body, err := c.Get(context.Background(), client.ControlPrefix+"requests", url.Values{"itemsPerPage": {"500"}})
	if err != nil {
		t.Fatal(err)
	}
	var page struct {
		Results []struct{ Method, Path string }
	}
	if err := json.Unmarshal(body, &page); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range page.Results {
		if r.Method != "GET" {
			n++
		}
	}
	return n
}

var refLine = regexp.MustCompile(`\$\{env:([A-Z0-9_]+)\}`)

// export --secret-refs, edit, apply, over every configuration of the demo
// data: the references are set from the environment, every alert
// configuration changes a field, and a second apply makes no write.
func TestDemoExportEditApplyWithReferences(t *testing.T) {
	deps, c := demoDeps(t)
	d, out, errOut := deps()
	kinds := []string{"AlertConfig", "GlobalAlertConfig", "BackupJobsConfig", "OplogStore/oplog-us-east-1",
		"SnapshotStore/blockstore-us-1", "SnapshotStore/blockstore-eu-1"}
	if err := exportRun(context.Background(), &ExportOptions{Deps: d, Kinds: kinds, SecretRefs: true}); err != nil {
		t.Fatal(err)
	}
	exported := out.String()
	if strings.Contains(exported, "****") || strings.Contains(exported, "secret-value") {
		t.Fatalf("the export holds a secret, redacted or not:\n%s", exported)
	}
	// The variables: each is listed on stderr, and set here to a secret
	// of its kind (in a CI job, from its secret store).
	names := refLine.FindAllStringSubmatch(exported, -1)
	if len(names) < 15 {
		t.Fatalf("%d references, want one per secret of the demo data:\n%s", len(names), exported)
	}
	for _, m := range names {
		if !strings.Contains(errOut.String(), m[1]) {
			t.Errorf("stderr does not list %s", m[1])
		}
		value := "secret-for-" + strings.ToLower(m[1])
		if strings.HasSuffix(m[1], "URL") {
			value = "https://hooks.example.net/" + strings.ToLower(m[1])
		}
		t.Setenv(m[1], value)
	}
	// The edit: every project alert configuration waits a minute longer.
	edited := regexp.MustCompile(`(?m)^(    delayMin: )(\d+)$`).ReplaceAllStringFunc(exported, func(s string) string {
		return strings.Replace(s, "delayMin: ", "delayMin: 1", 1)
	})
	path := filepath.Join(t.TempDir(), "all.yaml")
	if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	d, out, errOut = deps()
	if err := applyRun(context.Background(), &Options{Deps: d, Files: []string{path}}); err != nil {
		t.Fatalf("apply: %v\n%s\n%s", err, out, errOut)
	}
	if !strings.Contains(out.String(), "updated AlertConfig") || writesJournaled(t, c) < 10 {
		t.Fatalf("the first apply wrote %d times:\n%s", writesJournaled(t, c), out)
	}
	if strings.Contains(out.String()+errOut.String(), "secret-for-") {
		t.Errorf("apply printed a secret:\n%s%s", out, errOut)
	}
	t.Logf("first apply:\n%s", out)
	before := writesJournaled(t, c)
	d, out, errOut = deps()
	if err := applyRun(context.Background(), &Options{Deps: d, Files: []string{path}}); err != nil {
		t.Fatalf("second apply: %v\n%s\n%s", err, out, errOut)
	}
	if after := writesJournaled(t, c); after != before || !strings.HasPrefix(lastLine(out.String()), "No changes") {
		t.Errorf("the second apply wrote %d times:\n%s", after-before, out)
	}
	// diff compares the resolved secrets with the server's masked form,
	// and prints none of them.
	d, out, errOut = deps()
	opts := &Options{Deps: d, Files: []string{path}, DryRun: true, ExitCode: true}
	if err := diffRun(context.Background(), opts); err != nil || out.Len() != 0 || strings.Contains(errOut.String(), "secret-for-") {
		t.Errorf("diff: %v\n%s\n%s", err, out, errOut)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}
