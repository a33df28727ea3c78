package main

import (
	"bufio"
	"errors"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/omctl/omctl/internal/cmd/root"
	"github.com/omctl/omctl/internal/server"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"omctl": func() { os.Exit(root.Main()) },
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
			s, err := server.New(server.Options{Fixtures: server.DemoFixtures(scriptClock), Clock: server.VirtualClock(scriptClock)})
			if err != nil {
				return err
			}
			ts := httptest.NewServer(s)
			env.Defer(ts.Close)
			env.Values["server"] = s
			env.Setenv("OMCTL_BASE_URL", ts.URL)
			env.Setenv("OMCTL_PUBLIC_KEY", "demoowner")
			env.Setenv("OMCTL_PRIVATE_KEY", "11111111-aaaa-4bbb-8ccc-000000000001")
			env.Setenv("OMCTL_PROJECT_ID", server.DemoProjectID)
			env.Setenv("OMCTL_ORG_ID", server.DemoOrgID)
			env.Setenv("OMCTL_CONFIG_DIR", filepath.Join(env.WorkDir, ".config"))
			env.Setenv("NO_COLOR", "1")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"source":   source,
			"exits":    exits,
			"sleep":    sleep,
			"advance":  advance,
			"waitfile": waitfile,
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

// advance DURATION moves the in-process server's virtual clock.
func advance(ts *testscript.TestScript, neg bool, args []string) {
	d, err := time.ParseDuration(strings.Join(args, ""))
	if neg || err != nil {
		ts.Fatalf("usage: advance DURATION")
	}
	ts.Value("server").(*server.Server).Clock().Advance(d)
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
