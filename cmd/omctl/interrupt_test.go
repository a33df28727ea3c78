package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/server"
	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/demo"
)

// Ctrl-C during --all: exit 130, stdout holds whole lines of the items
// that had arrived, and stderr says how many were not fetched.
func TestInterruptDuringAllExits130WithWholeLines(t *testing.T) {
	stuck := make(chan struct{}, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page := r.URL.Query().Get("pageNum")
		if page != "1" && page != "2" {
			stuck <- struct{}{}
			<-r.Context().Done() // answered never: the run must be interrupted
			return
		}
		var items []string
		for i := range 300 {
			items = append(items, fmt.Sprintf(`{"id":"p%si%d","pad":"%s"}`, page, i, strings.Repeat("x", 200)))
		}
		fmt.Fprintf(w, `{"results":[%s],"totalCount":1500}`, strings.Join(items, ","))
	}))
	defer srv.Close()
	cmd := exec.Command("omctl", "alerts", "list", "--all", "--limit", "300", "-o", "jsonl")
	cmd.Env = append(os.Environ(), "OMCTL_BASE_URL="+srv.URL, "OMCTL_PUBLIC_KEY=k", "OMCTL_PRIVATE_KEY=s",
		"OMCTL_PROJECT_ID=5e2b0c2e8f9d4b0012340002", "OMCTL_CONFIG_DIR="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	<-stuck
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != 130 {
		t.Errorf("exit: %v, want 130", err)
	}
	out := stdout.Bytes()
	printed := bytes.Count(out, []byte("\n"))
	if want := fmt.Sprintf("The list stopped before its end: %d items printed, %d of 1500 were not fetched.\n", printed, 1500-printed); stderr.String() != want {
		t.Errorf("stderr: %q, want %q", stderr.String(), want)
	}
	if len(out) > 0 && out[len(out)-1] != '\n' {
		t.Errorf("stdout ends within a line: %q", out[max(0, len(out)-40):])
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	for i, l := range lines {
		if len(out) > 0 && !strings.HasPrefix(l, fmt.Sprintf(`{"id":"p%di%d",`, 1+i/300, i%300)) {
			t.Fatalf("line %d is %q", i, l)
		}
	}
}

// runUntil starts omctl with args against base, calls ready (which returns
// when the run is where the test wants it), sends sig, and returns the
// exit code, stdout and stderr.
func runUntil(t *testing.T, base string, stdin string, ready func(), sig os.Signal, args ...string) (int, string, string) {
	t.Helper()
	return runUntilAs(t, []string{"OMCTL_BASE_URL=" + base, "OMCTL_PUBLIC_KEY=k", "OMCTL_PRIVATE_KEY=s",
		"OMCTL_PROJECT_ID=5e2b0c2e8f9d4b0012340002"}, stdin, ready, sig, args...)
}

func runUntilAs(t *testing.T, env []string, stdin string, ready func(), sig os.Signal, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command("omctl", args...)
	cmd.Env = append(append(os.Environ(), env...), "OMCTL_CONFIG_DIR="+t.TempDir(), "GORACE=atexit_sleep_ms=0")
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready()
	cmd.Process.Signal(sig)
	err := cmd.Wait()
	code := 0
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		code = exitErr.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stdout.String(), stderr.String()
}

// Ctrl-C or SIGTERM during `alerts wait` is an interruption, not the
// --max-wait running out: exit 130 and no error line.
func TestInterruptDuringWaitExits130(t *testing.T) {
	for _, sig := range []os.Signal{syscall.SIGINT, syscall.SIGTERM} {
		polled := make(chan struct{}, 100)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `{"id":"5f1a0c2e8f9d4b0012345678","status":"OPEN"}`)
			polled <- struct{}{}
		}))
		code, stdout, stderr := runUntil(t, srv.URL, "", func() { <-polled }, sig,
			"alerts", "wait", "5f1a0c2e8f9d4b0012345678", "--for-status", "CLOSED", "--interval", "50ms")
		srv.Close()
		if code != 130 || stderr != "" || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 130 and nothing printed", sig, code, stdout, stderr)
		}
	}
}

// Ctrl-C ends `alerts list --watch` with 130 and whole lines, piped.
func TestInterruptDuringWatchExits130WithWholeLines(t *testing.T) {
	polls := make(chan struct{}, 100)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"results":[{"id":"5f1a0c2e8f9d4b0012345678","status":"OPEN"}],"totalCount":1}`)
		polls <- struct{}{}
	}))
	defer srv.Close()
	code, stdout, stderr := runUntil(t, srv.URL, "", func() { <-polls; <-polls }, syscall.SIGINT,
		"alerts", "list", "--watch", "--interval", "20ms", "-o", "jsonl")
	if code != 130 || stderr != "" {
		t.Errorf("exit %d, stderr %q; want 130 and no message", code, stderr)
	}
	if stdout != `{"id":"5f1a0c2e8f9d4b0012345678","status":"OPEN"}`+"\n" {
		t.Errorf("stdout %q: want the alert once, as a whole line", stdout)
	}
}

// Ctrl-C during `alerts ack -` of 20 alerts on a slow server: no request
// starts after it, those in flight are reported interrupted, the rest not
// started, apart from those done; exit 130 with no error line.
func TestInterruptDuringBulkAckReportsNotStarted(t *testing.T) {
	var mu sync.Mutex
	answered := 0
	stuck := make(chan struct{}, 100)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead { // the client asking the server's time
			return
		}
		mu.Lock()
		answered++
		n := answered
		mu.Unlock()
		io.Copy(io.Discard, r.Body) // else the server never sees the client go
		if n > 4 {
			stuck <- struct{}{}
			<-r.Context().Done()
			return
		}
		id := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
		fmt.Fprintf(w, `{"id":%q,"status":"OPEN","acknowledgedUntil":"2030-01-01T00:00:00Z"}`, id)
	}))
	defer srv.Close()
	var ids []string
	for i := range 20 {
		ids = append(ids, fmt.Sprintf("5f1a0c2e8f9d4b00123456%02d", i))
	}
	code, stdout, stderr := runUntil(t, srv.URL, strings.Join(ids, "\n")+"\n", func() {
		for range 8 { // every worker busy
			<-stuck
		}
		// With --comment no alert is read first: one request an alert.
	}, syscall.SIGINT, "alerts", "ack", "-", "--until", "2030-01-01T00:00:00Z", "--comment", "maintenance")
	if code != 130 {
		t.Errorf("exit %d, want 130", code)
	}
	if strings.Contains(stderr, "Error") || !strings.Contains(stderr, "Interrupted: of 20 alerts, 4 done, 0 failed, 8 interrupted in flight (may or may not have been applied), 8 not started.") {
		t.Errorf("stderr %q", stderr)
	}
	outcomes := map[string]int{}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	for i, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) != 3 || f[0] != ids[i] {
			t.Fatalf("line %d is %q", i, l)
		}
		outcomes[f[1]]++
	}
	if outcomes["acknowledged"] != 4 || outcomes["interrupted"] != 8 || outcomes["not started"] != 8 {
		t.Errorf("outcomes %v in %q", outcomes, stdout)
	}
	mu.Lock()
	defer mu.Unlock()
	if answered != 12 {
		t.Errorf("the server saw %d requests, want 12: none may start after the interruption", answered)
	}
}

// Ctrl-C during apply: the write in flight is reported interrupted, the
// documents after it not started, and no write starts after the signal.
func TestInterruptDuringApplyReportsNotStarted(t *testing.T) {
	now := time.Now().UTC().Truncate(time.Minute)
	s, err := server.New(server.Options{Fixtures: demo.Fixtures(now), Clock: store.VirtualClock(now)})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	posts := 0
	stuck := make(chan struct{}, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Header.Get("Authorization") != "" {
			mu.Lock()
			posts++
			n := posts
			mu.Unlock()
			if n > 1 {
				io.Copy(io.Discard, r.Body)
				stuck <- struct{}{}
				<-r.Context().Done()
				return
			}
		}
		s.ServeHTTP(w, r)
	}))
	defer srv.Close()
	var docs []string
	for _, name := range []string{"first", "second", "third"} {
		docs = append(docs, "kind: AlertConfig\nname: "+name+"\neventTypeName: HOST_DOWN\nenabled: true\n"+
			"notifications:\n  - {typeName: GROUP, intervalMin: 5, delayMin: 0, emailEnabled: true}\n")
	}
	file := filepath.Join(t.TempDir(), "configs.yaml")
	if err := os.WriteFile(file, []byte(strings.Join(docs, "---\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runUntilAs(t, []string{"OMCTL_BASE_URL=" + srv.URL, "OMCTL_PUBLIC_KEY=demoowner",
		"OMCTL_PRIVATE_KEY=11111111-aaaa-4bbb-8ccc-000000000001", "OMCTL_PROJECT_ID=" + demo.ProjectID},
		"", func() { <-stuck }, syscall.SIGINT, "apply", "-f", file)
	if code != 130 || strings.Contains(stderr, "Error") {
		t.Errorf("exit %d, stderr %q; want 130 and no error line", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "created AlertConfig first") ||
		!strings.HasPrefix(lines[1], "interrupted AlertConfig second") || lines[2] != "not started AlertConfig third" {
		t.Errorf("stdout %q", stdout)
	}
	if !strings.Contains(stderr, "Interrupted: 1 written, 1 interrupted in flight (may or may not have been applied), 1 not started.") {
		t.Errorf("stderr %q", stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if posts != 2 {
		t.Errorf("%d writes reached the server, want 2", posts)
	}
}
