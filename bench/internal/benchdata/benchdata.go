// Package benchdata is what the benchmark programs share: a fixture of N
// alerts and a real `omctl server` started on it.
package benchdata

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The fixture's organization, project and owner key.
const (
	OrgID     = "5e1a0c2e8f9d4b0012340001"
	ProjectID = "5e2b0c2e8f9d4b0012340001"
	PublicKey = "benchowner"
	SecretKey = "11111111-aaaa-4bbb-8ccc-00000000b3c4"
)

// AlertID is the id of the i-th alert of the fixture.
func AlertID(i int) string { return fmt.Sprintf("5f1a%020x", i) }

// WriteFixture writes n alerts of one project, a second apart, shaped like
// the demo's, and returns the file's size.
func WriteFixture(path string, n int) (int64, error) {
	return WriteProjectsFixture(path, 1, n)
}

// ProjectIDOf is the id of the p-th project of a fixture (ProjectID for
// the first).
func ProjectIDOf(p int) string {
	if p == 0 {
		return ProjectID
	}
	return fmt.Sprintf("5e2b%020x", p)
}

// WriteProjectsFixture writes projects projects of perProject alerts each,
// shaped as WriteFixture's, and returns the file's size.
func WriteProjectsFixture(path string, projects, perProject int) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintf(w, `{"orgs":[{"id":%q,"name":"Bench"}],"projects":[`, OrgID)
	for p := range projects {
		if p > 0 {
			w.WriteByte(',')
		}
		fmt.Fprintf(w, `{"id":%q,"name":"bench-%d","orgId":%q}`, ProjectIDOf(p), p, OrgID)
	}
	w.WriteString("],")
	n := projects * perProject
	fmt.Fprintf(w, `"apiKeys":[{"id":"5f4d0c2e8f9d4b0012340001","desc":"bench","publicKey":%q,"privateKey":%q,"roles":[{"roleName":"GLOBAL_OWNER"}]}],"alerts":[`, PublicKey, SecretKey)
	events := []string{"HOST_DOWN", "OUTSIDE_METRIC_THRESHOLD", "REPLICA_SET", "BACKUP", "OPLOG_BEHIND"}
	statuses := []string{"OPEN", "CLOSED", "CLOSED", "TRACKING"}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		if i > 0 {
			w.WriteByte(',')
		}
		created := start.Add(time.Duration(i) * time.Second).Format(time.RFC3339)
		fmt.Fprintf(w, `{"id":%q,"groupId":%q,"eventTypeName":%q,"status":%q,"created":%q,"updated":%q,"lastNotified":%q,"hostnameAndPort":"db-%d.example.com:27017","replicaSetName":"rs%d"}`,
			AlertID(i), ProjectIDOf(i/perProject), events[i%len(events)], statuses[i%len(statuses)], created, created, created, i%50, i%3)
	}
	w.WriteString("]}\n")
	if err := w.Flush(); err != nil {
		return 0, err
	}
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// Server is a running `omctl server`.
type Server struct {
	cmd *exec.Cmd
	// Base is the base URL it printed; Startup how long that took.
	Base    string
	Startup time.Duration
}

// Start runs `omctl server --listen 127.0.0.1:0 --quiet ARGS...` and waits
// for its base URL.
func Start(omctl string, args ...string) (*Server, error) {
	cmd := exec.Command(omctl, append([]string{"server", "--listen", "127.0.0.1:0", "--quiet"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	began := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &Server{cmd: cmd}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		s.Stop()
		return nil, fmt.Errorf("omctl server did not start: %v\n%s", err, stderr.String())
	}
	go io.Copy(io.Discard, out)
	s.Base, s.Startup = strings.TrimSpace(line), time.Since(began)
	return s, nil
}

// Stop stops the server (SIGTERM) and waits for it.
func (s *Server) Stop() {
	if s.cmd.Process != nil && s.cmd.ProcessState == nil {
		s.cmd.Process.Signal(syscall.SIGTERM)
		s.cmd.Wait()
	}
}

// Kill stops the server with SIGKILL, as a crash would, and waits for it.
func (s *Server) Kill() {
	if s.cmd.Process != nil && s.cmd.ProcessState == nil {
		s.cmd.Process.Signal(syscall.SIGKILL)
		s.cmd.Wait()
	}
}

// Memory reads a figure of the server's memory from /proc (VmRSS, VmHWM).
func (s *Server) Memory(field string) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return "?"
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, field+":") {
			kb, _ := strconv.Atoi(strings.Fields(l)[1])
			return fmt.Sprintf("%.0f MiB", float64(kb)/1024)
		}
	}
	return "?"
}
