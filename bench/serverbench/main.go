// Command serverbench measures `omctl server` at scale, as docs/performance.md
// reports it: it writes a fixture of N alerts, starts the real binary on
// it, and measures start-up time and memory, the time of pages of 500
// alerts, digest-authenticated GETs of one alert per second beside a bare
// net/http handler serving the same body (same load generator, same run),
// and, with --state, the time to acknowledge one alert.
//
//	go run ./bench/serverbench -omctl bin/omctl -n 1000000
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/omctl/omctl/internal/client"
)

const (
	orgID     = "5e1a0c2e8f9d4b0012340001"
	projectID = "5e2b0c2e8f9d4b0012340001"
	configID  = "5f2a0c2e8f9d4b0012340001"
	publicKey = "benchowner"
	secretKey = "11111111-aaaa-4bbb-8ccc-00000000b3c4"
)

func main() {
	n := flag.Int("n", 100000, "alerts in the fixture")
	omctl := flag.String("omctl", "bin/omctl", "the omctl binary to measure")
	clients := flag.Int("clients", 32, "concurrent clients for the GET throughput")
	seconds := flag.Float64("seconds", 3, "how long each throughput run lasts")
	pages := flag.Int("pages", 200, "pages of 500 to time")
	acks := flag.Int("acks", 200, "acknowledgements to time with --state")
	flag.Parse()
	if err := run(*omctl, *n, *clients, time.Duration(*seconds*float64(time.Second)), *pages, *acks); err != nil {
		fmt.Fprintln(os.Stderr, "serverbench:", err)
		os.Exit(1)
	}
}

func run(omctl string, n, clients int, d time.Duration, pages, acks int) error {
	dir, err := os.MkdirTemp("", "serverbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	fixture := filepath.Join(dir, "fixture.json")
	size, err := writeFixture(fixture, n)
	if err != nil {
		return err
	}
	fmt.Printf("fixture: %d alerts, %.1f MB\n", n, float64(size)/1e6)

	srv, err := start(omctl, "--fixtures", fixture)
	if err != nil {
		return err
	}
	fmt.Printf("start: %.2f s to the URL; resident %s (peak %s)\n", srv.startup.Seconds(), srv.rss("VmRSS"), srv.rss("VmHWM"))

	lat, bytesRead, err := timePages(srv.base, pages)
	if err != nil {
		srv.stop()
		return err
	}
	fmt.Printf("pages of 500: %d in %.3f s (%.1f MB); per page p50 %s p99 %s max %s\n", len(lat), sum(lat).Seconds(),
		float64(bytesRead)/1e6, pct(lat, 50), pct(lat, 99), pct(lat, 100))

	one := srv.base + "/groups/" + projectID + "/alerts/" + alertID(n/2)
	body, err := getOnce(one)
	if err != nil {
		srv.stop()
		return err
	}
	// The bare handler challenges like the server, so the load generator
	// signs every request of both runs alike.
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			w.Header().Set("WWW-Authenticate", `Digest realm="MMS Public API", domain="", nonce="bench", algorithm=MD5, qop="auth", stale=false`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	}))
	bareRate := throughput(bare.URL+"/alert", clients, d)
	omctlRate := throughput(one, clients, d)
	bare.Close()
	fmt.Printf("GET one alert, %d clients: omctl server %.0f req/s (digest), bare net/http %.0f req/s: %.0f%%\n",
		clients, omctlRate, bareRate, 100*omctlRate/bareRate)
	srv.stop()

	state := filepath.Join(dir, "state.db")
	srv, err = start(omctl, "--fixtures", fixture, "--state", state)
	if err != nil {
		return err
	}
	defer srv.stop()
	fmt.Printf("start with a new --state: %.2f s; resident %s\n", srv.startup.Seconds(), srv.rss("VmRSS"))
	ackLat, err := timeAcks(srv.base, n, acks)
	if err != nil {
		return err
	}
	fmt.Printf("acknowledge one alert with --state: %d, p50 %s p99 %s\n", len(ackLat), pct(ackLat, 50), pct(ackLat, 99))
	srv.stop()
	srv, err = start(omctl, "--state", state)
	if err != nil {
		return err
	}
	fmt.Printf("restart from --state: %.2f s; resident %s\n", srv.startup.Seconds(), srv.rss("VmRSS"))
	return nil
}

func alertID(i int) string { return fmt.Sprintf("5f1a%020x", i) }

// writeFixture writes n alerts of one project, a quarter OPEN, created a
// second apart, about as large as the real service's.
func writeFixture(path string, n int) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintf(w, `{"orgs":[{"id":%q,"name":"Bench"}],"projects":[{"id":%q,"name":"bench","orgId":%q}],`, orgID, projectID, orgID)
	fmt.Fprintf(w, `"apiKeys":[{"id":"5f4d0c2e8f9d4b0012340001","desc":"bench","publicKey":%q,"privateKey":%q,"roles":[{"roleName":"GLOBAL_OWNER"}]}],`, publicKey, secretKey)
	fmt.Fprintf(w, `"alertConfigs":[{"id":%q,"groupId":%q,"eventTypeName":"HOST_DOWN","enabled":true,"notifications":[{"typeName":"EMAIL","emailAddress":"ops@example.com","delayMin":0,"intervalMin":60}]}],`, configID, projectID)
	w.WriteString(`"alerts":[`)
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	statuses := []string{"OPEN", "CLOSED", "CLOSED", "CLOSED"}
	for i := 0; i < n; i++ {
		if i > 0 {
			w.WriteByte(',')
		}
		created := start.Add(time.Duration(i) * time.Second).Format(time.RFC3339)
		fmt.Fprintf(w, `{"id":%q,"groupId":%q,"alertConfigId":%q,"eventTypeName":"HOST_DOWN","status":%q,"created":%q,"updated":%q,`+
			`"hostId":"host-%06d","hostnameAndPort":"db%d.example.com:27017","replicaSetName":"rs%d","typeName":"HOST","lastNotified":%q}`,
			alertID(i), projectID, configID, statuses[i%4], created, created, i%100000, i%1000, i%50, created)
	}
	w.WriteString("]}\n")
	if err := w.Flush(); err != nil {
		return 0, err
	}
	st, err := f.Stat()
	f.Close()
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

type server struct {
	cmd     *exec.Cmd
	base    string
	startup time.Duration
}

func start(omctl string, args ...string) (*server, error) {
	cmd := exec.Command(omctl, append([]string{"server", "--listen", "127.0.0.1:0", "--quiet"}, args...)...)
	cmd.Stderr = io.Discard
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("server did not start: %v", err)
	}
	go io.Copy(io.Discard, out)
	return &server{cmd: cmd, base: strings.TrimSpace(line), startup: time.Since(t0)}, nil
}

func (s *server) stop() {
	if s.cmd.Process != nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
		s.cmd.Process = nil
	}
}

// rss reads a memory figure of the server from /proc.
func (s *server) rss(field string) string {
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

func digestClient() *http.Client {
	return &http.Client{Transport: client.DigestTransport(publicKey, secretKey, &http.Transport{MaxIdleConnsPerHost: 64}), Timeout: time.Minute}
}

func getOnce(url string) ([]byte, error) {
	res, err := digestClient().Get(url)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		return nil, fmt.Errorf("GET %s: %d %s", url, res.StatusCode, body)
	}
	return body, err
}

func timePages(base string, pages int) ([]time.Duration, int64, error) {
	c := digestClient()
	var lat []time.Duration
	var total int64
	for p := 1; p <= pages; p++ {
		t0 := time.Now()
		res, err := c.Get(fmt.Sprintf("%s/groups/%s/alerts?itemsPerPage=500&pageNum=%d", base, projectID, p))
		if err != nil {
			return nil, 0, err
		}
		n, _ := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		lat = append(lat, time.Since(t0))
		total += n
		if res.StatusCode != 200 {
			return nil, 0, fmt.Errorf("page %d: %d", p, res.StatusCode)
		}
	}
	return lat, total, nil
}

// throughput runs clients loops of GET url for d and returns requests/s.
func throughput(url string, clients int, d time.Duration) float64 {
	var done atomic.Int64
	var wg sync.WaitGroup
	deadline := time.Now().Add(d)
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := digestClient()
			for time.Now().Before(deadline) {
				res, err := c.Get(url)
				if err != nil {
					return
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode == 200 {
					done.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return float64(done.Load()) / d.Seconds()
}

func timeAcks(base string, n, acks int) ([]time.Duration, error) {
	c := digestClient()
	var lat []time.Duration
	for i := 0; i < acks; i++ {
		body := `{"acknowledgedUntil": "2099-01-01T00:00:00Z", "acknowledgementComment": "bench"}`
		if i%2 == 1 {
			body = `{"acknowledgedUntil": null}`
		}
		req, _ := http.NewRequest("PATCH", base+"/groups/"+projectID+"/alerts/"+alertID((i*7919)%n), bytes.NewBufferString(body))
		req.Header.Set("Content-Type", "application/json")
		t0 := time.Now()
		res, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		lat = append(lat, time.Since(t0))
		if res.StatusCode != 200 {
			return nil, fmt.Errorf("ack: %d", res.StatusCode)
		}
	}
	return lat, nil
}

func sum(ds []time.Duration) time.Duration {
	var t time.Duration
	for _, d := range ds {
		t += d
	}
	return t
}

func pct(ds []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s) - 1) * p / 100
	return s[i].Round(10 * time.Microsecond)
}
