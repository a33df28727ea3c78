package root

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/prompt"
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
