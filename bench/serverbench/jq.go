package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/omctl/omctl/bench/internal/benchdata"
)

// jqPeer is the peer a start of omctl server is measured against: jq
// reading the same fixture file whole, `jq '.alerts|length' FILE`, which
// reads and parses it once, as the server at least must.
type jqPeer struct {
	fixture string
	n       int
	// timeBin is GNU time, for jq's peak memory ("" without it).
	timeBin string
}

// findJQ is the jq peer, or nil, said so, when jq is missing.
func findJQ(fixture string, n int) *jqPeer {
	if _, err := exec.LookPath("jq"); err != nil {
		fmt.Println("jq not found: the comparisons with jq are skipped (install jq to run them)")
		return nil
	}
	p := &jqPeer{fixture: fixture, n: n}
	if _, err := os.Stat("/usr/bin/time"); err == nil {
		p.timeBin = "/usr/bin/time"
	}
	return p
}

// run times jq once, checks that it counted every alert, and gives its
// peak memory in KiB (0 unknown).
func (p *jqPeer) run(dir string) (time.Duration, int64, error) {
	args := []string{"jq", ".alerts|length", p.fixture}
	usage := filepath.Join(dir, "jq-usage")
	if p.timeBin != "" {
		// GNU time forks jq itself: a child started straight from this Go
		// process reports this process's memory as its own peak.
		args = append([]string{p.timeBin, "-f", "%M", "-o", usage}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	began := time.Now()
	err := cmd.Run()
	took := time.Since(began)
	if err != nil {
		return 0, 0, fmt.Errorf("jq: %v: %s", err, stderr.String())
	}
	if got := strings.TrimSpace(out.String()); got != strconv.Itoa(p.n) {
		return 0, 0, fmt.Errorf("jq counted %q alerts, want %d", got, p.n)
	}
	var kib int64
	if p.timeBin != "" {
		data, _ := os.ReadFile(usage)
		kib, _ = strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	}
	return took, kib, nil
}

// sideBySide times rounds starts of omctl server (args) until it prints
// its URL, and as many runs of jq on the fixture, taking turns (jq first
// in even rounds, omctl first in odd ones) so that load from elsewhere on
// the machine falls on both alike, and prints each pair, the medians and
// their ratio against goal.
func sideBySide(what string, peer *jqPeer, dir, omctl string, rounds int, goal float64, args ...string) error {
	var starts, jqs, ratios []time.Duration
	var hwm []string
	var jqPeak int64
	for r := range rounds {
		var start, jq time.Duration
		var err error
		for turn := range 2 {
			if (r+turn)%2 == 0 {
				var kib int64
				if jq, kib, err = peer.run(dir); err != nil {
					return err
				}
				jqPeak = max(jqPeak, kib)
				continue
			}
			srv, err := benchdata.Start(omctl, args...)
			if err != nil {
				return err
			}
			start = srv.Startup
			hwm = append(hwm, srv.Memory("VmHWM"))
			srv.Stop()
		}
		starts, jqs = append(starts, start), append(jqs, jq)
		ratios = append(ratios, time.Duration(float64(time.Second)*start.Seconds()/jq.Seconds()))
		fmt.Printf("  %s, round %d: omctl %.2f s (peak %s), jq %.2f s: %.2f×\n", what, r+1, start.Seconds(), hwm[r], jq.Seconds(), start.Seconds()/jq.Seconds())
	}
	ratio := median(starts).Seconds() / median(jqs).Seconds()
	verdict := "met"
	if ratio > goal {
		verdict = "NOT met"
	}
	peak := "?"
	if jqPeak > 0 {
		peak = fmt.Sprintf("%.0f MiB", float64(jqPeak)/1024)
	}
	fmt.Printf("%s: omctl %.2f s, jq '.alerts|length' %.2f s (peak %s), medians of %d in turns: %.2f× (pairs %.2f–%.2f×); goal ≤ %.2f×: %s\n",
		what, median(starts).Seconds(), median(jqs).Seconds(), peak, rounds, ratio, slices.Min(ratios).Seconds(), slices.Max(ratios).Seconds(), goal, verdict)
	return nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
