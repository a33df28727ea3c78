package root

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestAlertIDCompletionPutsOpenAndTrackingFirst(t *testing.T) {
	srv := stubapi.New(t)
	path := "/groups/" + project + "/alerts"
	srv.Reply("GET", path, 200, `{"results":[{"id":"a-open","status":"OPEN","eventTypeName":"HOST_DOWN"}],"totalCount":1}`)
	srv.Reply("GET", path, 200, `{"results":[{"id":"a-trk","status":"TRACKING","eventTypeName":"REPLICA_SET"}],"totalCount":1}`)
	srv.Reply("GET", path, 200, `{"results":[{"id":"a-closed","status":"CLOSED","eventTypeName":"BACKUP"},{"id":"a-open","status":"OPEN","eventTypeName":"HOST_DOWN"}],"totalCount":2}`)
	code, out, _ := run(t, srv.URL, "__complete", "alerts", "describe", "")
	want := "a-open\tHOST_DOWN (OPEN)\na-trk\tREPLICA_SET (TRACKING)\na-closed\tBACKUP (CLOSED)\n:36\n"
	if code != 0 || out != want {
		t.Errorf("completion = %q (exit %d), want %q", out, code, want)
	}
	reqs := srv.Requests()
	if reqs[0].Query.Get("status") != "OPEN" || reqs[1].Query.Get("status") != "TRACKING" {
		t.Errorf("queries = %v %v", reqs[0].Query, reqs[1].Query)
	}
}

func TestCompletionIsSilentOnErrorsAndNeverHangs(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	defer slow.Close()
	saved := cmdutil.CompletionTimeout
	cmdutil.CompletionTimeout = 100 * time.Millisecond
	defer func() { cmdutil.CompletionTimeout = saved }()
	start := time.Now()
	code, out, stderr := run(t, slow.URL, "__complete", "alertconfigs", "enable", "")
	if time.Since(start) > 3*time.Second || code != 0 || out != ":36\n" || strings.Contains(stderr, "Error") {
		t.Errorf("slow server: %v, exit %d, out %q, stderr %q", time.Since(start), code, out, stderr)
	}
	code, out, _ = run(t, "http://127.0.0.1:9", "__complete", "globalalertconfigs", "disable", "")
	if code != 0 || out != ":36\n" {
		t.Errorf("no server: exit %d, out %q", code, out)
	}
}

func TestEnumCompletions(t *testing.T) {
	for args, want := range map[string]string{
		"alerts list --status ":       "TRACKING\nOPEN\nCLOSED\n",
		"alerts list -o ":             "table\njson\njsonl\n",
		"apikeys create --role ":      "GROUP_OWNER\nGROUP_READ_ONLY\n",
		"alerts wait x --for-status ": "CANCELLED\n",
	} {
		_, out, _ := run(t, "http://x", append(append([]string{"__complete"}, strings.Fields(args)...), "")...)
		if !strings.Contains(out, want) {
			t.Errorf("%s: %q lacks %q", args, out, want)
		}
	}
}

func TestProfileCompletion(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("OMCTL_CONFIG_DIR", dir)
	for _, p := range []string{"staging", "prod"} {
		ios, _, _, _ := iostreams.Test()
		if code := Run([]string{"config", "set", "-P", p, "output", "json"}, ios); code != 0 {
			t.Fatalf("config set -P %s: %d", p, code)
		}
	}
	ios, _, out, _ := iostreams.Test()
	Run([]string{"__complete", "alerts", "list", "-P", ""}, ios)
	if !strings.HasPrefix(out.String(), "prod\nstaging\n") {
		t.Errorf("profiles = %q", out.String())
	}
}

// backupjobs update offers the stores' ids for its store filters.
func TestBackupJobsStoreFlagsCompleteStoreIDs(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/oplog/s3Configs", 200, `{"results":[{"id":"oplog-us-east-1","s3BucketName":"acme-oplogs"}],"totalCount":1}`)
	srv.Reply("GET", "/admin/backup/snapshot/s3Configs", 200, `{"results":[{"id":"blockstore-us-1","s3BucketName":"acme-blocks"}],"totalCount":1}`)
	for flag, want := range map[string]string{"--oplog-store": "oplog-us-east-1", "--snapshot-store": "blockstore-us-1"} {
		code, out, _ := run(t, srv.URL, "__complete", "backupjobs", "update", flag, "")
		if code != 0 || !strings.HasPrefix(out, want+"\t") {
			t.Errorf("%s: completion = %q (exit %d), want %s first", flag, out, code, want)
		}
	}
}
