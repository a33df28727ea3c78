//go:build unix

package statelog

import (
	"os"
	"syscall"
)

// inUse reports whether a process holds the file open and locked, as
// bbolt locks the files it opens (flock): a start making it still runs.
func inUse(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return err == syscall.EWOULDBLOCK
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}
