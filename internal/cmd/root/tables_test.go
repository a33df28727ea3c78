package root

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/omctl/omctl/internal/cmd/alertconfigs"
	"github.com/omctl/omctl/internal/cmd/alerts"
	"github.com/omctl/omctl/internal/cmd/apikeys"
	"github.com/omctl/omctl/internal/cmd/backupconfigs"
	"github.com/omctl/omctl/internal/cmd/backupjobs"
	"github.com/omctl/omctl/internal/cmd/clusters"
	"github.com/omctl/omctl/internal/cmd/globalalertconfigs"
	"github.com/omctl/omctl/internal/cmd/orgs"
	"github.com/omctl/omctl/internal/cmd/projects"
	"github.com/omctl/omctl/internal/cmd/s3store"
	"github.com/omctl/omctl/internal/cmd/snapshots"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/output"
	"github.com/omctl/omctl/internal/server"
	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/demo"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
)

// demoNow is the time of the demo data and of relative times in goldens.
var demoNow = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// demoServer serves the demo data on a clock that stands still at demoNow.
func demoServer(t *testing.T) string {
	t.Helper()
	s, err := server.New(server.Options{Fixtures: demo.Fixtures(demoNow), Clock: store.VirtualClock(demoNow)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	cmdtest.Env(t, ts.URL, demo.ProjectID)
	t.Setenv("OMCTL_PUBLIC_KEY", "demoowner")
	t.Setenv("OMCTL_PRIVATE_KEY", "11111111-aaaa-4bbb-8ccc-000000000001")
	t.Setenv("OMCTL_ORG_ID", demo.OrgID)
	return ts.URL
}

// runAtTerminal runs omctl as if stdout were a terminal of the given width,
// with relative times measured from demoNow.
func runAtTerminal(t *testing.T, width int, args ...string) string {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetNoColor(true)
	ios.SetTerminalWidth(width)
	f := cmdutil.New(ios)
	f.Now = func() time.Time { return demoNow }
	cmd := NewCmdRoot(f)
	cmd.SetArgs(args)
	cmd.SetOut(out)
	cmd.SetErr(errOut)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("%v: %v (%s)", args, err, errOut)
	}
	return out.String()
}

// TestTablesFitTheTerminal renders every table and describe view at 60, 80
// and 120 columns: no line may be wider than the terminal, and the result must
// match its golden file under testdata/tables (rewritten by -update).
func TestTablesFitTheTerminal(t *testing.T) {
	demoServer(t)
	for name, args := range map[string][]string{
		"alerts-list":              {"alerts", "list", "--limit", "6"},
		"alertconfigs-list":        {"alertconfigs", "list", "--limit", "6"},
		"globalalerts-list":        {"globalalerts", "list", "--limit", "6"},
		"globalalertconfigs-list":  {"globalalertconfigs", "list", "--limit", "6"},
		"snapshots-list":           {"snapshots", "list", "--cluster", "5e3c0c2e8f9d4b0012340001", "--limit", "4"},
		"backupconfigs-members":    {"backupconfigs", "describe", "5e3c0c2e8f9d4b0012340003", "--project", "5e2b0c2e8f9d4b0012340002", "--members"},
		"backupjobs-describe":      {"backupjobs", "describe", "5e2b0c2e8f9d4b0012340001"},
		"oplogstores-describe":     {"oplogstores", "describe", "oplog-us-east-1"},
		"snapshotstores-describe":  {"snapshotstores", "describe", "blockstore-us-1"},
		"alerts-describe":          {"alerts", "describe", "5f1a0c2e8f9d4b0000000092"},
		"snapshots-describe":       {"snapshots", "describe", "5f3c0c2e8f9d4b000000019c", "--cluster", "5e3c0c2e8f9d4b0012340001"},
		"alertconfigs-describe":    {"alertconfigs", "describe", "5f2a0c2e8f9d4b0000000001"},
		"backupconfigs-describe":   {"backupconfigs", "describe", "5e3c0c2e8f9d4b0012340001"},
		"backupconfigs-list":       {"backupconfigs", "list"},
		"projects-list":            {"projects", "list"},
		"projects-describe":        {"projects", "describe", demo.ProjectID},
		"orgs-list":                {"orgs", "list"},
		"orgs-describe":            {"orgs", "describe", demo.OrgID},
		"clusters-list":            {"clusters", "list"},
		"clusters-describe":        {"clusters", "describe", "5e3c0c2e8f9d4b0012340001"},
		"oplogstores-list":         {"oplogstores", "list"},
		"snapshotstores-list":      {"snapshotstores", "list"},
		"apikeys-list":             {"apikeys", "list"},
		"apikeys-describe":         {"apikeys", "describe", "5f4d0c2e8f9d4b0012340002"},
		"accesslist-list":          {"apikeys", "accesslist", "list", "5f4d0c2e8f9d4b0012340005"},
		"alerts-list-all-projects": {"alerts", "list", "--all-projects", "--status", "OPEN", "--limit", "3"},
		"server-clock":             {"server", "clock"},
	} {
		for _, width := range []int{60, 80, 120} {
			got := runAtTerminal(t, width, args...)
			checkScreen(t, name, width, got)
			golden := filepath.Join("testdata", "tables", name+"-"+strconv.Itoa(width)+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (write goldens with: go test ./internal/cmd/root -run TestTablesFitTheTerminal -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s at %d columns:\n--- got\n%s--- want\n%s", name, width, got, want)
			}
		}
	}
}

// idStub is an id of 24 hex digits cut short.
var idStub = regexp.MustCompile(`\b[0-9a-f]{4,23}…`)

// checkScreen fails t for a line of screen wider than width, a header cut
// to a stub, or an id cut short.
func checkScreen(t *testing.T, name string, width int, screen string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(screen, "\n"), "\n")
	for _, line := range lines {
		if w := twwidth.Width(line); w > width {
			t.Errorf("%s at %d columns: a line is %d wide:\n%s", name, width, w, screen)
			break
		}
	}
	if strings.Contains(lines[0], "…") {
		t.Errorf("%s at %d columns: a header is cut:\n%s", name, width, screen)
	}
	if idStub.MatchString(screen) {
		t.Errorf("%s at %d columns: an id is cut:\n%s", name, width, screen)
	}
}

// The server's own tables (the journal, faults, notifications, the clock)
// fit the terminal too; the clock is its time itself, not "just now".
func TestServerTablesFitTheTerminal(t *testing.T) {
	demoServer(t)
	runAtTerminal(t, 120, "server", "faults", "add", "--path", "/groups/*/alerts/**", "--method", "PATCH", "--status", "503", "--retry-after", "2", "--times", "2", "--probability", "0.5")
	runAtTerminal(t, 120, "server", "trigger", "HOST_DOWN", "--host", "db-a9.example.com:27017") // a host with no active alert yet
	runAtTerminal(t, 120, "alerts", "list", "--status", "OPEN", "--limit", "2")
	for name, args := range map[string][]string{
		"server requests":      {"server", "requests", "--limit", "20"},
		"server faults list":   {"server", "faults", "list"},
		"server notifications": {"server", "notifications"},
	} {
		for _, width := range []int{60, 80, 120} {
			got := runAtTerminal(t, width, args...)
			if strings.Count(got, "\n") < 2 {
				t.Fatalf("%s shows no rows:\n%s", name, got)
			}
			checkScreen(t, name, width, got)
		}
	}
	for _, args := range [][]string{{"server", "clock"}, {"server", "clock", "advance", "240h"}, {"server", "clock", "set", "2027-01-01T00:00:00Z"}} {
		got := runAtTerminal(t, 80, args...)
		if !regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`).MatchString(got) || strings.Contains(got, "ago") || strings.Contains(got, "just now") {
			t.Errorf("%v shows no absolute time:\n%s", args, got)
		}
	}
}

// Every header of every table is one whose layout output knows: how it
// gives way and its shorter forms.
func TestEveryTableHeaderIsKnown(t *testing.T) {
	for _, def := range []output.TableDef{alerts.Table, alertconfigs.Table, globalalertconfigs.Table, projects.Table, orgs.Table,
		clusters.Table, backupconfigs.Table, backupjobs.Table, snapshots.Table, apikeys.Table, apikeys.AccessListTable,
		s3store.Table, s3store.SnapshotTable, output.WithProject(alerts.Table)} {
		for _, h := range def.Headers {
			if !output.KnownHeader(h) {
				t.Errorf("header %q is not in output's columns", h)
			}
		}
	}
}

// Help wraps at the terminal's width, as gh's does; examples (commands to
// copy) stay whole.
func TestHelpWrapsAtTheTerminalWidth(t *testing.T) {
	t.Setenv("OMCTL_CONFIG_DIR", t.TempDir())
	for _, width := range []int{60, 80} {
		for _, args := range [][]string{{"alerts", "list", "--help"}, {"alertconfigs", "disable", "--help"}, {"server", "faults", "add", "--help"}} {
			got := runAtTerminal(t, width, args...)
			for _, line := range strings.Split(got, "\n") {
				if twwidth.Width(line) > width && !strings.HasPrefix(strings.TrimSpace(line), "omctl ") && !strings.HasPrefix(strings.TrimSpace(line), "$ ") {
					t.Errorf("%v at %d columns: %q is %d wide", args, width, line, twwidth.Width(line))
				}
			}
		}
	}
}
