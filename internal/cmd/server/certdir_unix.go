//go:build unix

package server

import "syscall"

// processAlive reports whether a process with this pid runs (one of
// another user's included).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
