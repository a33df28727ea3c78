package server

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A first start killed with SIGKILL at any point, from before the state
// file exists to after its seed is in place, never blocks the next start:
// the next start finds no state file, or a whole one, and nothing of the
// cut start is left beside it once a start has run.
func TestAFirstStartCutShortNeverBlocksTheNext(t *testing.T) {
	bin := omctlBinary(t)
	dir := t.TempDir()
	state := filepath.Join(dir, "s.db")
	// Kills at times from the start of the process, and at times from the
	// moment a file appears beside the state file: the state file itself,
	// or the one a first start makes to put there.
	var points []killPoint
	for _, ms := range []int{0, 2, 4, 6, 7, 8, 10, 12, 15, 20, 30, 45, 60, 80, 100, 150, 250, 400} {
		points = append(points, killPoint{after: time.Duration(ms) * time.Millisecond})
	}
	for _, us := range []int{0, 0, 0, 50, 100, 200, 300, 500, 800, 1200, 2000, 3000, 5000, 8000, 12000, 20000, 40000} {
		points = append(points, killPoint{onFile: true, after: time.Duration(us) * time.Microsecond})
	}
	for i, at := range points {
		if err := os.Remove(state); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "server", "--demo", "--state", state, "--listen", "127.0.0.1:0", "--quiet")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		at.wait(dir)
		cmd.Process.Kill()
		cmd.Wait()
		left, _ := os.ReadDir(dir)
		t.Logf("kill %d (%v) left %v", i, at, names(left))
		code, msg := startAndStop(t, bin, state)
		if code != 0 {
			t.Fatalf("kill %d (%v): the next start failed with exit %d: %s\n(the cut start left %v)", i, at, code, msg, names(left))
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 1 || left[0].Name() != "s.db" {
		t.Errorf("beside the state file after a whole start: %v", names(left))
	}
}

// killPoint is when to kill a start: after a time from the start of the
// process, or from the moment a file appears in the state file's directory.
type killPoint struct {
	onFile bool
	after  time.Duration
}

func (k killPoint) String() string {
	if k.onFile {
		return fmt.Sprintf("%v after a file appeared", k.after)
	}
	return fmt.Sprintf("%v after the start", k.after)
}

func (k killPoint) wait(dir string) {
	if k.onFile {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
			if entries, _ := os.ReadDir(dir); len(entries) > 0 {
				break
			}
		}
	}
	if k.after > 0 {
		time.Sleep(k.after)
	}
}

// startAndStop starts `omctl server --state state` and stops it once it
// has printed its URL: the exit status is 0 for a start that worked.
func startAndStop(t *testing.T, bin, state string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, "server", "--state", state, "--listen", "127.0.0.1:0", "--quiet")
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line := make([]byte, 8)
	done := make(chan error, 1)
	go func() {
		_, err := stdout.Read(line) // the URL: the server serves
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil && strings.HasPrefix(string(line), "http") {
			cmd.Process.Signal(os.Interrupt)
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
	}
	cmd.Wait()
	return cmd.ProcessState.ExitCode(), stderr.String()
}

func names(entries []os.DirEntry) []string {
	var out []string
	for _, e := range entries {
		info, _ := e.Info()
		size := int64(-1)
		if info != nil {
			size = info.Size()
		}
		out = append(out, fmt.Sprintf("%s (%d bytes)", e.Name(), size))
	}
	return out
}

// The directory of a --tls-self-signed certificate that a SIGKILL left
// behind is removed by the next start with --tls-self-signed; those of
// servers still running stay.
func TestASelfSignedCertificateLeftByAKilledServerIsRemoved(t *testing.T) {
	omctlBinary(t) // built before TMPDIR moves
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	certDirs := func() []string {
		var dirs []string
		entries, _ := os.ReadDir(tmp)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), "omctl-server-tls-") {
				dirs = append(dirs, e.Name())
			}
		}
		return dirs
	}
	running := startBinary(t, "--tls-self-signed")
	defer running.kill(t)
	killed := startBinary(t, "--tls-self-signed")
	killed.kill(t)
	if before := certDirs(); len(before) != 2 {
		t.Fatalf("the two servers left %v", before)
	}
	next := startBinary(t, "--tls-self-signed")
	defer next.kill(t)
	left := certDirs()
	for _, p := range []*process{running, next} {
		if !slices.ContainsFunc(left, func(name string) bool {
			return strings.HasPrefix(name, fmt.Sprintf("omctl-server-tls-%d-", p.cmd.Process.Pid))
		}) {
			t.Errorf("the directory of a running server is gone: %v", left)
		}
	}
	if len(left) != 2 {
		t.Errorf("after a start, %v are left; want the running servers' two", left)
	}
}
