package server

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// certDirPrefix begins the name of the directory that holds a
// --tls-self-signed server's certificate: one a process, named after its
// pid, in the system's temporary directory. A server that stops removes
// its own; one killed (SIGKILL) cannot, so each start with
// --tls-self-signed removes those of processes that are gone.
const certDirPrefix = "omctl-server-tls-"

// makeCertDir makes this process's certificate directory, after removing
// those that killed servers left.
func makeCertDir() (string, error) {
	removeDeadCertDirs(os.TempDir())
	return os.MkdirTemp("", fmt.Sprintf("%s%d-", certDirPrefix, os.Getpid()))
}

// removeDeadCertDirs removes the certificate directories in tmp whose
// process has ended. Those of other users stay: they cannot be removed.
func removeDeadCertDirs(tmp string) {
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), certDirPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		digits, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(digits)
		if err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		os.RemoveAll(filepath.Join(tmp, e.Name()))
	}
}
