// Command startup compares how long omctl takes to start with a bare cobra
// binary that has the same command tree (names, help texts and flags) and
// nothing else: no API client, output, jq, table or prompt libraries; and,
// when given one, with the vendor's CLI, mongocli v1. The difference is what
// omctl's own start-up costs (docs/performance.md, "Start-up").
//
//	go run ./bench/startup -omctl bin/omctl [-peer /path/to/mongocli]
//
// Each round runs every binary once per command line, in an order that
// turns from round to round, so that a machine busy with other work slows
// them alike; the figures are the medians of the rounds, of the wall time
// and of the CPU time (user and system) the process used.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/template"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/omctl/omctl/internal/cmd/root"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
)

// peerEnv names the vendor's CLI when -peer is not given.
const peerEnv = "OMCTL_BENCH_PEER"

func main() {
	omctl := flag.String("omctl", "bin/omctl", "the omctl binary to measure")
	peer := flag.String("peer", os.Getenv(peerEnv), "the vendor's CLI (mongocli v1) to measure beside omctl; none when empty (env "+peerEnv+")")
	runs := flag.Int("runs", 300, "rounds; each runs every binary once per command line")
	flag.Parse()
	if err := run(*omctl, *peer, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "startup:", err)
		os.Exit(1)
	}
}

// A binary is one program measured, and how it says each command line.
type binary struct {
	name string
	path string
	args [2][]string // --version, alerts list --help
	// fails is set when the binary's --version exits non-zero (a mongocli
	// built without its version stamped has no --version flag): it is
	// still timed, as it does the same work, and the table says so.
	fails bool
}

var lines = [2]string{"--version", "alerts list --help"}

func run(omctl, peer string, runs int) error {
	omctl, err := filepath.Abs(omctl)
	if err != nil {
		return err
	}
	// A directory starting with "." inside the module, so the generated
	// program builds with the module's cobra and ./... never sees it.
	dir, err := os.MkdirTemp("bench", ".startup-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ios, _, _, _ := iostreams.Test()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), generate(root.NewCmdRoot(cmdutil.New(ios))), 0o600); err != nil {
		return err
	}
	bare := filepath.Join(dir, "bare")
	// Built as `make build` builds omctl: static, stripped.
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", bare, "./"+dir)
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building the bare cobra binary: %v\n%s", err, out)
	}
	bins := []*binary{
		{name: "omctl", path: omctl, args: [2][]string{{"--version"}, {"alerts", "list", "--help"}}},
		{name: "bare cobra", path: bare, args: [2][]string{{"--version"}, {"alerts", "list", "--help"}}},
	}
	if peer != "" {
		p, err := peerBinary(peer)
		if err != nil {
			return err
		}
		bins = append(bins, p)
	}
	fmt.Printf("load average before: %s\n", loadAverage())
	wall, cpu, err := measure(bins, runs)
	if err != nil {
		return err
	}
	fmt.Printf("load average after: %s\n", loadAverage())
	for _, b := range bins {
		if b.fails {
			fmt.Printf("%s: %s exits non-zero (no version stamped): timed all the same\n", b.name, strings.Join(b.args[0], " "))
		}
	}
	report("wall", bins, wall, runs)
	report("cpu", bins, cpu, runs)
	return nil
}

// peerBinary finds how the vendor's CLI prints its version: mongocli v1
// answers --version when its release build stamped one, and some builds
// have a version command instead.
func peerBinary(path string) (*binary, error) {
	path, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	b := &binary{name: "peer", path: path, args: [2][]string{nil, {"ops-manager", "alerts", "list", "--help"}}}
	for _, args := range [][]string{{"--version"}, {"version"}} {
		if out, err := exec.Command(path, args...).Output(); err == nil && len(bytes.TrimSpace(out)) > 0 {
			b.args[0] = args
			return b, nil
		}
	}
	var exit *exec.ExitError
	if _, err := exec.Command(path, "--help").Output(); err != nil && !errors.As(err, &exit) {
		return nil, fmt.Errorf("the peer %s does not run: %v", path, err)
	}
	b.args[0], b.fails = []string{"--version"}, true
	return b, nil
}

// measure runs every binary once per command line in each round, turning
// the order from round to round, and returns the wall and CPU times,
// indexed by command line, then binary, then round.
func measure(bins []*binary, runs int) (wall, cpu [2][][]time.Duration, err error) {
	for l := range lines {
		wall[l] = make([][]time.Duration, len(bins))
		cpu[l] = make([][]time.Duration, len(bins))
	}
	const warmup = 5
	for r := range runs + warmup {
		for l := range lines {
			for i := range bins {
				k := (i + r) % len(bins)
				b := bins[k]
				w, c, err := once(b, l)
				if err != nil {
					return wall, cpu, err
				}
				if r >= warmup {
					wall[l][k] = append(wall[l][k], w)
					cpu[l][k] = append(cpu[l][k], c)
				}
			}
		}
	}
	return wall, cpu, nil
}

func once(b *binary, line int) (wall, cpu time.Duration, err error) {
	cmd := exec.Command(b.path, b.args[line]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	began := time.Now()
	err = cmd.Run()
	wall = time.Since(began)
	if err != nil && !(b.fails && line == 0) {
		return 0, 0, fmt.Errorf("%s %s: %v\n%s", b.path, strings.Join(b.args[line], " "), err, out.Bytes())
	}
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}

func report(what string, bins []*binary, times [2][][]time.Duration, runs int) {
	head := fmt.Sprintf("%s, median of %d", what, runs)
	fmt.Printf("\n%-22s", head)
	for i, b := range bins {
		fmt.Printf(" %11s", b.name)
		if i > 0 {
			fmt.Printf(" %12s", "omctl/"+strings.Fields(b.name)[0])
		}
	}
	fmt.Println()
	for l, line := range lines {
		fmt.Printf("%-22s", line)
		first := median(times[l][0])
		for i := range bins {
			m := median(times[l][i])
			fmt.Printf(" %9.2fms", float64(m.Microseconds())/1000)
			if i > 0 {
				fmt.Printf(" %11.2f×", first.Seconds()/m.Seconds())
			}
		}
		fmt.Println()
	}
}

// loadAverage is the machine's load average over 1, 5 and 15 minutes,
// which says how busy it was while the figures were taken.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

func median(ts []time.Duration) time.Duration {
	s := slices.Clone(ts)
	slices.Sort(s)
	return s[len(s)/2]
}

type flagDef struct {
	Set                             string // the flag set's expression, c3.Flags() say
	Name, Shorthand, Usage, Default string
	Bool                            bool
}

type cmdDef struct {
	Var, Parent                        string
	Use, Short, Long, Example, Version string
	Hidden                             bool
	Flags, PersistentFlags             []flagDef
}

// generate writes a main package building the same tree as c with cobra
// alone; every command does nothing.
func generate(c *cobra.Command) []byte {
	var cmds []cmdDef
	var walk func(c *cobra.Command, parent string)
	walk = func(c *cobra.Command, parent string) {
		d := cmdDef{Var: fmt.Sprintf("c%d", len(cmds)), Parent: parent, Use: c.Use, Short: c.Short, Long: c.Long,
			Example: c.Example, Version: c.Version, Hidden: c.Hidden}
		c.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) { d.Flags = append(d.Flags, def(d.Var+".Flags()", f)) })
		c.PersistentFlags().VisitAll(func(f *pflag.Flag) { d.Flags = append(d.Flags, def(d.Var+".PersistentFlags()", f)) })
		cmds = append(cmds, d)
		for _, sub := range c.Commands() {
			if sub.Name() != "help" && sub.Name() != "completion" {
				walk(sub, d.Var)
			}
		}
	}
	walk(c, "")
	var buf bytes.Buffer
	if err := program.Execute(&buf, cmds); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func def(set string, f *pflag.Flag) flagDef {
	return flagDef{Set: set, Name: f.Name, Shorthand: f.Shorthand, Usage: f.Usage, Default: f.DefValue, Bool: f.Value.Type() == "bool"}
}

var program = template.Must(template.New("main").Parse(`// Code generated by bench/startup. DO NOT EDIT.
package main

import (
	"os"

	"github.com/spf13/cobra"
)

func main() {
	run := func(*cobra.Command, []string) error { return nil }
	_ = run
{{- range .}}
	{{.Var}} := &cobra.Command{Use: {{printf "%q" .Use}}, Short: {{printf "%q" .Short}}, Long: {{printf "%q" .Long}}, Example: {{printf "%q" .Example}}, Version: {{printf "%q" .Version}}, Hidden: {{.Hidden}}, SilenceUsage: true}
	{{- if .Parent}}
	{{.Var}}.RunE = run
	{{.Parent}}.AddCommand({{.Var}})
	{{- end}}
	{{- range .Flags}}
	{{- if .Bool}}
	{{.Set}}.BoolP({{printf "%q" .Name}}, {{printf "%q" .Shorthand}}, {{eq .Default "true"}}, {{printf "%q" .Usage}})
	{{- else}}
	{{.Set}}.StringP({{printf "%q" .Name}}, {{printf "%q" .Shorthand}}, {{printf "%q" .Default}}, {{printf "%q" .Usage}})
	{{- end}}
	{{- end}}
{{- end}}
	if c0.Execute() != nil {
		os.Exit(1)
	}
}
`))
