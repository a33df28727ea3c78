package main

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// Ctrl-C during --all: exit 130, nothing on stderr, and stdout holds whole
// lines of the items that had arrived.
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
	if stderr.Len() > 0 {
		t.Errorf("stderr: %q", stderr.String())
	}
	out := stdout.Bytes()
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
