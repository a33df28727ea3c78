package server

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/client"
)

// The durability tests run the real binary, since only a real process can
// be killed with SIGKILL.
var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

func omctlBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and kills the real binary")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "omctl-durability-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "omctl")
		out, err := exec.Command("go", "build", "-o", binPath, "github.com/omctl/omctl/cmd/omctl").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// process is a running `omctl server`.
type process struct {
	cmd    *exec.Cmd
	base   string
	stderr *lockedBuffer
	http   *http.Client
}

// startBinary starts `omctl server ARGS...` and waits for its URL. The
// default data's owner key is the same at every start.
func startBinary(t *testing.T, args ...string) *process {
	t.Helper()
	cmd := exec.Command(omctlBinary(t), append([]string{"server", "--listen", "127.0.0.1:0", "--quiet"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, stderr: &lockedBuffer{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(stdout)
		if s.Scan() {
			line <- s.Text()
		}
		close(line)
		io.Copy(io.Discard, stdout)
	}()
	select {
	case u, ok := <-line:
		if !ok {
			cmd.Wait()
			t.Fatalf("server did not start: %s", p.stderr)
		}
		p.base = u
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("server did not start: %s", p.stderr)
	}
	// The banner follows the URL on standard error.
	for i := 0; i < 500 && !strings.Contains(p.stderr.String(), "roles="); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	pub, priv := ownerKey(t, p.stderr.String())
	p.http = &http.Client{Transport: client.DigestTransport(pub, priv, nil), Timeout: 20 * time.Second}
	return p
}

// ownerKey reads the first credentials of the start-up banner.
func ownerKey(t *testing.T, banner string) (string, string) {
	t.Helper()
	for _, l := range strings.Split(banner, "\n") {
		if f := strings.Fields(l); len(f) >= 3 && strings.HasPrefix(f[2], "roles=") {
			return f[0], f[1]
		}
	}
	t.Fatalf("no credentials in %q", banner)
	return "", ""
}

func (p *process) kill(t *testing.T) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.cmd.Wait()
}

func (p *process) do(method, path, body string) (int, string, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, p.base+path, rd)
	if err != nil {
		return 0, "", err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := p.http.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	return res.StatusCode, string(raw), err
}

// control calls a test control under /_omctl/.
func (p *process) control(method, name, body string) (int, string, error) {
	q := *p
	q.base = strings.TrimSuffix(p.base, "/api/public/v1.0") + "/_omctl/"
	return q.do(method, name, body)
}

func storeBody(id string) string {
	return fmt.Sprintf(`{"id": %q, "acceptedTos": true, "pathStyleAccessEnabled": true, "s3BucketEndpoint": "https://s3.example.com",
	 "s3BucketName": "b", "s3MaxConnections": 5, "sseEnabled": false, "uri": "mongodb://m", "awsSecretKey": "k"}`, id)
}

// Every write answered 2xx survives a SIGKILL that comes right after it,
// with several writers at once, over many cycles.
func TestAnsweredWritesSurviveSIGKILL(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	var answered []string
	const cycles, writers = 6, 4
	for cycle := 0; cycle < cycles; cycle++ {
		p := startBinary(t, "--state", state)
		// What was answered before is all there.
		for _, id := range answered {
			if code, body, err := p.do("GET", "/admin/backup/oplog/s3Configs/"+id, ""); err != nil || code != 200 {
				p.kill(t)
				t.Fatalf("cycle %d: answered store %s is gone: %d %v %s", cycle, id, code, err, body)
			}
		}
		var mu sync.Mutex
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					id := fmt.Sprintf("c%dw%di%d", cycle, w, i)
					code, _, err := p.do("POST", "/admin/backup/oplog/s3Configs", storeBody(id))
					if err == nil && code == 200 {
						mu.Lock()
						answered = append(answered, id)
						mu.Unlock()
					}
				}
			}(w)
		}
		// Kill it while writes are in flight, right after some were answered.
		deadline := time.Now().Add(10 * time.Second)
		for {
			mu.Lock()
			n := len(answered)
			mu.Unlock()
			if n >= (cycle+1)*20 || time.Now().After(deadline) {
				break
			}
			time.Sleep(time.Millisecond)
		}
		p.kill(t)
		close(stop)
		wg.Wait()
	}
	p := startBinary(t, "--state", state)
	defer p.kill(t)
	for _, id := range answered {
		if code, _, _ := p.do("GET", "/admin/backup/oplog/s3Configs/"+id, ""); code != 200 {
			t.Errorf("answered store %s lost", id)
		}
	}
	if len(answered) < cycles*20 {
		t.Errorf("only %d writes were answered", len(answered))
	}
}

// The virtual clock, an acknowledgement and an access list with its
// counters come back after a SIGKILL.
func TestStateKeepsClockAcknowledgementsAndKeys(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	p := startBinary(t, "--state", state, "--demo", "--clock", "2026-03-01T00:00:00Z")
	project := "5e2b0c2e8f9d4b0012340001"
	code, body, err := p.do("GET", "/groups/"+project+"/alerts?status=OPEN&itemsPerPage=1", "")
	if err != nil || code != 200 {
		t.Fatalf("list: %d %v %s", code, err, body)
	}
	i := strings.Index(body, `"id":"`)
	alert := body[i+6 : i+30]
	if code, body, _ := p.do("PATCH", "/groups/"+project+"/alerts/"+alert, `{"acknowledgedUntil": "2026-03-02T00:00:00Z", "acknowledgementComment": "disk"}`); code != 200 {
		t.Fatalf("ack: %d %s", code, body)
	}
	if code, body, _ := p.control("POST", "clock", `{"advance": "90m"}`); code != 200 {
		t.Fatalf("clock: %d %s", code, body)
	}
	p.kill(t)

	p = startBinary(t, "--state", state)
	defer p.kill(t)
	if _, body, _ := p.control("GET", "clock", ""); !strings.Contains(body, "2026-03-01T01:30:00Z") {
		t.Errorf("clock after restart: %s", body)
	}
	if _, body, _ := p.do("GET", "/groups/"+project+"/alerts/"+alert, ""); !strings.Contains(body, `"acknowledgementComment":"disk"`) {
		t.Errorf("acknowledgement after restart: %s", body)
	}
	// Started without fixtures, reset goes back to what the file held then.
	if code, _, _ := p.do("PATCH", "/groups/"+project+"/alerts/"+alert, `{"acknowledgedUntil": null}`); code != 200 {
		t.Fatalf("unack: %d", code)
	}
	if code, body, _ := p.control("POST", "reset", ""); code != 200 {
		t.Fatalf("reset: %d %s", code, body)
	}
	if _, body, _ := p.do("GET", "/groups/"+project+"/alerts/"+alert, ""); !strings.Contains(body, `"acknowledgementComment":"disk"`) {
		t.Errorf("after reset: %s", body)
	}
}

// A file that is not a whole state file of this server stops it with a
// message naming the file, exit status 1, and the file untouched.
func TestBadStateFilesAreRefusedAndKept(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	p := startBinary(t, "--state", good, "--demo")
	p.kill(t)
	whole, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	random := make([]byte, 64<<10)
	rand.Read(random)
	for name, content := range map[string][]byte{
		"truncated.db": whole[:len(whole)/3],
		"random.db":    random,
		"fixture.json": []byte(`{"orgs": [{"id": "5e1a00000000000000000001", "name": "A"}]}`),
		"empty.db":     {},
		"pages.db":     whole[:8192], // just the meta pages
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, content, 0o600); err != nil {
			t.Fatal(err)
		}
		code, msg := stoppedAtStart(t, "--state", path)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1", name, code)
		}
		if !strings.Contains(msg, path) || strings.Contains(msg, "panic") || strings.Contains(msg, "goroutine") {
			t.Errorf("%s: message %q does not name the file plainly", name, msg)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(after, content) {
			t.Errorf("%s: the file was changed", name)
		}
	}
}

// A reset cut short by SIGKILL leaves the data as it was before the reset
// or as the reset made it, never anything else (the default data, or a
// part of the fixtures).
func TestAResetCutShortLeavesTheDataWhole(t *testing.T) {
	dir := t.TempDir()
	const alerts = 30000
	fixture := filepath.Join(dir, "fixture.json")
	var f bytes.Buffer
	project := "5e2b00000000000000000001"
	fmt.Fprintf(&f, `{"orgs": [{"id": "5e1a00000000000000000001", "name": "o"}],
	 "projects": [{"id": %q, "name": "p", "orgId": "5e1a00000000000000000001"}],
	 "apiKeys": [{"id": "5f4d00000000000000000001", "desc": "owner", "publicKey": "resetowner", "privateKey": "11111111-2222-4333-8444-555555555555", "roles": [{"roleName": "GLOBAL_OWNER"}]}],
	 "alerts": [`, project)
	for i := range alerts {
		if i > 0 {
			f.WriteByte(',')
		}
		fmt.Fprintf(&f, `{"id": "%024x", "groupId": %q, "eventTypeName": "HOST_DOWN", "status": "OPEN", "created": "2026-01-01T00:00:00Z", "hostnameAndPort": "db%d:27017"}`, i+1, project, i)
	}
	f.WriteString("]}")
	if err := os.WriteFile(fixture, f.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "state.db")
	total := func(p *process) string {
		code, body, err := p.do("GET", "/groups/"+project+"/alerts?itemsPerPage=1", "")
		if err != nil || code != 200 {
			return fmt.Sprintf("(%d %v %s)", code, err, body)
		}
		i := strings.Index(body, `"totalCount":`)
		if i < 0 {
			return body
		}
		n := body[i+len(`"totalCount":`):]
		return n[:strings.IndexAny(n, ",}")]
	}
	p := startBinary(t, "--state", state, "--fixtures", fixture)
	for cycle, wait := range []time.Duration{0, 10 * time.Millisecond, 40 * time.Millisecond, 100 * time.Millisecond, 250 * time.Millisecond} {
		marker := fmt.Sprintf("before-reset-%d", cycle)
		if code, body, _ := p.do("POST", "/admin/backup/oplog/s3Configs", storeBody(marker)); code != 200 {
			t.Fatalf("cycle %d: %d %s", cycle, code, body)
		}
		go p.control("POST", "reset", "")
		time.Sleep(wait)
		p.kill(t)
		p = startBinary(t, "--state", state)
		if got := total(p); got != fmt.Sprint(alerts) {
			p.kill(t)
			t.Fatalf("cycle %d (killed after %v): the data is not whole: %s alerts", cycle, wait, got)
		}
		code, _, _ := p.do("GET", "/admin/backup/oplog/s3Configs/"+marker, "")
		if code != 200 && code != 404 {
			p.kill(t)
			t.Fatalf("cycle %d: the store made before the reset: %d", cycle, code)
		}
		t.Logf("killed after %v: the data as it was %s", wait, map[int]string{200: "before the reset", 404: "after it"}[code])
	}
	p.kill(t)
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
		t.Errorf("a reset left files beside the state file: %v", left)
	}
}

// A real clock advanced before a SIGKILL is as far ahead after a restart.
func TestAnAdvancedRealClockStaysAheadAfterARestart(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	p := startBinary(t, "--state", state)
	if code, body, _ := p.control("POST", "clock", `{"advance": "2h"}`); code != 200 {
		t.Fatalf("advance: %d %s", code, body)
	}
	p.kill(t)
	p = startBinary(t, "--state", state)
	defer p.kill(t)
	_, body, _ := p.control("GET", "clock", "")
	var clock struct{ Now time.Time }
	if err := json.Unmarshal([]byte(body), &clock); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	if ahead := time.Until(clock.Now); ahead < 119*time.Minute || ahead > 121*time.Minute {
		t.Errorf("after a restart the clock is %v ahead of the real time, not 2h: %s", ahead.Round(time.Second), body)
	}
}

// stoppedAtStart runs `omctl server ARGS...`, which must stop by itself,
// and returns its exit status and what it wrote to stderr.
func stoppedAtStart(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(omctlBinary(t), append([]string{"server", "--listen", "127.0.0.1:0"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("omctl server %v started", args)
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}

// A state file others may read is reported at start, with the fix.
func TestStateFileReadableByOthersIsReported(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.db")
	p := startBinary(t, "--state", state)
	p.kill(t)
	if strings.Contains(p.stderr.String(), "Warning") {
		t.Errorf("a 0600 state file was reported: %s", p.stderr)
	}
	if err := os.Chmod(state, 0o644); err != nil {
		t.Fatal(err)
	}
	p = startBinary(t, "--state", state)
	defer p.kill(t)
	if want := "Warning: " + state + " holds API keys and webhook secrets and other users may read it (mode 0644); fix it with: chmod 600 " + state; !strings.Contains(p.stderr.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, p.stderr)
	}
}
