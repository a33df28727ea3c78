package config

import (
	"fmt"
	"io"
	"os"
	"runtime"
)

// ExposedMode reports the permission bits of path when users other than
// its owner may read or write it; ok is false when they may not, when the
// file is missing, and on Windows, where the bits say nothing of access.
func ExposedMode(path string) (mode os.FileMode, ok bool) {
	if runtime.GOOS == "windows" {
		return 0, false
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm()&0o077 == 0 {
		return 0, false
	}
	return st.Mode().Perm(), true
}

// WarnIfExposed writes one line to w when path, which holds what (a
// private key, API keys), may be read by other users, with the command
// that fixes it, as ssh does for a key file. It is said on every use,
// since every use is a chance for another user to read the file.
func WarnIfExposed(w io.Writer, path, what string) {
	if w == nil {
		return
	}
	if mode, ok := ExposedMode(path); ok {
		fmt.Fprintf(w, "Warning: %s holds %s and other users may read it (mode %04o); fix it with: chmod 600 %s\n", path, what, mode, path)
	}
}

// HoldsSecret reports whether any profile of f keeps a secret in the file.
func (f *File) HoldsSecret() bool {
	for _, p := range f.Profiles {
		for _, k := range SecretKeys() {
			if k.get(p) != "" {
				return true
			}
		}
	}
	return false
}
