package server

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
)

const seedStores = `# the job's stores
kind: OplogStore
id: oplog-ci
acceptedTos: true
pathStyleAccessEnabled: false
sseEnabled: false
s3BucketEndpoint: https://s3.example.com
s3BucketName: ci-oplogs
s3AuthMethod: IAM_ROLE
s3MaxConnections: 10
uri: mongodb://meta.example.com:27017
---
kind: SnapshotStore
id: blocks-ci
acceptedTos: true
pathStyleAccessEnabled: false
sseEnabled: false
s3BucketEndpoint: https://s3.example.com
s3BucketName: ci-blocks
s3AuthMethod: IAM_ROLE
s3MaxConnections: 10
uri: mongodb://meta.example.com:27017
`

const seedJobs = `[{"kind": "BackupJobsConfig", "labelFilter": ["ci"],
  "oplogStoreFilter": [{"id": "oplog-ci", "type": "oplogStore"}]}]
`

func seedDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func ciClient(t *testing.T, base string) *client.Client {
	t.Helper()
	c, err := client.New(client.Options{BaseURL: base, PublicKey: "ci", PrivateKey: "ci-secret"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func storeExists(t *testing.T, c *client.Client, id string) bool {
	t.Helper()
	_, err := c.Get(context.Background(), "/admin/backup/oplog/s3Configs/"+id, nil)
	if err != nil && cmdutil.ExitCode(err) != cmdutil.ExitNotFound {
		t.Fatal(err)
	}
	return err == nil
}

// The documents are in before the server is ready, through the API's
// rules, and a reset goes back to them; the journal holds none of the
// requests that made them.
func TestApplySeedsTheDataBeforeTheServerIsReady(t *testing.T) {
	dir := seedDir(t, map[string]string{"a-stores.yaml": seedStores, "b-jobs.json": seedJobs, "notes.txt": "not a document"})
	state := filepath.Join(t.TempDir(), "state.db")
	base, _, errOut, stop := start(t, &Options{Keys: []string{"ci:ci-secret"}, Apply: []string{dir}, StateFile: state})
	c := ciClient(t, base)
	ctx := context.Background()
	for _, path := range []string{"/admin/backup/oplog/s3Configs/oplog-ci", "/admin/backup/snapshot/s3Configs/blocks-ci"} {
		if _, err := c.Get(ctx, path, nil); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
	log := errOut.String()
	for _, want := range []string{"omctl server: --apply: created OplogStore oplog-ci (" + filepath.Join(dir, "a-stores.yaml") + "#1)\n",
		"created BackupJobsConfig", "omctl server: --apply: 3 created, 0 updated, 0 unchanged\n"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	res, err := c.Do(ctx, "GET", "/_omctl/requests", nil, nil)
	var journal struct{ TotalCount int }
	if err != nil || json.Unmarshal(res.Body, &journal) != nil || journal.TotalCount != 0 {
		t.Errorf("journal after seeding: %v %s", err, res.Body)
	}
	later := map[string]any{"id": "later", "acceptedTos": true, "pathStyleAccessEnabled": false, "sseEnabled": false, "s3BucketEndpoint": "https://s3.example.com",
		"s3BucketName": "b", "s3AuthMethod": "IAM_ROLE", "s3MaxConnections": 1, "uri": "mongodb://meta.example.com:27017"}
	if _, err := c.Send(ctx, "POST", "/admin/backup/oplog/s3Configs", later); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(ctx, "POST", "/_omctl/reset", nil, map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if !storeExists(t, c, "oplog-ci") || storeExists(t, c, "later") {
		t.Error("a reset should go back to the data with the documents applied, and only to it")
	}
	stop()

	// A restart with the same documents finds them applied.
	base, _, errOut, stop = start(t, &Options{Keys: []string{"ci:ci-secret"}, Apply: []string{dir}, StateFile: state})
	defer stop()
	if !strings.Contains(errOut.String(), "omctl server: --apply: 0 created, 0 updated, 3 unchanged\n") || !storeExists(t, ciClient(t, base), "oplog-ci") {
		t.Errorf("after the restart: %s", errOut)
	}
}

// One bad document and the server does not start: nothing is written,
// the base URL is not printed, and the message names the document, the
// line it begins on and what is wrong.
func TestApplyIsAllOrNothing(t *testing.T) {
	badField := "kind: OplogStore\nid: oplog-ok\ns3MaxConnections: 5\n---\n# comment\n\nkind: SnapshotStore\nid: blocks-bad\nloadFactor: two\n"
	missingStore := "kind: BackupJobsConfig\nsnapshotStoreFilter:\n  - {id: no-such-store, type: s3blockstore}\n"
	for _, tt := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"invalid document", map[string]string{"a.yaml": seedStores, "b.yaml": badField}, []string{
			"--apply: invalid documents, the server did not start:",
			`b.yaml#2 (SnapshotStore): field loadFactor must be a whole number, not the string "two" (document at line 7)`}},
		{"refused by the plan", map[string]string{"a.yaml": seedStores, "c.yaml": missingStore}, []string{
			"--apply: 1 of 3 document(s) cannot be applied, the server did not start:",
			"c.yaml#1, document at line 1): snapshotStoreFilter[0] names the SnapshotStore no-such-store, which neither the server nor the documents have"}},
		{"not YAML", map[string]string{"a.yaml": seedStores, "d.yaml": "kind: OplogStore\nid: x\n  labels: y\n"}, []string{
			"d.yaml#1: not YAML or JSON: line 3: mapping values are not allowed"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := seedDir(t, tt.files)
			state := filepath.Join(t.TempDir(), "state.db")
			ios, _, stdout, _ := iostreams.Test()
			ready := false
			err := Run(context.Background(), &Options{Deps: cmdutil.Deps{IO: ios}, Listen: "127.0.0.1:0", StateFile: state,
				Keys: []string{"ci:ci-secret"}, Apply: []string{dir}, Ready: func(string) { ready = true }})
			if err == nil || ready || stdout.Len() != 0 || cmdutil.ExitCode(err) == 0 {
				t.Fatalf("started: %v, ready %v, stdout %q", err, ready, stdout)
			}
			for _, want := range tt.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("message lacks %q:\n%v", want, err)
				}
			}
			// The good documents beside the bad one were not applied.
			base, _, _, stop := start(t, &Options{Keys: []string{"ci:ci-secret"}, StateFile: state})
			defer stop()
			if storeExists(t, ciClient(t, base), "oplog-ci") {
				t.Error("oplog-ci was written")
			}
		})
	}
}

func TestApplyNeedsAGlobalOwnerAndNamesTheVariable(t *testing.T) {
	fixtures := filepath.Join(t.TempDir(), "f.json")
	os.WriteFile(fixtures, []byte(`{"orgs": [{"id": "5e1a0c2e8f9d4b0012340001"}],
 "projects": [{"id": "5e2b0c2e8f9d4b0012340001", "orgId": "5e1a0c2e8f9d4b0012340001"}],
 "apiKeys": [{"publicKey": "reader", "privateKey": "r", "roles": [{"groupId": "5e2b0c2e8f9d4b0012340001", "roleName": "GROUP_READ_ONLY"}]}]}`), 0o600)
	dir := seedDir(t, map[string]string{"a.yaml": seedStores})
	ios, _, _, _ := iostreams.Test()
	err := Run(context.Background(), &Options{Deps: cmdutil.Deps{IO: ios}, Listen: "127.0.0.1:0", FixturesFile: fixtures, Apply: []string{dir},
		fromEnv: map[string]string{"apply": "OMCTL_SERVER_APPLY"}})
	if err == nil || !strings.Contains(err.Error(), "OMCTL_SERVER_APPLY needs a GLOBAL_OWNER key in the data") {
		t.Errorf("err = %v", err)
	}
	err = Run(context.Background(), &Options{Deps: cmdutil.Deps{IO: ios}, Listen: "127.0.0.1:0", Apply: []string{filepath.Join(dir, "none")},
		fromEnv: map[string]string{"apply": "OMCTL_SERVER_APPLY"}})
	if err == nil || !strings.Contains(err.Error(), "cannot read OMCTL_SERVER_APPLY "+filepath.Join(dir, "none")+": no such file") {
		t.Errorf("err = %v", err)
	}
}
