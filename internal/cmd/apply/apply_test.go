package apply

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
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

func TestNewCmdExport(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var got *ExportOptions
	cmd := NewCmdExport(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *ExportOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"AlertConfig", "OplogStore/o1"})
	if err := cmd.Execute(); err != nil || strings.Join(got.Kinds, " ") != "AlertConfig OplogStore/o1" {
		t.Fatalf("%v %+v", err, got)
	}
	cmd = NewCmdExport(&cmdutil.Factory{IOStreams: ios}, nil)
	if err := cmdtest.Execute(cmd, ios, nil...); err == nil {
		t.Error("export without a kind ran")
	}
}

func TestExportRefusesBadKinds(t *testing.T) {
	for arg, want := range map[string]string{
		"Bucket":            `unknown kind "Bucket": valid kinds are OplogStore`,
		"AccessList":        "AccessList has no list to export: name one, as AccessList/ID",
		"AlertConfig/x":     "AlertConfig is exported whole",
		"BackupConfig/nope": "BackupConfig ID",
	} {
		ios, _, _, _ := iostreams.Test()
		err := exportRun(context.Background(), &ExportOptions{Deps: cmdutil.Deps{IO: ios}, Kinds: []string{arg}})
		if err == nil || !strings.Contains(err.Error(), want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%s: %v, want usage error %q", arg, err, want)
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

func TestReadDocumentsNamesFileDocumentAndField(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"kind: OplogStore\nid: a\n---\nkind: Nope\n", `#2: unknown kind "Nope": valid kinds are OplogStore, SnapshotStore, BackupJobsConfig, AlertConfig, GlobalAlertConfig, BackupConfig, AccessList`},
		{"id: a\n", "#1: field kind is missing"},
		{"kind: OplogStore\nid: a\nbucket: b\n", "#1 (OplogStore): unknown field bucket: valid fields are acceptedTos"},
		{"kind: OplogStore\nid: a\ns3MaxConnections: 1.5\n", "field s3MaxConnections must be a whole number, not the number 1.5"},
		{"kind: OplogStore\nid: a\nlabels: [a, 2]\n", "field labels[1] must be a string, not the number 2"},
		{"kind: OplogStore\ns3BucketName: a\n", "field id is missing: it names the store's name"},
		{"kind: AlertConfig\neventTypeName: HOST_DOWN\nnotifications: [{typeName: EMAIL, delay: 5}]\n", "unknown field notifications[0].delay"},
		{"kind: AlertConfig\neventTypeName: HOST_DOWN\n", "field name or id is missing"},
		{"kind: AlertConfig\nname: a\ntags: [omctl:name=b]\n", `field tags[0] "omctl:name=b": tags starting with omctl:name= are apply's own`},
		{"kind: BackupConfig\nclusterId: short\n", "clusterId"},
		{"kind: AccessList\napiKeyId: 5f4d0c2e8f9d4b0012340005\nresults: [{ipAddress: 300.1.1.1}]\n", `field results[0]: ipAddress "300.1.1.1" is not an IP address`},
		{"- a list\n", "#1: a document must be a mapping of fields, with a kind"},
		{"kind: [unclosed\n", "#1: not YAML or JSON"},
		{`{"kind": "OplogStore", "id": "a"} {"kind": "OplogStore", "id": 1}`, `#2 (OplogStore): field id must be a string, not the number 1`},
		{`[{"kind": "OplogStore", "id": "a"}, {"kind"`, `#1: not JSON: the file ends inside a value`},
	} {
		path := write(t, "docs.yaml", tt.text)
		ios, _, _, _ := iostreams.Test()
		_, err := ReadDocuments(ios, []string{path})
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) || cmdutil.ExitCode(err) != 1 {
			t.Errorf("%q: %v, want a refusal (exit 1) naming %s and %q", tt.text, err, path, tt.want)
		}
	}
}

func TestReadDocumentsTakesAGetAnswerAndJSON(t *testing.T) {
	dir := t.TempDir()
	// The answer of GET /admin/backup/oplog/s3Configs/{id}, with a kind.
	answer := `{"kind": "OplogStore", "id": "o1", "links": [{"rel": "self", "href": "https://x/o1"}], "s3MaxConnections": 5}
{"kind": "SnapshotStore", "id": "s1", "loadFactor": 2}`
	_ = os.WriteFile(filepath.Join(dir, "b.json"), []byte(answer), 0o600)
	_ = os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("kind: BackupJobsConfig\nlabelFilter: [x]\n---\n"), 0o600)
	_ = os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a document"), 0o600)
	ios, _, _, _ := iostreams.Test()
	docs, err := ReadDocuments(ios, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		got = append(got, d.Source+" "+d.Kind.Name)
	}
	want := []string{filepath.Join(dir, "a.yaml") + "#1 BackupJobsConfig", filepath.Join(dir, "b.json") + "#1 OplogStore", filepath.Join(dir, "b.json") + "#2 SnapshotStore"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if docs[1].Fields["s3MaxConnections"] != float64(5) {
		t.Errorf("numbers should read as JSON's: %#v", docs[1].Fields)
	}
}

func TestResolveSecrets(t *testing.T) {
	for _, tt := range []struct {
		name          string
		key, doc, cur string
		send, show    string
		unknown       bool
	}{
		{"plain field", "uri", "a", "b", "a", "a", false},
		{"same secret", "cloudSecretKey", "s", "s", "s", "s", false},
		{"new store key", "cloudSecretKey", "new", "old", "new", "new", false},
		{"exported store key keeps the server's", "cloudSecretKey", "********", "old", "old", "old", false},
		{"webhook secret is never a change", "webhookSecret", "other", "******", "other", "******", false},
		{"redacted secret sent back is unknown", "webhookSecret", "******", "******", "******", "******", true},
		{"url with the shown host could be it", "webhookUrl", "https://h.example.com/x", "https://h.example.com/****", "https://h.example.com/x", "https://h.example.com/****", false},
		{"url of another host is a change", "webhookUrl", "https://other.example.com/x", "https://h.example.com/****", "https://other.example.com/x", "https://other.example.com/x", false},
		{"key with the shown end could be it", "serviceKey", "abcd1234", "****1234", "abcd1234", "****1234", false},
		{"key with another end is a change", "serviceKey", "abcd9999", "****1234", "abcd9999", "abcd9999", false},
		{"redacted and new", "serviceKey", "****1234", "", "****1234", "****1234", true},
	} {
		var cur any
		if tt.cur != "" {
			cur = tt.cur
		}
		r := resolve(tt.key, tt.key, tt.doc, cur)
		if r.send != tt.send || r.show != tt.show || (len(r.unknown) > 0) != tt.unknown {
			t.Errorf("%s: send %v show %v unknown %v, want %v %v %v", tt.name, r.send, r.show, r.unknown, tt.send, tt.show, tt.unknown)
		}
	}
}

func TestMaskPairNeverPrintsSecrets(t *testing.T) {
	before := map[string]any{"cloudSecretKey": "old-secret-1", "notifications": []any{map[string]any{"webhookUrl": "https://h.example.com/a/b"}}}
	after := map[string]any{"cloudSecretKey": "new-secret-1", "notifications": []any{map[string]any{"webhookUrl": "https://h.example.com/a/b"}}}
	b, a := cmdutil.MaskPair("", before, after)
	text := strings.Join(append(yamlLines(b), yamlLines(a)...), "\n")
	if strings.Contains(text, "secret-1") || strings.Contains(text, "/a/b") {
		t.Fatalf("secrets printed:\n%s", text)
	}
	if a.(map[string]any)["cloudSecretKey"] != "******** (changed)" {
		t.Errorf("a changed secret should say so: %v", a)
	}
}

func TestLineDiff(t *testing.T) {
	got := lineDiff([]string{"a", "b", "c"}, []string{"a", "x", "c", "d"})
	want := []string{" a", "-b", "+x", " c", "+d"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
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

func TestDiffExitCodeAndDiff(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/oplog/s3Configs/o1", 200, store)
	out, errOut, err := runApply(t, srv, "kind: OplogStore\nid: o1\ns3MaxConnections: 20\ncloudSecretKey: n3w\n", true)
	if cmdutil.ExitCode(err) != 2 {
		t.Fatalf("exit code %d (%v), want 2", cmdutil.ExitCode(err), err)
	}
	for _, want := range []string{"--- server/OplogStore o1\n", "-cloudSecretKey: '********'\n+cloudSecretKey: '******** (changed)'\n", "-s3MaxConnections: 10\n+s3MaxConnections: 20\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("diff lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "k3y") || strings.Contains(out, "n3w") {
		t.Errorf("diff shows a secret:\n%s", out)
	}
	if errOut != "0 to create, 1 to update, 0 unchanged.\n" {
		t.Errorf("stderr %q", errOut)
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

func TestWriteDiffColoursOnATerminal(t *testing.T) {
	pl := &Plan{Doc: &Document{Source: "f.yaml#1"}, Label: "OplogStore o1",
		Before: map[string]any{"a": 1, "b": 2}, After: map[string]any{"a": 1, "b": 3}}
	var plain, coloured strings.Builder
	WriteDiff(&plain, pl, false)
	WriteDiff(&coloured, pl, true)
	if want := "--- server/OplogStore o1\n+++ documents/OplogStore o1 (f.yaml#1)\n@@ -1,2 +1,2 @@\n a: 1\n-b: 2\n+b: 3\n"; plain.String() != want {
		t.Errorf("plain diff:\n%s\nwant:\n%s", plain.String(), want)
	}
	for _, want := range []string{"\x1b[31m-b: 2\x1b[0m\n", "\x1b[32m+b: 3\x1b[0m\n", "\x1b[36m@@ -1,2 +1,2 @@\x1b[0m\n"} {
		if !strings.Contains(coloured.String(), want) {
			t.Errorf("coloured diff lacks %q:\n%q", want, coloured.String())
		}
	}
}

// A change in a long resource is shown with 3 lines of context around
// it, in hunks numbered as diff -u numbers them.
func TestWriteDiffShowsContextNotTheWholeResource(t *testing.T) {
	before, after := map[string]any{}, map[string]any{}
	for i := 0; i < 20; i++ {
		k := fmt.Sprintf("f%02d", i)
		before[k], after[k] = i, i
	}
	after["f05"], after["f17"] = "changed", "changed too"
	pl := &Plan{Doc: &Document{Source: "f.yaml#1"}, Label: "X x", Before: before, After: after}
	var b strings.Builder
	WriteDiff(&b, pl, false)
	want := "--- server/X x\n+++ documents/X x (f.yaml#1)\n" +
		"@@ -3,7 +3,7 @@\n f02: 2\n f03: 3\n f04: 4\n-f05: 5\n+f05: changed\n f06: 6\n f07: 7\n f08: 8\n" +
		"@@ -15,6 +15,6 @@\n f14: 14\n f15: 15\n f16: 16\n-f17: 17\n+f17: changed too\n f18: 18\n f19: 19\n"
	if b.String() != want {
		t.Errorf("diff:\n%s\nwant:\n%s", b.String(), want)
	}
}

// With --exit-code: 0 no change, 2 changes, 1 any error, usage errors
// included, so 2 means changes and nothing else.
func TestDiffExitCodeTellsErrorsFromChanges(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	opts := &Options{Deps: cmdutil.Deps{IO: ios}, Files: []string{filepath.Join(t.TempDir(), "missing.yaml")}, DryRun: true, ExitCode: true}
	err := diffRun(context.Background(), opts)
	if cmdutil.ExitCode(err) != 1 || !strings.Contains(errOut.String(), "Error: cannot read -f") {
		t.Errorf("exit %d (%v), stderr %q", cmdutil.ExitCode(err), err, errOut.String())
	}
	opts.ExitCode = false
	if err := diffRun(context.Background(), opts); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("without --exit-code: exit %d, want the usage error's 2", cmdutil.ExitCode(err))
	}
}
