package root

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/build"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/store/demo"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const project = "5e2b0c2e8f9d4b0012345678"

func run(t *testing.T, baseURL string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmdtest.Env(t, baseURL, project)
	ios, _, out, errOut := iostreams.Test()
	code = Run(args, ios)
	return code, out.String(), errOut.String()
}

// goList matches Go's list syntax, "[until forever]", which users should
// never see.
var goList = regexp.MustCompile(`\[[a-z-]+ [a-z-]+`)

// goInternals matches what Go and its libraries say, which users should
// never see either.
var goInternals = regexp.MustCompile(`strconv\.|(?:^|\s)json: |Go struct|Go value|(?:^|\s)toml: |context deadline`)

func TestExitCodes(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts/5f1a0c2e8f9d4b0012345678", 404,
		`{"detail":"No alert with ID 5f1a0c2e8f9d4b0012345678 exists in group 5e2b0c2e8f9d4b0012345678.","error":404,"errorCode":"ALERT_NOT_FOUND","reason":"Not Found"}`)
	srv.Reply("GET", "/globalAlerts", 401, `{"error":401,"reason":"Unauthorized","detail":"You are not authorized for this resource."}`)
	srv.Reply("GET", "/globalAlertConfigs", 403, `{"error":403,"errorCode":"IP_ADDRESS_NOT_ON_ACCESS_LIST","reason":"Forbidden","detail":"IP address 10.1.1.1 is not allowed to access this resource."}`)
	srv.Reply("GET", "/groups/"+project+"/alertConfigs", 500, `{"error":500,"reason":"Internal Server Error","detail":"boom"}`)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, `{"results":[],"totalCount":0}`)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	busy := ln.Addr().String()
	for _, tc := range []struct {
		args      []string
		code      int
		errSubstr string
	}{
		{[]string{"alerts", "list"}, cmdutil.ExitOK, ""},
		{[]string{"alerts", "describe", "5f1a0c2e8f9d4b0012345678"}, cmdutil.ExitNotFound, "Error: 404 ALERT_NOT_FOUND: No alert with ID 5f1a0c2e8f9d4b0012345678 exists in group 5e2b0c2e8f9d4b0012345678.\n"},
		{[]string{"globalalerts", "list"}, cmdutil.ExitAuth, "401 UNAUTHORIZED"},
		{[]string{"globalalertconfigs", "list"}, cmdutil.ExitAuth, "403 IP_ADDRESS_NOT_ON_ACCESS_LIST"},
		{[]string{"alertconfigs", "list"}, cmdutil.ExitError, "500"},
		{[]string{"alerts", "describe"}, cmdutil.ExitUsage, "missing ALERT_ID"},
		{[]string{"alerts", "list", "--bogus"}, cmdutil.ExitUsage, "unknown flag: --bogus"},
		{[]string{"alerts", "frobnicate"}, cmdutil.ExitUsage, `unknown command "frobnicate"`},
		{[]string{"frobnicate"}, cmdutil.ExitUsage, `unknown command "frobnicate"`},
		{[]string{"alerts", "ack", "5f1a0c2e8f9d4b0012345678"}, cmdutil.ExitUsage, "missing flag: give --until or --forever\nRun 'omctl alerts ack --help'"},
		{[]string{"alerts", "ack", "5f1a0c2e8f9d4b0012345678", "--until", "4h", "--forever"}, cmdutil.ExitUsage, "--forever and --until cannot be used together\n"},
		// A missing required flag is a usage error with the help hint.
		{[]string{"alerts", "wait", "5f1a0c2e8f9d4b0012345678"}, cmdutil.ExitUsage, "missing required flag --for-status\nRun 'omctl alerts wait --help'"},
		{[]string{"alertconfigs", "update", "5f2a0c2e8f9d4b0012345678"}, cmdutil.ExitUsage, "missing required flag --file\nRun"},
		{[]string{"backupconfigs", "assign-regions", "5e3c0c2e8f9d4b0012345678"}, cmdutil.ExitUsage, "missing required flag --region\nRun"},
		{[]string{"snapshots", "expire", "5f3c0c2e8f9d4b0012345678", "--expires", "1d"}, cmdutil.ExitUsage, "missing required flag --cluster\nRun"},
		{[]string{"apikeys", "create"}, cmdutil.ExitUsage, "missing required flags --desc and --role\nRun"},
		// Intervals: zero, or without --watch.
		{[]string{"alerts", "list", "--watch", "--interval", "0s"}, cmdutil.ExitUsage, "invalid --interval 0s"},
		{[]string{"alerts", "list", "--interval", "5s"}, cmdutil.ExitUsage, "add --watch"},
		{[]string{"alerts", "list", "--watch", "-o", "json"}, cmdutil.ExitUsage, "use -o jsonl"},
		{[]string{"alerts", "list", "--watch", "-o", "yaml"}, cmdutil.ExitUsage, "--watch takes -o table or -o jsonl, not -o yaml"},
		// An unknown event names the ones there are.
		{[]string{"server", "trigger", "HOST_DWN", "--host", "a:1"}, cmdutil.ExitUsage, `unknown event type "HOST_DWN": valid event types are HOST_DOWN, OUTSIDE_METRIC_THRESHOLD,`},
		{[]string{"alerts", "wait", "5f1a0c2e8f9d4b0012345678", "--for-status", "OPEN", "--interval", "0s"}, cmdutil.ExitUsage, "must be positive"},
		// Input files: a directory is as wrong as a missing file.
		{[]string{"oplogstores", "create", "--file", os.TempDir()}, cmdutil.ExitUsage, "is a directory"},
		{[]string{"oplogstores", "create", "--file", filepath.Join(os.TempDir(), "no-such-store.json")}, cmdutil.ExitUsage, "no such file"},
		{[]string{"api", "/groups", "--input", filepath.Join(os.TempDir(), "no-such-body.json")}, cmdutil.ExitUsage, "cannot read --input"},
		// Flag values are described by what the flag takes, not by Go's parser.
		{[]string{"alerts", "list", "--limit", "abc"}, cmdutil.ExitUsage, `invalid --limit "abc": want an integer`},
		{[]string{"alerts", "list", "--watch", "--interval", "x"}, cmdutil.ExitUsage, `invalid --interval "x": want a duration`},
		{[]string{"alerts", "list", "--backup-jobs-enabled-only=maybe"}, cmdutil.ExitUsage, `invalid --backup-jobs-enabled-only "maybe": want true or false`},
		{[]string{"oplogstores", "create", "--max-connections", "x"}, cmdutil.ExitUsage, `invalid --max-connections "x": want an integer`},
		// omctl api prints JSON; an explicit -o table is refused, not ignored.
		{[]string{"api", "/groups/{project_id}/alerts", "-o", "table"}, cmdutil.ExitUsage, "-o table does not apply here"},
		// cobra's own commands and typos.
		{[]string{"completion", "tcsh"}, cmdutil.ExitUsage, `unknown command "tcsh"`},
		{[]string{"help", "nosuch"}, cmdutil.ExitUsage, `unknown help topic "nosuch"`},
		{[]string{"alerts", "lst"}, cmdutil.ExitUsage, "did you mean list?"},
		// A past expiry would make the snapshot's expiry unchangeable.
		{[]string{"snapshots", "expire", "5f3c0c2e8f9d4b0012345678", "--cluster", "5e3c0c2e8f9d4b0012345678", "--expires", "2020-01-01"}, cmdutil.ExitUsage, "not in the future"},
		// A busy port is a runtime failure, not a usage error.
		{[]string{"server", "--listen", busy}, cmdutil.ExitError, "cannot listen on " + busy},
		{[]string{"alerts", "list", "-o", "xml"}, cmdutil.ExitUsage, "valid formats are"},
		{[]string{"alerts", "list", "--jq", ".["}, cmdutil.ExitUsage, "invalid --jq expression"},
		{[]string{"alerts", "list", "--project", "no\tname"}, cmdutil.ExitUsage, "24 hexadecimal digits or a project's name"},
		{[]string{"snapshots", "list", "--cluster", "5e3c0c2e8f9d4b0012345678", "--host", "h"}, cmdutil.ExitUsage, "--cluster and --host cannot be used together\n"},
	} {
		code, _, stderr := run(t, srv.URL, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.errSubstr) || goList.MatchString(stderr) || goInternals.MatchString(stderr) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr, tc.code, tc.errSubstr)
		}
	}
}

func TestErrorsGoToStderrOnly(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts/5f1a0c2e8f9d4b0012345678", 404,
		`{"detail":"No alert with ID 5f1a0c2e8f9d4b0012345678 exists.","error":404,"errorCode":"ALERT_NOT_FOUND","reason":"Not Found"}`)
	code, stdout, stderr := run(t, srv.URL, "alerts", "describe", "5f1a0c2e8f9d4b0012345678")
	if code != cmdutil.ExitNotFound || stdout != "" || !strings.HasPrefix(stderr, "Error: 404") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestMissingCredentialsNameTheVariables(t *testing.T) {
	t.Setenv("OMCTL_CONFIG_DIR", t.TempDir())
	for _, k := range []string{"OMCTL_PUBLIC_KEY", "OMCTL_PRIVATE_KEY", "OMCTL_PROFILE", "OMCTL_OUTPUT"} {
		t.Setenv(k, "")
	}
	t.Setenv("OMCTL_BASE_URL", "http://127.0.0.1:9")
	t.Setenv("OMCTL_PROJECT_ID", project)
	ios, _, _, errOut := iostreams.Test()
	if code := Run([]string{"alerts", "list"}, ios); code != cmdutil.ExitUsage || !strings.Contains(errOut.String(), "OMCTL_PUBLIC_KEY and OMCTL_PRIVATE_KEY") {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
}

func TestVersionAndHelpTopics(t *testing.T) {
	code, out, _ := run(t, "http://x", "--version")
	if code != 0 || out != build.Version+"\n" {
		t.Errorf("--version: %d %q", code, out)
	}
	code, out, _ = run(t, "http://x", "version")
	if code != 0 || !strings.Contains(out, "commit: ") || !strings.Contains(out, "go: go1.") {
		t.Errorf("version: %d %q", code, out)
	}
	for topic, want := range map[string]string{"exit-codes": "3  not found", "environment": "OMCTL_PRIVATE_KEY", "formatting": "-o jsonl"} {
		code, out, _ := run(t, "http://x", "help", topic)
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("help %s: %d %q", topic, code, out)
		}
	}
}

func TestEveryCommandHasExampleAndLong(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	root := NewCmdRoot(cmdutil.New(ios))
	for _, c := range allCommands(root) {
		if c.Runnable() && !c.HasSubCommands() && c.Name() != "help" && !strings.HasPrefix(c.CommandPath(), "omctl completion") && c.GroupID != "help" {
			if c.Example == "" || c.Long == "" {
				t.Errorf("%s lacks Long or Example", c.CommandPath())
			}
		}
	}
}

// Every id in a help example is one of omctl server --demo's, so that an
// example copied against the demo finds what it names (README: "Examples
// use the ids of omctl server --demo").
func TestHelpExamplesUseTheDemoIDs(t *testing.T) {
	data, err := json.Marshal(demo.Fixtures(time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	hex := regexp.MustCompile(`\b[0-9a-f]{24}\b`)
	demo := map[string]bool{}
	for _, id := range hex.FindAllString(string(data), -1) {
		demo[id] = true
	}
	ios, _, _, _ := iostreams.Test()
	for _, c := range allCommands(NewCmdRoot(cmdutil.New(ios))) {
		if strings.HasPrefix(c.CommandPath(), "omctl server faults") {
			continue // a fault's id is made by the running server
		}
		for _, id := range hex.FindAllString(c.Example, -1) {
			if !demo[id] {
				t.Errorf("%s: the example's id %s is not one of the demo's", c.CommandPath(), id)
			}
		}
	}
}

func TestServerErrorsAreNeverTakenForUsageErrors(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/globalAlerts", 400, `{"detail":"The endpoint accepts at most 500 items; unknown flag: x.","error":400,"errorCode":"INVALID_QUERY_PARAMETER","reason":"Bad Request"}`)
	code, _, stderr := run(t, srv.URL, "globalalerts", "list")
	if code != cmdutil.ExitError || strings.Contains(stderr, "--help") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestInsecureWarnsOnStderr(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/globalAlerts", 200, `{"results":[],"totalCount":0}`)
	code, stdout, stderr := run(t, srv.URL, "globalalerts", "list", "--insecure")
	if code != 0 || stdout != "" || !strings.Contains(stderr, "Warning: TLS certificate verification is disabled") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, _, stderr := run(t, srv.URL, "globalalerts", "list"); strings.Contains(stderr, "Warning") {
		t.Errorf("warned without --insecure: %q", stderr)
	}
}

func TestVersionAsJSON(t *testing.T) {
	code, out, stderr := run(t, "http://x", "version", "-o", "json")
	var info map[string]string
	if code != 0 || json.Unmarshal([]byte(out), &info) != nil || info["version"] != build.Version || info["commit"] != build.Commit {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, out, _ = run(t, "http://x", "version", "--jq", ".version")
	if code != 0 || out != build.Version+"\n" {
		t.Errorf("--jq .version: exit %d, stdout %q", code, out)
	}
}

func TestTimeoutSaysWhichFlagWaits(t *testing.T) {
	err := timeoutError(fmt.Errorf("GET http://om:8080/api/public/v1.0/groups: %w", context.DeadlineExceeded), 5*time.Second)
	if want := "GET http://om:8080/api/public/v1.0/groups: no answer within 5s (--request-timeout sets how long to wait for each request)"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	other := errors.New("GET http://om: connection refused")
	if timeoutError(other, time.Second) != other {
		t.Error("a failure that is not a timeout was reworded")
	}
}

// A server that feeds pages for ever (a totalCount of 10^12) is stopped
// by --timeout, the limit of the whole command, with whole lines printed
// and a message that says so; --request-timeout bounds each request.
func TestTimeoutBoundsTheWholeCommand(t *testing.T) {
	var slow atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if slow.Load() {
			time.Sleep(time.Second)
		}
		page := r.URL.Query().Get("pageNum")
		var items []string
		for i := range 100 {
			items = append(items, fmt.Sprintf(`{"id":"%s-%d","status":"OPEN"}`, page, i))
		}
		fmt.Fprintf(w, `{"results":[%s],"totalCount":1000000000000,"links":[]}`, strings.Join(items, ","))
	}))
	defer srv.Close()
	start := time.Now()
	code, out, stderr := run(t, srv.URL, "alerts", "list", "--all", "-o", "jsonl", "--limit", "100", "--timeout", "500ms")
	if took := time.Since(start); code != 1 || took > 5*time.Second {
		t.Fatalf("exit %d after %s; stderr %s", code, took, stderr)
	}
	if !strings.Contains(stderr, "stopped: the command ran for its --timeout of 500ms") || goInternals.MatchString(stderr) {
		t.Errorf("stderr = %q", stderr)
	}
	if lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); len(lines) < 100 || !strings.HasSuffix(out, "}\n") {
		t.Errorf("%d lines, ending %q", len(lines), out[max(0, len(out)-20):])
	}
	slow.Store(true)
	code, _, stderr = run(t, srv.URL, "alerts", "list", "--request-timeout", "200ms", "--retries", "0")
	if code != 1 || !strings.Contains(stderr, "no answer within 200ms (--request-timeout") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
