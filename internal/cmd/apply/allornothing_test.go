package apply

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

// A valid store followed by a document the server would refuse: nothing
// is sent, not even the valid one (the strict stub fails on any request),
// and every problem is listed.
func TestApplySendsNothingWhenAnyDocumentIsRefused(t *testing.T) {
	for bad, second := range map[string]string{
		"s3MaxConnections: 0": storeDoc + "s3MaxConnections: 0\n",
		"acceptedTos: false":  strings.Replace(storeDoc, "acceptedTos: true", "acceptedTos: false", 1) + "s3MaxConnections: 5\n",
	} {
		srv := stubapi.New(t)
		text := "kind: OplogStore\nid: o1\n" + storeDoc + "s3MaxConnections: 5\n---\nkind: OplogStore\nid: o2\n" + second + "---\nkind: OplogStore\nid: o3\nssl: 'no'\n"
		_, _, err := runApply(t, srv, text, false)
		if cmdutil.ExitCode(err) == 0 || len(srv.Requests()) != 0 {
			t.Fatalf("%s: exit %d, %d requests sent", bad, cmdutil.ExitCode(err), len(srv.Requests()))
		}
		for _, want := range []string{"docs.yaml#2 (OplogStore)", "docs.yaml#3 (OplogStore): field ssl must be true or false"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v lacks %q", bad, err, want)
			}
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
