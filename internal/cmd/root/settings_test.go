package root

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/prompt"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

// The --insecure warning names where the setting came from: a forgotten
// variable is what the user has to find.
func TestInsecureWarningNamesItsSource(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, `{"results":[],"totalCount":0}`)
	t.Setenv("OMCTL_INSECURE", "true")
	_, _, stderr := run(t, srv.URL, "alerts", "list")
	if !strings.Contains(stderr, "Warning: TLS certificate verification is disabled (OMCTL_INSECURE)") {
		t.Errorf("stderr %q", stderr)
	}
}

// --timeout, the whole command's time limit, has a variable (and a
// profile key, config.AllKeys) like every other setting.
func TestTimeoutFromTheEnvironment(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	t.Setenv("OMCTL_TIMEOUT", "300ms")
	t.Setenv("OMCTL_RETRIES", "0")
	start := time.Now()
	code, _, stderr := run(t, srv.URL, "alerts", "list")
	if code != cmdutil.ExitError || !strings.Contains(stderr, "stopped: the command ran for its --timeout of 300ms") || time.Since(start) > 20*time.Second {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	t.Setenv("OMCTL_TIMEOUT", "soon")
	code, _, stderr = run(t, srv.URL, "alerts", "list")
	if code != cmdutil.ExitUsage || !strings.Contains(stderr, `invalid timeout "soon": want a duration`) || !strings.Contains(stderr, "OMCTL_TIMEOUT") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// Every resource group answers to its singular; ids in capitals are
// refused before anything is sent, naming the id meant.
func TestSingularAliasesAndUpperCaseIDs(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alerts", 200, `{"results":[],"totalCount":0}`)
	if code, _, stderr := run(t, srv.URL, "alert", "list"); code != 0 {
		t.Errorf("omctl alert list: exit %d, %s", code, stderr)
	}
	for _, group := range []string{"alertconfig", "globalalert", "globalalertconfig", "backupconfig", "snapshot", "oplogstore", "snapshotstore", "apikey"} {
		if code, stdout, _ := run(t, srv.URL, group, "--help"); code != 0 || !strings.Contains(stdout, "Usage:") {
			t.Errorf("omctl %s --help: exit %d", group, code)
		}
	}
	code, _, stderr := run(t, srv.URL, "alerts", "describe", "5F1A0C2E8F9D4B0012345678")
	if code != cmdutil.ExitUsage || !strings.Contains(stderr, "ids are lower-case hexadecimal; did you mean 5f1a0c2e8f9d4b0012345678?") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// The --timeout error names the request it stopped when the error is one,
// and nothing made up when it is not (a wait, a bulk action, apply).
func TestCommandTimeoutErrorKeepsOnlyARequestLine(t *testing.T) {
	for in, want := range map[string]string{
		"GET https://h/api/public/v1.0/groups/x/alerts: context deadline exceeded":  "GET https://h/api/public/v1.0/groups/x/alerts: stopped: the command ran for its --timeout of 2s",
		"the command's --timeout passed":                                            "stopped: the command ran for its --timeout of 2s",
		"timed out after 10m0s waiting for alert a to be CLOSED (last status: OPEN": "stopped: the command ran for its --timeout of 2s",
	} {
		if got := commandTimeoutError(errors.New(in), 2*time.Second).Error(); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

// Ctrl-C at a prompt ends like Ctrl-C anywhere: exit 130, no message.
func TestACancelledPromptExits130Silently(t *testing.T) {
	for _, err := range []error{prompt.ErrCancelled, fmt.Errorf("picking alerts: %w", prompt.ErrCancelled), cmdutil.ErrInterrupted} {
		if code, silent := silentExit(context.Background(), err); code != cmdutil.ExitInterrupted || !silent {
			t.Errorf("%v: exit %d, silent %v", err, code, silent)
		}
	}
	if _, silent := silentExit(context.Background(), errors.New("boom")); silent {
		t.Error("an error was kept silent")
	}
}

// A value the server, the network or a command refuses names where it
// came from, for every setting: OMCTL_PROJECT_ID=bad is the variable's
// mistake, and a user who forgot it was set learns it from the error.
func TestARefusedSettingNamesWhereItCameFrom(t *testing.T) {
	const unknown = "5e2b0c2e8f9d4b00123400ff"
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/byName/bad", 404, `{"detail":"No group with name \"bad\" exists.","error":404,"errorCode":"GROUP_NAME_NOT_FOUND","parameters":["bad"],"reason":"Not Found"}`)
	srv.Reply("GET", "/groups/"+unknown+"/alerts", 404, `{"detail":"No group with ID `+unknown+` exists.","error":404,"errorCode":"GROUP_NOT_FOUND","parameters":["`+unknown+`"],"reason":"Not Found"}`)
	srv.Reply("GET", "/groups/"+project+"/alertConfigs", 401, `{"error":401,"reason":"Unauthorized","detail":"You are not authorized for this resource."}`)
	srv.Reply("GET", "/orgs/5e1a0c2e8f9d4b00123400ff/apiKeys", 404, `{"detail":"No organization with ID 5e1a0c2e8f9d4b00123400ff exists.","error":404,"errorCode":"ORG_NOT_FOUND","reason":"Not Found"}`)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	emptyFile := filepath.Join(dir, "empty")
	if err := os.WriteFile(emptyFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{map[string]string{"OMCTL_PROJECT_ID": "bad"}, []string{"alerts", "list"}, `project "bad" (from OMCTL_PROJECT_ID; not 24 hexadecimal digits, so read as a name): 404 GROUP_NAME_NOT_FOUND`},
		{map[string]string{"OMCTL_PROJECT_ID": unknown}, []string{"alerts", "list"}, `404 GROUP_NOT_FOUND: No group with ID ` + unknown + ` exists. (project_id "` + unknown + `" from OMCTL_PROJECT_ID)`},
		{nil, []string{"alerts", "list", "--project", unknown}, `(project_id "` + unknown + `" from --project)`},
		{nil, []string{"alertconfigs", "list"}, `401 UNAUTHORIZED: You are not authorized for this resource. (public_key "pub" from OMCTL_PUBLIC_KEY, private_key from OMCTL_PRIVATE_KEY)`},
		{map[string]string{"OMCTL_ORG_ID": "5e1a0c2e8f9d4b00123400ff"}, []string{"apikeys", "list"}, `404 ORG_NOT_FOUND: No organization with ID 5e1a0c2e8f9d4b00123400ff exists. (org_id "5e1a0c2e8f9d4b00123400ff" from OMCTL_ORG_ID)`},
		{map[string]string{"OMCTL_ORG_ID": "5E1A0C2E8F9D4B0012340001"}, []string{"apikeys", "list"}, `did you mean 5e1a0c2e8f9d4b0012340001? (from OMCTL_ORG_ID)`},
		{map[string]string{"OMCTL_BASE_URL": closed}, []string{"alerts", "list"}, `the connection was refused: is the server running, and is the base URL's port right? (base_url "` + closed + `" from OMCTL_BASE_URL)`},
		{map[string]string{"OMCTL_PROFILE": "nope"}, []string{"alerts", "list"}, `profile "nope" (from OMCTL_PROFILE) not found`},
		{map[string]string{"OMCTL_OUTPUT": "yaml"}, []string{"alerts", "list", "--watch"}, `--watch takes -o table or -o jsonl, not -o yaml (output "yaml" from OMCTL_OUTPUT)`},
		{map[string]string{"OMCTL_CA_CERT": emptyFile}, []string{"alerts", "list"}, `holds no PEM certificate (ca_cert from OMCTL_CA_CERT)`},
		{map[string]string{"OMCTL_PRIVATE_KEY": "", "OMCTL_PRIVATE_KEY_FILE": emptyFile}, []string{"alerts", "list"}, `is empty (private_key_file from OMCTL_PRIVATE_KEY_FILE)`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			cmdtest.Env(t, srv.URL, project)
			t.Setenv("OMCTL_RETRIES", "0")
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			ios, _, _, errOut := iostreams.Test()
			if code := Run(tc.args, ios); code == 0 || !strings.Contains(errOut.String(), tc.want) {
				t.Errorf("%v %v: exit %d, stderr %q; want %q", tc.env, tc.args, code, errOut.String(), tc.want)
			}
		})
	}
}
