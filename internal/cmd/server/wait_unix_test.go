//go:build unix

package server

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
)

// Against omctl server itself: while its --apply documents are not in
// (here, a named pipe nobody has written yet), the server listens but
// does not answer, and wait does not return 0; once they are, it does.
func TestWaitReturnsOnlyOnceTheDocumentsAreIn(t *testing.T) {
	pipe := filepath.Join(t.TempDir(), "seed.yaml")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skipf("no named pipe: %v", err)
	}
	free, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := free.Addr().String()
	free.Close()
	ios, _, _, _ := iostreams.Test()
	ios.Out, ios.ErrOut = &lockedBuffer{}, &lockedBuffer{} // the server logs as it serves
	ready := make(chan string, 1)
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); <-done }()
	go func() {
		done <- Run(ctx, &Options{Deps: cmdutil.Deps{IO: ios}, Listen: addr, Keys: []string{"ci:ci-secret"}, Apply: []string{pipe},
			Ready: func(u string) { ready <- u }})
	}()
	err := waitRun(context.Background(), waitOpts("http://"+addr, 500*time.Millisecond, nil))
	if err == nil || !strings.Contains(err.Error(), "did not answer 200 within 500ms") {
		t.Fatalf("before the documents: %v", err)
	}
	go os.WriteFile(pipe, []byte(seedStores), 0o600)
	if err := waitRun(context.Background(), waitOpts("http://"+addr, 10*time.Second, nil)); err != nil {
		t.Fatalf("after the documents: %v", err)
	}
	select {
	case base := <-ready:
		if !storeExists(t, ciClient(t, base), "oplog-ci") {
			t.Error("ready before the documents were in")
		}
	case err := <-done:
		t.Fatalf("server ended: %v", err)
	}
}
