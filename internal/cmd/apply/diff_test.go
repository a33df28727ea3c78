package apply

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

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

func TestDiffShowsCreationsAndRefusals(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/snapshot/s3Configs/s1", 404, `{"error":404,"errorCode":"RESOURCE_NOT_FOUND"}`)
	srv.Reply("GET", "/globalAlertConfigs/5f2b0c2e8f9d4b0012340001", 200, `{"id":"5f2b0c2e8f9d4b0012340001","eventTypeName":"HOST_DOWN","enabled":true}`)
	text := "kind: SnapshotStore\nid: s1\nloadFactor: 2\ncloudSecretKey: k3y\n" + storeDoc + "---\nkind: GlobalAlertConfig\nid: 5f2b0c2e8f9d4b0012340001\neventTypeName: HOST_UP\n"
	out, errOut, err := runApply(t, srv, text, true)
	if cmdutil.ExitCode(err) != 1 {
		t.Fatalf("exit code %d (%v), want 1: a refusal outranks a change", cmdutil.ExitCode(err), err)
	}
	for _, want := range []string{
		"--- /dev/null\n+++ documents/SnapshotStore s1 (", "@@ -0,0 +1,8 @@\n+acceptedTos: true\n+cloudSecretKey: '********'\n+loadFactor: 2\n",
		"--- server/GlobalAlertConfig 5f2b0c2e8f9d4b0012340001\n", "-eventTypeName: HOST_DOWN\n+eventTypeName: HOST_UP\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("diff lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "k3y") {
		t.Errorf("diff shows a secret:\n%s", out)
	}
	if !strings.Contains(errOut, "field eventTypeName differs") || !strings.HasSuffix(errOut, "1 to create, 0 to update, 0 unchanged, 1 refused.\n") {
		t.Errorf("stderr %q", errOut)
	}
}

func TestDiffWithoutChangesExitsZero(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/oplog/s3Configs/o1", 200, store)
	out, errOut, err := runApply(t, srv, "kind: OplogStore\nid: o1\ns3MaxConnections: 10\n", true)
	if err != nil || out != "" || errOut != "No changes: 1 resource(s) already as the documents say.\n" {
		t.Fatalf("%v %q %q", err, out, errOut)
	}
}
