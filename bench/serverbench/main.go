// Command serverbench measures `omctl server` at scale, as docs/performance.md
// reports it: it writes a fixture of N alerts, starts the real binary on
// it, and measures start-up time and memory, the time of pages of 500
// alerts, digest-authenticated GETs of one alert per second beside a bare
// net/http handler serving the same body (same load generator, same run),
// and, with --state, the time to acknowledge one alert. The start on the
// fixture, and the restart from the state file, are each timed in turns
// with `jq '.alerts|length'` on the same file (skipped, and said so,
// without jq).
//
//	go run ./bench/serverbench -omctl bin/omctl -n 1000000
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/omctl/omctl/bench/internal/benchdata"
	"github.com/omctl/omctl/internal/client"
)

func main() {
	n := flag.Int("n", 100000, "alerts in the fixture")
	omctl := flag.String("omctl", "bin/omctl", "the omctl binary to measure")
	clients := flag.Int("clients", 32, "concurrent clients for the GET throughput")
	seconds := flag.Float64("seconds", 3, "how long each throughput run lasts")
	rounds = flag.Int("rounds", 6, "turns the GET throughput runs take, bare handler then omctl server")
	pages := flag.Int("pages", 200, "pages of 500 to time")
	acks := flag.Int("acks", 200, "acknowledgements to time with --state")
	jqRounds = flag.Int("jq-rounds", 3, "starts and restarts timed in turns with jq (0: none)")
	bareBody := flag.String("bare", "", "serve this file's bytes as the bare handler (the process serverbench starts for itself)")
	flag.Parse()
	if *bareBody != "" {
		serveBare(*bareBody)
		return
	}
	if err := run(*omctl, *n, *clients, time.Duration(*seconds*float64(time.Second)), *pages, *acks); err != nil {
		fmt.Fprintln(os.Stderr, "serverbench:", err)
		os.Exit(1)
	}
}

// rounds is how many turns the GET throughput runs take; jqRounds how
// many starts and restarts are timed in turns with jq.
var rounds, jqRounds *int

func run(omctl string, n, clients int, d time.Duration, pages, acks int) error {
	dir, err := os.MkdirTemp("", "serverbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	fixture := filepath.Join(dir, "fixture.json")
	size, err := benchdata.WriteFixture(fixture, n)
	if err != nil {
		return err
	}
	fmt.Printf("fixture: %d alerts, %.1f MB\n", n, float64(size)/1e6)
	var jq *jqPeer
	if *jqRounds > 0 {
		jq = findJQ(fixture, n)
	}
	if jq != nil {
		if err := sideBySide("start on the fixture", jq, dir, omctl, *jqRounds, 0.5, "--fixtures", fixture); err != nil {
			return err
		}
	}

	srv, err := benchdata.Start(omctl, "--fixtures", fixture)
	if err != nil {
		return err
	}
	fmt.Printf("start: %.2f s to the URL; resident %s (peak %s)\n", srv.Startup.Seconds(), srv.Memory("VmRSS"), srv.Memory("VmHWM"))

	lat, bytesRead, err := timePages(srv.Base, n, pages)
	if err != nil {
		srv.Stop()
		return err
	}
	fmt.Printf("pages of 500: %d in %.3f s (%.1f MB); per page p50 %s p99 %s max %s\n", len(lat), sum(lat).Seconds(),
		float64(bytesRead)/1e6, pct(lat, 50), pct(lat, 99), pct(lat, 100))

	one := srv.Base + "/groups/" + benchdata.ProjectID + "/alerts/" + benchdata.AlertID(n/2)
	body, err := getOnce(one)
	if err != nil {
		srv.Stop()
		return err
	}
	// The bare handler is a process of its own, as omctl server is, so
	// that both share the machine with the load generator alike.
	bare, err := startBare(dir, body)
	if err != nil {
		srv.Stop()
		return err
	}
	// Short runs taking turns, so that load from elsewhere on the machine
	// falls on both alike rather than on whichever ran second.
	var bareRate, omctlRate float64
	for range *rounds {
		bareRate += throughput(bare.URL+"/alert", clients, d/time.Duration(*rounds)) / float64(*rounds)
		omctlRate += throughput(one, clients, d/time.Duration(*rounds)) / float64(*rounds)
	}
	bare.Stop()
	fmt.Printf("GET one alert, %d clients: omctl server %.0f req/s (digest), bare net/http %.0f req/s: %.0f%%\n",
		clients, omctlRate, bareRate, 100*omctlRate/bareRate)
	srv.Stop()

	state := filepath.Join(dir, "state.db")
	srv, err = benchdata.Start(omctl, "--fixtures", fixture, "--state", state)
	if err != nil {
		return err
	}
	defer func() {
		if srv != nil { // whichever server runs last, if it started
			srv.Stop()
		}
	}()
	fmt.Printf("start with a new --state: %.2f s; resident %s\n", srv.Startup.Seconds(), srv.Memory("VmRSS"))
	ackLat, err := timeAcks(srv.Base, n, acks)
	if err != nil {
		return err
	}
	fmt.Printf("acknowledge one alert with --state: %d, p50 %s p99 %s\n", len(ackLat), pct(ackLat, 50), pct(ackLat, 99))
	srv.Stop()
	srv, err = benchdata.Start(omctl, "--state", state)
	if err != nil {
		return err
	}
	fmt.Printf("restart from --state: %.2f s; resident %s (peak %s)\n", srv.Startup.Seconds(), srv.Memory("VmRSS"), srv.Memory("VmHWM"))
	srv.Stop()
	if jq != nil {
		return sideBySide("restart from --state", jq, dir, omctl, *jqRounds, 0.25, "--state", state)
	}
	return nil
}

func digestClient() *http.Client {
	return &http.Client{Transport: client.DigestTransport(benchdata.PublicKey, benchdata.SecretKey, &http.Transport{MaxIdleConnsPerHost: 64}), Timeout: time.Minute}
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

// timePages fetches pages of 500 one after another. With fewer than
// pages·500 alerts it goes round the pages there are, so that every page
// timed holds alerts and small and large data are compared page for page.
func timePages(base string, n, pages int) ([]time.Duration, int64, error) {
	c := digestClient()
	var lat []time.Duration
	var total int64
	have := max(1, (n+499)/500)
	for i := 0; i < pages; i++ {
		p := 1 + i%have
		t0 := time.Now()
		res, err := c.Get(fmt.Sprintf("%s/groups/%s/alerts?itemsPerPage=500&pageNum=%d", base, benchdata.ProjectID, p))
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
		req, _ := http.NewRequest("PATCH", base+"/groups/"+benchdata.ProjectID+"/alerts/"+benchdata.AlertID((i*7919)%n), bytes.NewBufferString(body))
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

// bareServer is the bare handler's process.
type bareServer struct {
	URL string
	cmd *exec.Cmd
}

// startBare runs this program again as the bare handler of body and
// reads its URL.
func startBare(dir string, body []byte) (*bareServer, error) {
	file := filepath.Join(dir, "body.json")
	if err := os.WriteFile(file, body, 0o600); err != nil {
		return nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "-bare", file)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("the bare handler did not start: %v", err)
	}
	return &bareServer{URL: strings.TrimSpace(line), cmd: cmd}, nil
}

func (b *bareServer) Stop() {
	b.cmd.Process.Signal(syscall.SIGTERM)
	b.cmd.Wait()
}

// serveBare serves the bytes of file to digest-signed GETs, challenging
// unsigned ones as omctl server does, so the load generator signs every
// request of both runs alike; it prints its URL and serves until killed.
func serveBare(file string) {
	body, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, "serverbench:", err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "serverbench:", err)
		os.Exit(1)
	}
	fmt.Printf("http://%s\n", ln.Addr())
	http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			w.Header().Set("WWW-Authenticate", `Digest realm="MMS Public API", domain="", nonce="bench", algorithm=MD5, qop="auth", stale=false`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	}))
}
