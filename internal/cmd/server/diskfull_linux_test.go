//go:build linux

package server

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// fullDisk mounts a small tmpfs for the test, so that a state file on it
// meets a really full disk; it skips the test where mounting is not
// allowed (not root, or in a container without the right).
func fullDisk(t *testing.T, size string) string {
	t.Helper()
	omctlBinary(t) // skipped in -short before mounting anything
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size+",mode=0700"); err != nil {
		t.Skipf("the disk-full probe needs a tmpfs, which cannot be mounted here (%v): run the tests as root to include it", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// fill writes a file in dir until the disk is full and returns its path.
func fill(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return path
		}
	}
}

// free gives back n bytes of the filler.
func free(t *testing.T, filler string, n int64) {
	t.Helper()
	info, err := os.Stat(filler)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filler, max(0, info.Size()-n)); err != nil {
		t.Fatal(err)
	}
}

// On a full disk, a write answered 500 is not applied: no reader sees it,
// before or after a restart, and the next successful commit does not
// bring it back. Writes work again once a tenth of the state's size is
// free, without a restart, and nothing half-written is left beside the
// state file.
func TestWritesOnAFullDiskAreNotApplied(t *testing.T) {
	dir := fullDisk(t, "8m")
	state := filepath.Join(dir, "state.db")
	p := startBinary(t, "--state", state)
	defer func() { p.kill(t) }()
	post := func(id string) int {
		code, body, err := p.do("POST", "/admin/backup/oplog/s3Configs", storeBody(id))
		if err != nil {
			t.Fatalf("POST %s: %v", id, err)
		}
		if code != 200 && code != 500 {
			t.Fatalf("POST %s: %d %s", id, code, body)
		}
		return code
	}
	var answered, refused []string
	var mu sync.Mutex
	record := func(id string, code int) {
		mu.Lock()
		defer mu.Unlock()
		if code == 200 {
			answered = append(answered, id)
		} else {
			refused = append(refused, id)
		}
	}
	// Some data first, written by four writers at once.
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 150 {
				id := fmt.Sprintf("seed-w%d-%d", w, i)
				record(id, post(id))
			}
		}()
	}
	wg.Wait()
	if len(refused) > 0 {
		t.Fatalf("writes refused before the disk was full: %v", refused)
	}
	info, err := os.Stat(state)
	if err != nil {
		t.Fatal(err)
	}
	filler := fill(t, dir)
	for i := 0; i < 400 && len(refused) < 10; i++ {
		id := fmt.Sprintf("full-%d", i)
		record(id, post(id))
	}
	if len(refused) == 0 {
		t.Fatal("no write was refused on a full disk: the probe did not probe")
	}
	if code, body, _ := p.control("POST", "reset", ""); code != 500 {
		t.Errorf("a reset on a full disk: %d %s", code, body)
	}
	check := func(when string) {
		t.Helper()
		for _, id := range refused {
			if code, _, _ := p.do("GET", "/admin/backup/oplog/s3Configs/"+id, ""); code != 404 {
				t.Errorf("%s: store %s, whose write was answered 500, answers %d", when, id, code)
			}
		}
		for _, id := range answered {
			if code, _, _ := p.do("GET", "/admin/backup/oplog/s3Configs/"+id, ""); code != 200 {
				t.Errorf("%s: store %s, whose write was answered 200, answers %d", when, id, code)
			}
		}
	}
	t.Logf("%d writes answered, %d refused on the full disk; the state file is %d bytes", len(answered), len(refused), info.Size())
	check("on the full disk")

	free(t, filler, info.Size()/10)
	for i := range 10 {
		id := fmt.Sprintf("freed-%d", i)
		if code := post(id); code != 200 {
			t.Errorf("write %d of 10 with a tenth of the state's size (%d bytes) free: %d", i+1, info.Size()/10, code)
		}
		record(id, 200)
	}
	check("once space was freed")
	p.kill(t)
	p = startBinary(t, "--state", state)
	check("after a SIGKILL and a restart")
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if name := e.Name(); name != "state.db" && name != "filler" {
			t.Errorf("left beside the state file: %s", name)
		}
	}
}

// A first start on a full disk stops with a message and leaves no state
// file behind, so that the next start is a first start.
func TestAFirstStartOnAFullDiskLeavesNothingBehind(t *testing.T) {
	dir := fullDisk(t, "1m")
	filler := fill(t, dir)
	state := filepath.Join(dir, "state.db")
	code, msg := stoppedAtStart(t, "--state", state)
	if code != 1 || !strings.Contains(msg, state) {
		t.Errorf("a first start on a full disk: exit %d: %s", code, msg)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "filler" {
			t.Errorf("a start that failed left %s behind", e.Name())
		}
	}
	os.Remove(filler)
	p := startBinary(t, "--state", state)
	defer p.kill(t)
	if code, body, _ := p.do("POST", "/admin/backup/oplog/s3Configs", storeBody("after")); code != 200 {
		t.Errorf("a write after the disk was freed: %d %s", code, body)
	}
}
