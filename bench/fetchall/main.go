// Command fetchall times fetching every alert of a project, side by side:
// `omctl alerts list --all -o jsonl | wc -l` against a `curl --digest` loop
// over pageNum with `jq -c '.results[]'` per page, both against a real
// `omctl server` holding N generated alerts. It checks that both return the
// same ids in the same order, then prints wall time, HTTP requests and
// peak memory of each and their ratio. It also times `omctl fixtures
// capture --only alerts` of the same alerts, which must write the same ids
// in the same order. Then it times `alerts list --all-projects --all` over
// -projects projects holding the same N alerts between them, against the
// one project (docs/performance.md).
//
//	go run ./bench/fetchall -omctl bin/omctl -n 100000
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/omctl/omctl/bench/internal/benchdata"
)

func main() {
	n := flag.Int("n", 100000, "alerts in the fixture")
	omctl := flag.String("omctl", "bin/omctl", "the omctl binary to measure")
	server := flag.String("server", "", "the omctl binary that runs the server (default: -omctl)")
	runs := flag.Int("runs", 3, "timed runs of each method; the median is shown")
	parallel := flag.Int("parallel", 0, "--parallel for omctl (0: omctl's default)")
	projects := flag.Int("projects", 200, "then time alerts list --all-projects over this many projects of n/projects alerts each (0: skip)")
	flag.Parse()
	if *server == "" {
		*server = *omctl
	}
	if err := run(*omctl, *server, *n, *runs, *parallel, *projects); err != nil {
		fmt.Fprintln(os.Stderr, "fetchall:", err)
		os.Exit(1)
	}
}

type result struct {
	name     string
	wall     time.Duration
	cpu      time.Duration // user + system, of the method's processes
	maxRSS   int64         // KiB
	lines    int
	requests int64
}

func run(omctl, server string, n, runs, parallel, projects int) error {
	omctl, err := filepath.Abs(omctl)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "omctl-fetchall-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	fixtures := filepath.Join(dir, "fixtures.json")
	size, err := benchdata.WriteFixture(fixtures, n)
	if err != nil {
		return err
	}
	fmt.Printf("fixture: %d alerts, %.1f MB\n", n, float64(size)/1e6)

	srv, err := benchdata.Start(server, "--fixtures", fixtures)
	if err != nil {
		return err
	}
	defer srv.Stop()
	fmt.Printf("omctl server: ready in %.2fs\n", srv.Startup.Seconds())
	baseURL := srv.Base

	omctlArgs := []string{"alerts", "list", "--all", "-o", "jsonl"}
	if parallel > 0 {
		omctlArgs = append(omctlArgs, "--parallel", fmt.Sprint(parallel))
	}
	omctlCmd := func(base string) *exec.Cmd {
		c := exec.Command(omctl, omctlArgs...)
		c.Env = append(os.Environ(), "OMCTL_BASE_URL="+base, "OMCTL_PUBLIC_KEY="+benchdata.PublicKey, "OMCTL_PRIVATE_KEY="+benchdata.SecretKey,
			"OMCTL_PROJECT_ID="+benchdata.ProjectID, "OMCTL_CONFIG_DIR="+dir, "NO_COLOR=1")
		return c
	}
	if _, err := os.Stat(timeBin); err != nil {
		return fmt.Errorf("%s (GNU time) is needed to measure peak memory: %v", timeBin, err)
	}
	haveCurl := hasAll("curl", "jq", "bash")
	pages := (n + 499) / 500
	loop := `for ((p=1; p<=PAGES; p++)); do curl -sS --fail --digest -u "$PUB:$PRIV" "$BASE/groups/$PROJECT/alerts?pageNum=$p&itemsPerPage=500" | jq -c '.results[]' || exit 1; done`
	curlCmd := func(base string) *exec.Cmd {
		c := exec.Command("bash", "-c", strings.Replace(loop, "PAGES", fmt.Sprint(pages), 1))
		c.Env = append(os.Environ(), "BASE="+base, "PUB="+benchdata.PublicKey, "PRIV="+benchdata.SecretKey, "PROJECT="+benchdata.ProjectID)
		return c
	}

	// One untimed pass of each through a counting proxy: the requests each
	// makes, and the ids each returns.
	omctlReqs, omctlIDs, err := countedPass(baseURL, omctlCmd)
	if err != nil {
		return fmt.Errorf("omctl: %w", err)
	}
	if len(omctlIDs) != n {
		return fmt.Errorf("omctl returned %d alerts, want %d", len(omctlIDs), n)
	}
	var curlReqs int64
	if haveCurl {
		var curlIDs []string
		if curlReqs, curlIDs, err = countedPass(baseURL, curlCmd); err != nil {
			return fmt.Errorf("curl loop: %w", err)
		}
		if !slices.Equal(omctlIDs, curlIDs) {
			return fmt.Errorf("omctl and the curl loop returned different ids (%d and %d)", len(omctlIDs), len(curlIDs))
		}
		fmt.Printf("ids: omctl and the curl loop return the same %d ids in the same order\n", len(omctlIDs))
	} else {
		fmt.Println("curl, jq or bash not found: the curl --digest loop is skipped")
	}

	captured := filepath.Join(dir, "capture.json")
	captureCmd := func(base string) *exec.Cmd {
		c := omctlCmd(base)
		c.Args = []string{omctl, "fixtures", "capture", "--only", "alerts", "--alerts-since", "0", "-o", captured}
		return c
	}
	captureReqs, _, err := countedPass(baseURL, captureCmd)
	if err != nil {
		return fmt.Errorf("omctl fixtures capture: %w", err)
	}
	capturedIDs, err := fixtureAlertIDs(captured)
	if err != nil {
		return err
	}
	if !slices.Equal(omctlIDs, capturedIDs) {
		return fmt.Errorf("omctl fixtures capture wrote different alerts (%d) from alerts list --all (%d)", len(capturedIDs), len(omctlIDs))
	}
	fmt.Printf("ids: omctl fixtures capture writes the same %d alerts in the same order\n", len(capturedIDs))

	// The list and the capture take turns, so that load from elsewhere on
	// the machine falls on both alike.
	pair, err := inTurns(runs,
		method{"omctl alerts list --all -o jsonl | wc -l", n, func() *exec.Cmd { return omctlCmd(baseURL) }},
		method{"omctl fixtures capture --only alerts -o FILE", -1, func() *exec.Cmd { return captureCmd(baseURL) }})
	if err != nil {
		return err
	}
	omctlRes, captureRes := pair.a, pair.b
	omctlRes.requests = omctlReqs
	captureRes.requests, captureRes.lines = captureReqs, len(capturedIDs)
	results := []result{omctlRes, captureRes}
	if haveCurl {
		curlRes, err := timed("curl --digest loop, 500 a page, jq -c | wc -l", runs, n, func() *exec.Cmd { return curlCmd(baseURL) })
		if err != nil {
			return err
		}
		curlRes.requests = curlReqs
		results = append(results, curlRes)
	}
	fmt.Printf("\n%-48s %8s %8s %9s %11s %8s\n", "method (median of "+fmt.Sprint(runs)+")", "wall", "CPU", "requests", "peak RSS", "lines")
	for _, r := range results {
		fmt.Printf("%-48s %7.2fs %7.2fs %9d %7.1f MiB %8d\n", r.name, r.wall.Seconds(), r.cpu.Seconds(), r.requests, float64(r.maxRSS)/1024, r.lines)
	}
	ratio := captureRes.wall.Seconds() / omctlRes.wall.Seconds()
	verdict := "met"
	if ratio > 1.5 {
		verdict = "NOT met"
	}
	fmt.Printf("\nfixtures capture takes %.2f× the wall time of alerts list --all (medians of %d in turns; pairs %.2f–%.2f×), %.2f× its CPU, and %.2f× its peak memory; goal ≤ 1.5×: %s\n",
		ratio, runs, slices.Min(pair.ratios), slices.Max(pair.ratios), captureRes.cpu.Seconds()/omctlRes.cpu.Seconds(),
		float64(captureRes.maxRSS)/float64(omctlRes.maxRSS), verdict)
	if haveCurl {
		fmt.Printf("omctl is %.1f× faster than the curl loop\n", results[2].wall.Seconds()/results[0].wall.Seconds())
	}
	if projects > 1 {
		return runAllProjects(omctl, server, dir, n, runs, parallel, projects, omctlRes)
	}
	return nil
}

// runAllProjects times `alerts list --all-projects --all` over projects
// projects holding n alerts between them, beside one project's n alerts
// (one), as docs/performance.md records.
func runAllProjects(omctl, server, dir string, n, runs, parallel, projects int, one result) error {
	per := n / projects
	fixtures := filepath.Join(dir, "projects.json")
	if _, err := benchdata.WriteProjectsFixture(fixtures, projects, per); err != nil {
		return err
	}
	srv, err := benchdata.Start(server, "--fixtures", fixtures)
	if err != nil {
		return err
	}
	defer srv.Stop()
	args := []string{"alerts", "list", "--all-projects", "--all", "-o", "jsonl"}
	if parallel > 0 {
		args = append(args, "--parallel", fmt.Sprint(parallel))
	}
	cmd := func(base string) *exec.Cmd {
		c := exec.Command(omctl, args...)
		c.Env = append(os.Environ(), "OMCTL_BASE_URL="+base, "OMCTL_PUBLIC_KEY="+benchdata.PublicKey, "OMCTL_PRIVATE_KEY="+benchdata.SecretKey,
			"OMCTL_PROJECT_ID=", "OMCTL_CONFIG_DIR="+dir, "NO_COLOR=1")
		return c
	}
	reqs, ids, err := countedPass(srv.Base, cmd)
	if err != nil {
		return fmt.Errorf("--all-projects: %w", err)
	}
	if len(ids) != projects*per {
		return fmt.Errorf("--all-projects returned %d alerts, want %d", len(ids), projects*per)
	}
	name := fmt.Sprintf("--all-projects, %d projects × %d", projects, per)
	res, err := timed(name, runs, projects*per, func() *exec.Cmd { return cmd(srv.Base) })
	if err != nil {
		return err
	}
	res.requests = reqs
	fmt.Printf("\n%-48s %8s %8s %9s %11s %8s\n", "method (median of "+fmt.Sprint(runs)+")", "wall", "CPU", "requests", "peak RSS", "lines")
	for _, r := range []result{one, res} {
		fmt.Printf("%-48s %7.2fs %7.2fs %9d %7.1f MiB %8d\n", r.name, r.wall.Seconds(), r.cpu.Seconds(), r.requests, float64(r.maxRSS)/1024, r.lines)
	}
	wall, rss := res.wall.Seconds()/one.wall.Seconds(), float64(res.maxRSS)/float64(one.maxRSS)
	verdict := "within"
	if wall > 1.5 || rss > 1.5 {
		verdict = "NOT within"
	}
	fmt.Printf("\n--all-projects against one project: %.2f× the wall time, %.2f× the peak memory, %d against %d requests: %s 1.5×\n",
		wall, rss, res.requests, one.requests, verdict)
	return nil
}

// timeBin is GNU time, which measures each method's peak memory.
const timeBin = "/usr/bin/time"

func hasAll(names ...string) bool {
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			return false
		}
	}
	return true
}

// countedPass runs a method once through a proxy that counts requests,
// and returns the ids of the lines it printed.
func countedPass(baseURL string, command func(base string) *exec.Cmd) (int64, []string, error) {
	target, err := url.Parse(baseURL)
	if err != nil {
		return 0, nil, err
	}
	var requests atomic.Int64
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host})
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		proxy.ServeHTTP(w, r)
	}))
	defer front.Close()
	cmd := command(front.URL + target.Path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return 0, nil, fmt.Errorf("%v: %s", err, stderr.String())
	}
	var ids []string
	for line := range bytes.Lines(out) {
		var a struct{ ID string }
		if err := json.Unmarshal(line, &a); err != nil || a.ID == "" {
			return 0, nil, fmt.Errorf("line %q is not an alert", line)
		}
		ids = append(ids, a.ID)
	}
	return requests.Load(), ids, nil
}

// fixtureAlertIDs reads the ids of a fixture file's alerts, in order.
func fixtureAlertIDs(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f struct{ Alerts []struct{ ID string } }
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	ids := make([]string, len(f.Alerts))
	for i, a := range f.Alerts {
		ids[i] = a.ID
	}
	return ids, nil
}

// method is a command timed piped into `wc -l`, which must print want
// lines (want < 0: any).
type method struct {
	name    string
	want    int
	command func() *exec.Cmd
}

// turns are two methods timed in turns: each one's median, and the ratio
// of b's wall time to a's in each pair.
type turns struct {
	a, b   result
	ratios []float64
}

// inTurns times a and b runs times each, taking turns (a first in even
// rounds, b first in odd ones).
func inTurns(runs int, a, b method) (turns, error) {
	var as, bs []result
	var t turns
	for r := range runs {
		var ra, rb result
		var err error
		for turn := range 2 {
			if (r+turn)%2 == 0 {
				ra, err = timeOnce(a)
			} else {
				rb, err = timeOnce(b)
			}
			if err != nil {
				return t, err
			}
		}
		as, bs = append(as, ra), append(bs, rb)
		t.ratios = append(t.ratios, rb.wall.Seconds()/ra.wall.Seconds())
	}
	t.a, t.b = medianOf(as), medianOf(bs)
	return t, nil
}

// timed runs `command | wc -l` runs times and returns the median wall time
// and the peak memory of command (with its children); want < 0 does not
// check the count of lines.
func timed(name string, runs, want int, command func() *exec.Cmd) (result, error) {
	var all []result
	for range runs {
		r, err := timeOnce(method{name, want, command})
		if err != nil {
			return result{}, err
		}
		all = append(all, r)
	}
	return medianOf(all), nil
}

// medianOf is the run of median wall time, with the highest peak memory
// of all.
func medianOf(all []result) result {
	sort.Slice(all, func(i, j int) bool { return all[i].wall < all[j].wall })
	med := all[len(all)/2]
	for _, r := range all {
		med.maxRSS = max(med.maxRSS, r.maxRSS)
	}
	return med
}

// timeOnce runs `command | wc -l` once: its wall time, and the peak
// memory and CPU of command (with its children).
func timeOnce(m method) (result, error) {
	name, want := m.name, m.want
	cmd := m.command()
	// The peak memory and CPU come from GNU time, which forks the
	// method itself: a child started straight from this Go process
	// reports this process's memory as its own peak (Go starts
	// children with CLONE_VM, and ru_maxrss counts that time).
	usage := filepath.Join(os.TempDir(), fmt.Sprintf("omctl-fetchall-usage-%d", os.Getpid()))
	cmd.Args = append([]string{timeBin, "-f", "%M %U %S", "-o", usage}, cmd.Args...)
	cmd.Path = timeBin
	wc := exec.Command("wc", "-l")
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return result{}, err
	}
	wc.Stdin = pipe
	var count, stderr bytes.Buffer
	wc.Stdout = &count
	cmd.Stderr = &stderr
	began := time.Now()
	if err := wc.Start(); err != nil {
		return result{}, err
	}
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	errCmd := cmd.Wait()
	errWc := wc.Wait()
	wall := time.Since(began)
	if err := errors.Join(errCmd, errWc); err != nil {
		return result{}, fmt.Errorf("%s: %v: %s", name, err, stderr.String())
	}
	var lines int
	fmt.Sscan(count.String(), &lines)
	if want >= 0 && lines != want {
		return result{}, fmt.Errorf("%s printed %d lines, want %d", name, lines, want)
	}
	r := result{name: name, wall: wall, lines: lines}
	data, err := os.ReadFile(usage)
	os.Remove(usage)
	var user, sys float64
	if _, serr := fmt.Sscan(string(data), &r.maxRSS, &user, &sys); err != nil || serr != nil {
		return result{}, fmt.Errorf("reading %s's usage from %s: %q", name, timeBin, data)
	}
	r.cpu = time.Duration((user + sys) * float64(time.Second))
	return r, nil
}
