//go:build unix

package server

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A state path that is not a regular file (a named pipe here) is refused
// as such, without reading from it.
func TestAStatePathThatIsNotAFileIsRefused(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "state.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	code, msg := stoppedAtStart(t, "--state", fifo)
	if code != 1 || !strings.Contains(msg, fifo+": is not a regular file") {
		t.Errorf("exit %d: %s", code, msg)
	}
}
