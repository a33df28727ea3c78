// Command soak runs `omctl server --state` under a mixed load for a
// bounded time, as docs/performance.md reports it: writers putting stores
// (every eighth body near the journal's per-body cap), readers listing
// alerts and stores, the alert engine raising and closing alerts whose
// configuration notifies a local webhook receiver every minute while the
// virtual clock moves a minute a second, and, once, a move of a year. It
// prints the server's resident memory every 10 s, then requests/s,
// latency, 5xx answers, the slowest request during the year's move, what
// the machine itself did meanwhile (machine.go), and, after a SIGKILL and a
// restart, how many answered writes were lost.
//
//	go run ./bench/soak -omctl bin/omctl -duration 3m
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/omctl/omctl/bench/internal/benchdata"
	"github.com/omctl/omctl/internal/client"
)

const (
	configID  = "5f2a00000000000000000abc"
	storesPer = 8 // stores each writer owns
	hosts     = 10
)

func main() {
	omctl := flag.String("omctl", "bin/omctl", "the omctl binary to soak")
	duration := flag.Duration("duration", 3*time.Minute, "how long the load runs")
	writers := flag.Int("writers", 16, "concurrent writers")
	readers := flag.Int("readers", 16, "concurrent readers")
	alerts := flag.Int("alerts", 100000, "alerts in the fixture")
	dir := flag.String("dir", os.TempDir(), "where the state file goes: on a real disk, a commit's sync takes what the disk takes")
	flag.Parse()
	// The load generator shares the machine with the server: at the
	// default it collected garbage 12 times a second, each time pausing
	// its clients' clocks and taking CPU from the server.
	debug.SetGCPercent(400)
	if err := run(*omctl, *dir, *duration, *writers, *readers, *alerts); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

// sample is one request: when it started, how long it took, its status
// (0: no answer).
type sample struct {
	at     time.Time
	took   time.Duration
	status int
	kind   string
}

type recorder struct {
	mu      sync.Mutex
	samples []sample
}

func (r *recorder) add(s []sample) {
	r.mu.Lock()
	r.samples = append(r.samples, s...)
	r.mu.Unlock()
}

func run(omctl, under string, duration time.Duration, writers, readers, alerts int) error {
	dir, err := os.MkdirTemp(under, "soak-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	hook, received, err := receiver()
	if err != nil {
		return err
	}
	fixture := filepath.Join(dir, "fixture.json")
	if _, err := benchdata.WriteFixture(fixture, alerts); err != nil {
		return err
	}
	if err := addConfig(fixture, hook); err != nil {
		return err
	}
	state := filepath.Join(dir, "state.db")
	srv, err := benchdata.Start(omctl, "--fixtures", fixture, "--state", state, "--clock", "2026-01-01T00:00:00Z")
	if err != nil {
		return err
	}
	defer func() { srv.Stop() }()
	fmt.Printf("soak: %d alerts, %d writers, %d readers, %s; start %.1f s, resident %s; state file in %s (%s); webhooks to %s\n",
		alerts, writers, readers, duration, srv.Startup.Seconds(), srv.Memory("VmRSS"), dir, fileSystem(dir), hook)
	controls := strings.TrimSuffix(srv.Base, "/api/public/v1.0") + "/_omctl/"

	// The stores writers put, made first.
	c := digestClient()
	for w := range writers {
		for i := range storesPer {
			if code, body := send(c, "POST", srv.Base+"/admin/backup/oplog/s3Configs", storeBody(storeID(w, i), 1, false)); code != 200 {
				return fmt.Errorf("creating the stores: %d %s", code, body)
			}
		}
	}

	var rec recorder
	stop := make(chan struct{})
	machine, machineDone := watchMachine(dir, stop)
	var wg sync.WaitGroup
	// answered[w][i] is the last value of store (w, i) answered 200;
	// sent[w][i] the last one sent.
	answered := make([][storesPer]atomic.Int64, writers)
	sent := make([][storesPer]atomic.Int64, writers)
	for w := range writers {
		for i := range storesPer {
			answered[w][i].Store(1)
			sent[w][i].Store(1)
		}
	}
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := digestClient()
			var mine []sample
			defer func() { rec.add(mine) }()
			for n := int64(2); ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				i := int(n) % storesPer
				sent[w][i].Store(n)
				t0 := time.Now()
				code, _ := send(c, "PUT", srv.Base+"/admin/backup/oplog/s3Configs/"+storeID(w, i), storeBody(storeID(w, i), n, n%8 == 0))
				mine = append(mine, sample{t0, time.Since(t0), code, "PUT store"})
				if code == 200 {
					answered[w][i].Store(n)
				}
			}
		}()
	}
	for r := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := digestClient()
			var mine []sample
			defer func() { rec.add(mine) }()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				url := srv.Base + "/groups/" + benchdata.ProjectID + "/alerts?itemsPerPage=100&pageNum=" + strconv.Itoa(1+(n*7+r)%(max(alerts, 100)/100))
				kind := "GET alerts page"
				switch n % 3 {
				case 1:
					url = srv.Base + "/admin/backup/oplog/s3Configs?itemsPerPage=100"
					kind = "GET stores list"
				case 2:
					url = srv.Base + "/groups/" + benchdata.ProjectID + "/alerts/" + benchdata.AlertID((n*7919+r)%max(alerts, 1))
					kind = "GET one alert"
				}
				t0 := time.Now()
				code, _ := send(c, "GET", url, "")
				mine = append(mine, sample{t0, time.Since(t0), code, kind})
			}
		}()
	}
	// The engine: hosts go down and come back, the clock moves a minute a
	// second, and once, a quarter of the way in, a year.
	var yearFrom, yearTo time.Time
	wg.Add(1)
	go func() {
		defer wg.Done()
		c := digestClient()
		down := map[int]bool{}
		yearAt := time.Now().Add(duration / 4)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			var conds []string
			for h := range hosts {
				if rand.IntN(4) == 0 || !down[h] {
					down[h] = !down[h]
					conds = append(conds, fmt.Sprintf(`{"groupId": %q, "eventTypeName": "HOST_DOWN", "target": {"hostnameAndPort": "soak-%d.example.com:27017"}, "resolved": %t}`,
						benchdata.ProjectID, h, !down[h]))
				}
			}
			send(c, "POST", controls+"events", "["+strings.Join(conds, ",")+"]")
			if yearFrom.IsZero() && time.Now().After(yearAt) {
				yearFrom = time.Now()
				yearTo = yearFrom.Add(duration) // until it answers
				long := *c
				long.Timeout = 30 * time.Minute // the move answers when all of it is done
				code, body := send(&long, "POST", controls+"clock", `{"advance": "8760h"}`)
				yearTo = time.Now()
				fmt.Printf("year's move: %d in %.1f s %s\n", code, yearTo.Sub(yearFrom).Seconds(), body)
				continue
			}
			send(c, "POST", controls+"clock", `{"advance": "1m"}`)
		}
	}()

	began := time.Now()
	var rss []float64
	for elapsed := time.Duration(0); elapsed < duration; {
		time.Sleep(min(10*time.Second, duration-elapsed))
		elapsed = time.Since(began)
		mib := rssMiB(srv)
		rss = append(rss, mib)
		fmt.Printf("%4.0f s  resident %.0f MiB\n", elapsed.Seconds(), mib)
	}
	// Killed while writes are in flight.
	srv.Kill()
	close(stop)
	wg.Wait()
	machineDone()
	report(rec.samples, time.Since(began), yearFrom, yearTo, rss, received.Load(), machine)

	srv, err = benchdata.Start(omctl, "--state", state)
	if err != nil {
		return err
	}
	lost, checked := 0, 0
	c = digestClient()
	for w := range writers {
		for i := range storesPer {
			want, inFlight := answered[w][i].Load(), sent[w][i].Load()
			code, body := send(c, "GET", srv.Base+"/admin/backup/oplog/s3Configs/"+storeID(w, i), "")
			got := maxConns(body)
			checked++
			if code != 200 || (got != want && got != inFlight) {
				lost++
				fmt.Printf("store %s: holds %d after the restart, %d was answered\n", storeID(w, i), got, want)
			}
		}
	}
	fmt.Printf("after SIGKILL and restart (%.1f s): %d of %d stores hold their last answered write; writes lost: %d\n",
		srv.Startup.Seconds(), checked-lost, checked, lost)
	return nil
}

func report(samples []sample, took time.Duration, yearFrom, yearTo time.Time, rss []float64, hooks int64, machine *machineWatch) {
	var lat, during, outside []time.Duration
	fivexx, failed := 0, 0
	for _, s := range samples {
		lat = append(lat, s.took)
		switch {
		case s.status == 0:
			failed++
		case s.status >= 500:
			fivexx++
		}
		if !yearFrom.IsZero() && s.at.Add(s.took).After(yearFrom) && s.at.Before(yearTo) {
			during = append(during, s.took)
		} else {
			outside = append(outside, s.took)
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	sort.Slice(during, func(i, j int) bool { return during[i] < during[j] })
	sort.Slice(outside, func(i, j int) bool { return outside[i] < outside[j] })
	fmt.Printf("requests: %d in %.0f s, %.0f req/s; p50 %s p99 %s max %s; 5xx %d; no answer %d\n",
		len(lat), took.Seconds(), float64(len(lat))/took.Seconds(), pct(lat, 50), pct(lat, 99), pct(lat, 100), fivexx, failed)
	if len(during) > 0 {
		fmt.Printf("during the year's move: %d requests, p50 %s p99 %s p99.9 %s max %s\n", len(during), pct(during, 50), pct(during, 99), pct(during, 99.9), pct(during, 100))
		fmt.Printf("outside it: %d requests, p50 %s p99 %s max %s\n", len(outside), pct(outside, 50), pct(outside, 99), pct(outside, 100))
	}
	first := byKind(samples, yearFrom, yearTo)
	beyondBaseline(os.Stdout, samples, yearFrom, yearTo)
	machine.report(os.Stdout, first)
	if len(rss) > 6 {
		after := rss[6:] // after the first minute
		lo, hi := after[0], after[0]
		for _, v := range after {
			lo, hi = min(lo, v), max(hi, v)
		}
		fmt.Printf("resident after the first minute: %.0f to %.0f MiB (%.1f%% apart)\n", lo, hi, 100*(hi-lo)/lo)
	}
	fmt.Printf("webhooks received: %d\n", hooks)
}

// byKind prints each kind of request's latency during the year's move, and
// how many took over 100 ms in all, so that a tail can be traced to what
// suffers it; it returns when the first request began, where its timeline
// starts.
func byKind(samples []sample, yearFrom, yearTo time.Time) (first time.Time) {
	during := map[string][]time.Duration{}
	slow := map[string]int{}
	slowSeconds := map[int]int{} // seconds since the first request: requests over 100 ms
	for _, s := range samples {
		if first.IsZero() || s.at.Before(first) {
			first = s.at
		}
	}
	for _, s := range samples {
		if s.took > 100*time.Millisecond {
			slow[s.kind]++
			slowSeconds[int(s.at.Sub(first).Seconds())]++
		}
		if !yearFrom.IsZero() && s.at.Add(s.took).After(yearFrom) && s.at.Before(yearTo) {
			during[s.kind] = append(during[s.kind], s.took)
		}
	}
	kinds := make([]string, 0, len(during))
	for k := range during {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		ds := during[k]
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		fmt.Printf("  during the move, %-16s %7d requests, p50 %s p99 %s max %s\n", k+":", len(ds), pct(ds, 50), pct(ds, 99), pct(ds, 100))
	}
	total := 0
	for _, n := range slow {
		total += n
	}
	move := ""
	if !yearFrom.IsZero() {
		move = fmt.Sprintf(", the year's move from %.0f to %.0f s", yearFrom.Sub(first).Seconds(), yearTo.Sub(first).Seconds())
	}
	fmt.Printf("over 100 ms in all: %d requests %v; when (seconds from the start%s): %s\n", total, slow, move, timeline(slowSeconds, strconv.Itoa))
	return first
}

// beyondBaseline prints, for each kind of request, its baseline (p99 and
// worst outside the year's move, in the same run, so on the same machine
// under the same load), its worst during the move, and how many requests
// during the move took over 100 ms more than the baseline: the soak's
// target is none (docs/performance.md).
func beyondBaseline(out io.Writer, samples []sample, yearFrom, yearTo time.Time) {
	if yearFrom.IsZero() {
		return
	}
	during, outside := map[string][]time.Duration{}, map[string][]time.Duration{}
	for _, s := range samples {
		if s.at.Add(s.took).After(yearFrom) && s.at.Before(yearTo) {
			during[s.kind] = append(during[s.kind], s.took)
		} else {
			outside[s.kind] = append(outside[s.kind], s.took)
		}
	}
	total := 0
	for _, kind := range slices.Sorted(maps.Keys(during)) {
		base := outside[kind]
		slices.Sort(base)
		baseline := pct(base, 99)
		over := 0
		for _, d := range during[kind] {
			if d > baseline+100*time.Millisecond {
				over++
			}
		}
		total += over
		slices.Sort(during[kind])
		fmt.Fprintf(out, "  beside its baseline, %-16s p99 %s (worst %s) outside the move, worst %s during it; %d over baseline + 100 ms\n",
			kind+":", baseline, pct(base, 100), pct(during[kind], 100), over)
	}
	fmt.Fprintf(out, "during the year's move, requests over 100 ms beyond their kind's baseline: %d\n", total)
}

// timeline writes "S s (V)" for each second of bySecond, in order.
func timeline[V any](bySecond map[int]V, show func(V) string) string {
	seconds := slices.Sorted(maps.Keys(bySecond))
	at := make([]string, len(seconds))
	for i, sec := range seconds {
		at[i] = fmt.Sprintf("%d s (%s)", sec, show(bySecond[sec]))
	}
	return strings.Join(at, ", ")
}

func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return ds[int(float64(len(ds)-1)*p/100)].Round(10 * time.Microsecond)
}

func rssMiB(s *benchdata.Server) float64 {
	v := strings.TrimSuffix(s.Memory("VmRSS"), " MiB")
	f, _ := strconv.ParseFloat(v, 64)
	return f
}

func storeID(w, i int) string { return fmt.Sprintf("soak-w%d-s%d", w, i) }

// storeBody is an oplog store holding n as s3MaxConnections; a large one
// carries some 60 KB, near what the journal keeps of a body.
func storeBody(id string, n int64, large bool) string {
	uri := `"mongodb://m"`
	if large {
		uri = largeURI
	}
	return fmt.Sprintf(`{"id": %q, "acceptedTos": true, "pathStyleAccessEnabled": true, "s3BucketEndpoint": "https://s3.example.com",
	 "s3BucketName": "b", "s3MaxConnections": %d, "sseEnabled": false, "uri": %s, "awsSecretKey": "k"}`, id, n, uri)
}

// largeURI is quoted once, not for every large body.
var largeURI = strconv.Quote("mongodb://" + strings.Repeat("m", 60<<10))

func maxConns(body string) int64 {
	i := strings.Index(body, `"s3MaxConnections":`)
	if i < 0 {
		return -1
	}
	rest := strings.TrimLeft(body[i+len(`"s3MaxConnections":`):], " ")
	end := strings.IndexAny(rest, ",}")
	n, _ := strconv.ParseInt(strings.TrimSpace(rest[:end]), 10, 64)
	return n
}

func digestClient() *http.Client {
	return &http.Client{Transport: client.DigestTransport(benchdata.PublicKey, benchdata.SecretKey, &http.Transport{MaxIdleConnsPerHost: 4}), Timeout: 2 * time.Minute}
}

func send(c *http.Client, method, url, body string) (int, string) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return 0, err.Error()
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer res.Body.Close()
	var out bytes.Buffer
	io.Copy(&out, io.LimitReader(res.Body, 4096))
	io.Copy(io.Discard, res.Body)
	return res.StatusCode, out.String()
}

// receiver is a local webhook receiver answering 200; it counts what it gets.
func receiver() (string, *atomic.Int64, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	var n atomic.Int64
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		n.Add(1)
	}))
	return "http://" + ln.Addr().String() + "/hook", &n, nil
}

// addConfig adds to the fixture a HOST_DOWN configuration that notifies
// the receiver, and by email, at once and then every minute.
func addConfig(fixture, hook string) error {
	data, err := os.ReadFile(fixture)
	if err != nil {
		return err
	}
	cfg := fmt.Sprintf(`"alertConfigs":[{"id":%q,"groupId":%q,"eventTypeName":"HOST_DOWN","enabled":true,"notifications":[`+
		`{"typeName":"WEBHOOK","webhookUrl":%q,"delayMin":0,"intervalMin":1},{"typeName":"EMAIL","emailAddress":"ops@example.com","delayMin":0,"intervalMin":1}]}],`,
		configID, benchdata.ProjectID, hook)
	data = bytes.Replace(data, []byte(`"alerts":[`), []byte(cfg+`"alerts":[`), 1)
	return os.WriteFile(fixture, data, 0o600)
}
