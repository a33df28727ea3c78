package main

import (
	"bufio"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/zalando/go-keyring"

	"github.com/omctl/omctl/internal/cmd/root"
	"github.com/omctl/omctl/omtest"
)

// asOmctl in the environment makes the test binary run omctl itself, with
// the machine's credential store: the keyring and terminal tests run it
// so, where the stories' omctl has none.
const asOmctl = "OMCTL_TEST_BINARY_IS_OMCTL"

func TestMain(m *testing.M) {
	if os.Getenv(asOmctl) == "1" {
		os.Exit(root.Main())
	}
	testscript.Main(m, map[string]func(){
		"omctl": func() {
			// Each omctl of a story is a process of its own, so an
			// in-memory store would forget a key between two lines; with
			// none answering, stories see the file fallback on every OS
			// and never touch the credential store of the machine.
			// make test-keyring tests the real one.
			keyring.MockInitWithError(errors.New("no credential store in the stories"))
			os.Exit(root.Main())
		},
	})
}

// TestScripts runs the user stories of testdata/script against a fresh
// in-process server with the demo data, as the demo's global owner.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("..", "..", "testdata", "script"),
		Setup: func(env *testscript.Env) error {
			// A virtual clock near real time: omctl reads the real clock for
			// --until 4h, and time on the server moves only when a script says.
			scriptClock := time.Now().UTC().Truncate(time.Minute)
			// Started through omtest, as users' own tests start it; the
			// script's test closes it once the script is done.
			srv := omtest.NewServer(env.T().(testing.TB), omtest.WithDemo(), omtest.WithClock(scriptClock))
			env.Values["server"] = srv
			env.Values["hooks"] = &hookReceiver{}
			env.Setenv("OMCTL_BASE_URL", srv.URL())
			env.Setenv("OMCTL_PUBLIC_KEY", srv.PublicKey())
			env.Setenv("OMCTL_PRIVATE_KEY", srv.PrivateKey())
			env.Setenv("OMCTL_PROJECT_ID", srv.ProjectID())
			env.Setenv("OMCTL_ORG_ID", srv.OrgID())
			env.Setenv("OMCTL_CONFIG_DIR", filepath.Join(env.WorkDir, ".config"))
			env.Setenv("NO_COLOR", "1")
			// A year whose first day is over two years from the machine's
			// time, for stories of a server whose clock is far from it.
			env.Setenv("FAR_YEAR", strconv.Itoa(time.Now().Year()+3))
			docs, err := filepath.Abs(filepath.Join("..", "..", "docs"))
			if err != nil {
				return err
			}
			env.Setenv("DOCS", docs)
			// Each omctl of a story is a process of its own, built with the
			// race detector when the tests are; its default wait of a
			// second at exit would make the stories minutes long.
			env.Setenv("GORACE", "atexit_sleep_ms=0")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"source":   source,
			"exits":    exits,
			"sleep":    sleep,
			"advance":  advance,
			"waitfile": waitfile,
			"webhook":  webhook,
		},
	})
}

// source FILE sets the environment from KEY=VALUE lines (as `omctl ...
// --jq` can print them), standing in for shell command substitution.
func source(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: source FILE")
	}
	sc := bufio.NewScanner(strings.NewReader(ts.ReadFile(args[0])))
	for sc.Scan() {
		line := strings.TrimPrefix(strings.TrimSpace(sc.Text()), "export ")
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		ts.Setenv(k, strings.Trim(v, `'"`))
	}
}

// exits N PROGRAM ARGS... runs a program and checks its exit code, for the
// codes omctl documents (2 usage, 3 not found, 4 authentication).
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %q is not an exit code", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		got = exitErr.ExitCode()
	case err != nil:
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// sleep DURATION pauses the script, to let a background command work.
func sleep(ts *testscript.TestScript, neg bool, args []string) {
	d, err := time.ParseDuration(strings.Join(args, ""))
	if neg || err != nil {
		ts.Fatalf("usage: sleep DURATION")
	}
	time.Sleep(d)
}

// advance DURATION moves the in-process server's virtual clock, as
// POST /_omctl/clock does: what falls due is sent before it returns.
func advance(ts *testscript.TestScript, neg bool, args []string) {
	d, err := time.ParseDuration(strings.Join(args, ""))
	if neg || err != nil {
		ts.Fatalf("usage: advance DURATION")
	}
	ts.Value("server").(*omtest.Server).Advance(d)
}

// waitfile FILE waits up to ten seconds for a background command to write FILE.
func waitfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfile FILE")
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if st, err := os.Stat(ts.MkAbs(args[0])); err == nil && st.Size() > 0 {
			return
		}
	}
	ts.Fatalf("%s did not appear", args[0])
}

// hookReceiver is a story's webhook receiver.
type hookReceiver struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []hookDelivery
}

type hookDelivery struct {
	event, signature string
	body             []byte
}

// webhook start FILE... starts a receiver and writes its URL in place of
// HOOK_URL in each FILE; webhook wait N waits (up to ten seconds) for N
// deliveries; webhook events prints each delivery's X-MMS-Event, a line
// each, then how many there were; webhook verify SECRET fails unless every delivery is signed with
// SECRET (base64 HMAC-SHA1 of the body).
func webhook(ts *testscript.TestScript, neg bool, args []string) {
	h := ts.Value("hooks").(*hookReceiver)
	if neg || len(args) == 0 {
		ts.Fatalf("usage: webhook start FILE... | wait N | events | verify SECRET")
	}
	switch args[0] {
	case "start":
		h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			h.mu.Lock()
			h.got = append(h.got, hookDelivery{r.Header.Get("X-MMS-Event"), r.Header.Get("X-MMS-Signature"), body})
			h.mu.Unlock()
		}))
		ts.Defer(h.srv.Close)
		for _, f := range args[1:] {
			ts.Check(os.WriteFile(ts.MkAbs(f), []byte(strings.ReplaceAll(ts.ReadFile(f), "HOOK_URL", h.srv.URL+"/hook")), 0o644))
		}
	case "wait":
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			h.mu.Lock()
			got := len(h.got)
			h.mu.Unlock()
			if got >= n {
				return
			}
			if time.Now().After(deadline) {
				ts.Fatalf("%d webhook deliveries, want %d", got, n)
			}
		}
	case "events":
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, d := range h.got {
			fmt.Fprintln(ts.Stdout(), d.event)
		}
		fmt.Fprintf(ts.Stdout(), "%d deliveries\n", len(h.got))
	case "verify":
		h.mu.Lock()
		defer h.mu.Unlock()
		for i, d := range h.got {
			mac := hmac.New(sha1.New, []byte(args[1]))
			mac.Write(d.body)
			if d.signature != base64.StdEncoding.EncodeToString(mac.Sum(nil)) {
				ts.Fatalf("delivery %d (%s) is not signed with the secret", i, d.event)
			}
		}
	default:
		ts.Fatalf("usage: webhook start FILE... | wait N | events | verify SECRET")
	}
}
