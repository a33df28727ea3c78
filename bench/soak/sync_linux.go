package main

import (
	"fmt"
	"os"
	"syscall"
)

// syncData syncs what f holds, not its times, as the server's state file
// is synced: an overwrite then costs the disk no journal commit of its
// own, so the probe does not slow the server's syncs.
func syncData(f *os.File) error { return syscall.Fdatasync(int(f.Fd())) }

// fileSystem names the file system dir is on, as far as it matters to a
// soak: tmpfs, in memory, syncs at once.
func fileSystem(dir string) string {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return err.Error()
	}
	if st.Type == 0x01021994 {
		return "tmpfs: in memory, syncs cost nothing"
	}
	return fmt.Sprintf("a disk, file system type %#x", st.Type)
}
