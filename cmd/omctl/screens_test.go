package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/omctl/omctl/internal/store/demo"
)

// The terminals issue 32 was tried in, and a narrower one.
var terminalSizes = []struct{ width, height int }{{80, 40}, {60, 20}}

// screenServer serves the demo data on a clock that stands still, every
// page of 10 past the second held until the request is given up (so a
// command can be interrupted part way through a walk; held says when one
// is), and returns the environment of omctl against it.
func screenServer(t *testing.T) (env []string, held chan struct{}) {
	t.Helper()
	held = make(chan struct{}, 100)
	url, env := tmuxDemo(t, func(s http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if n := r.URL.Query().Get("pageNum"); r.URL.Query().Get("itemsPerPage") == "10" && n != "1" && n != "2" {
				held <- struct{}{}
				<-r.Context().Done()
				return
			}
			s.ServeHTTP(w, r)
		})
	})
	return append(env, "OMCTL_BASE_URL="+url, "OMCTL_PUBLIC_KEY=demoowner", "OMCTL_PRIVATE_KEY=11111111-aaaa-4bbb-8ccc-000000000001",
		"OMCTL_PROJECT_ID="+demo.ProjectID, "OMCTL_ORG_ID="+demo.OrgID), held
}

// omctlOut runs omctl outside tmux and returns its stdout.
func omctlOut(t *testing.T, env []string, args ...string) string {
	t.Helper()
	omctl, _ := os.Executable()
	cmd := exec.Command(omctl, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("omctl %v: %v: %s", args, err, out)
	}
	return string(out)
}

// fitsPane fails t for a line wider than the pane (capture-pane -J joins
// what the terminal wrapped) or an id of 24 hex digits cut short.
func fitsPane(t *testing.T, what string, width int, screen string) {
	t.Helper()
	for _, line := range strings.Split(screen, "\n") {
		if strings.HasPrefix(line, "$ omctl ") {
			continue // the shell's line, the command as typed
		}
		if w := twwidth.Width(line); w > width {
			t.Errorf("%s at %d columns: a line %d wide:\n%s", what, width, w, screen)
			break
		}
	}
	if cut := regexp.MustCompile(`\b[0-9a-f]{4,23}…`).FindString(screen); cut != "" {
		t.Errorf("%s at %d columns: an id cut to %s:\n%s", what, width, cut, screen)
	}
}

// promptAfter fails t unless the shell's next line (EXIT:130) starts a
// line of its own: no ^C, bar or data before it.
func promptAfter(t *testing.T, what string, screen string) {
	t.Helper()
	if !regexp.MustCompile(`(?m)^EXIT:130$`).MatchString(screen) {
		t.Errorf("%s: the shell's prompt would not start its own line after exit 130:\n%s", what, screen)
	}
}

// `alerts list --watch`: each frame fits the screen, its title on the
// first line; nothing piles up in the scrollback; an alert raised while
// it runs comes first; the footer fits and suggests no --status already
// given; Ctrl-C leaves the shell a clean line.
func TestWatchInARealTerminal(t *testing.T) {
	env, _ := screenServer(t)
	for _, size := range terminalSizes {
		for _, status := range []string{"", "OPEN"} {
			name := fmt.Sprintf("watch %dx%d --status %q", size.width, size.height, status)
			args := []string{"alerts", "list", "--watch", "--interval", "300ms"}
			if status != "" {
				args = append(args, "--status", status)
			}
			p := startSized(t, size.width, size.height, env, "", args...)
			p.waitFor(`(?m)^[0-9a-f]{24}  `)
			host := fmt.Sprintf("new-%d-%s.example.com:27017", size.width, strings.ToLower(status))
			id := strings.TrimSpace(omctlOut(t, env, "server", "trigger", "HOST_DOWN", "--host", host, "-o", "jsonl", "--jq", ".id"))
			if len(id) != 24 {
				t.Fatalf("server trigger raised %q", id)
			}
			if screen, ok := p.waitUpTo(id, 10*time.Second); !ok {
				t.Errorf("%s: the alert raised, %s, never came on screen:\n%s", name, id, screen)
			}
			time.Sleep(700 * time.Millisecond) // two more redraws
			screen := p.screen()
			lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
			if !strings.HasPrefix(lines[0], "Every 300ms: omctl alerts list") {
				t.Errorf("%s: the title is not the first line:\n%s", name, screen)
			}
			if !strings.HasPrefix(lines[3], id+"  OPEN") {
				t.Errorf("%s: the new alert %s is not first:\n%s", name, id, screen)
			}
			footer := lines[len(lines)-1]
			if !strings.HasPrefix(footer, "… and ") && !strings.HasPrefix(footer, "+") || strings.Contains(footer, "--status") != (status == "") && size.width >= 80 {
				t.Errorf("%s: footer %q", name, footer)
			}
			fitsPane(t, name, size.width, screen)
			if back := p.scrollback(); strings.Contains(back, "Every ") || strings.Contains(back, "older alerts") {
				t.Errorf("%s: frames in the scrollback:\n%s", name, back)
			}
			p.keys("C-c")
			promptAfter(t, name, p.waitFor(`EXIT:\d+`))
		}
	}
}

// The pickers at 80 and 60 columns: each option one line with its id
// first and whole, the title on screen however far the cursor goes, no
// complaint before a key is pressed, no frame in the scrollback; unack
// offers only acknowledged alerts, the snapshot picker only snapshots
// whose expiry can still change.
func TestPickersInARealTerminal(t *testing.T) {
	env, _ := screenServer(t)
	idLine := regexp.MustCompile(`^┃ [ >] [•✓] ([0-9a-f]{24})  `)
	acked := map[string]bool{}
	for _, line := range strings.Split(omctlOut(t, env, "alerts", "list", "--all", "-o", "jsonl", "--jq", `select(.acknowledgedUntil != null and .acknowledgedUntil > (now | todate)) | .id`), "\n") {
		acked[line] = line != ""
	}
	for _, size := range terminalSizes {
		for _, verb := range []string{"ack", "unack"} {
			name := fmt.Sprintf("alerts %s picker %dx%d", verb, size.width, size.height)
			args := []string{"alerts", verb}
			if verb == "ack" {
				args = append(args, "--until", "2h")
			}
			p := startSized(t, size.width, size.height, env, "", args...)
			title := "Alerts to " + verb + "nowledge"
			screen := p.waitFor(`(?m)^┃ > • `)
			if strings.Contains(screen, "select at least one") || strings.Contains(screen, title+" *") {
				t.Errorf("%s: a complaint before any key:\n%s", name, screen)
			}
			for range size.height + 5 {
				p.keys("Down")
			}
			p.until(1, "x")
			screen = p.screen()
			if !strings.Contains(screen, "┃ "+title) {
				t.Errorf("%s: the title scrolled away:\n%s", name, screen)
			}
			options := 0
			for _, line := range strings.Split(screen, "\n") {
				if m := idLine.FindStringSubmatch(line); m != nil {
					options++
					if verb == "unack" && !acked[m[1]] {
						t.Errorf("%s offers %s, which is not acknowledged", name, m[1])
					}
				} else if strings.HasPrefix(line, "┃ ") && strings.Contains(line, "•") {
					t.Errorf("%s: an option without its id first: %q", name, line)
				}
			}
			if options < size.height/2 && verb == "ack" || options == 0 {
				t.Errorf("%s: %d options shown:\n%s", name, options, screen)
			}
			fitsPane(t, name, size.width, screen)
			if back := p.scrollback(); strings.Contains(back, title) {
				t.Errorf("%s: frames in the scrollback:\n%s", name, back)
			}
			p.keys("C-c")
			promptAfter(t, name, p.waitFor(`EXIT:\d+`))
		}

		name := fmt.Sprintf("snapshot picker %dx%d", size.width, size.height)
		var expired, kept []string
		for _, line := range strings.Split(omctlOut(t, env, "snapshots", "list", "--cluster", "5e3c0c2e8f9d4b0012340001", "--all", "-o", "jsonl"), "\n") {
			var s struct {
				ID, Expires string
				DoNotDelete bool
			}
			if json.Unmarshal([]byte(line), &s) != nil {
				continue
			}
			if s.DoNotDelete {
				kept = append(kept, s.ID)
			} else if e, err := time.Parse(time.RFC3339, s.Expires); err == nil && e.Before(time.Now()) {
				expired = append(expired, s.ID)
			}
		}
		if len(expired) == 0 || len(kept) == 0 {
			t.Fatalf("the demo cluster has %d expired and %d kept snapshots: the test needs both", len(expired), len(kept))
		}
		for flag, refused := range map[string][]string{"--expires=30d": expired, "--do-not-delete": kept} {
			p := startSized(t, size.width, size.height, env, "", "snapshots", "expire", "--cluster", "5e3c0c2e8f9d4b0012340001", flag)
			screen := p.waitFor(`(?m)^┃ > [0-9a-f]{24}`)
			for _, id := range refused {
				if strings.Contains(screen, id) {
					t.Errorf("%s %s offers %s, which it cannot change:\n%s", name, flag, id, screen)
				}
			}
			if !strings.Contains(screen, "Snapshot whose expiry to change") {
				t.Errorf("%s: no title:\n%s", name, screen)
			}
			fitsPane(t, name, size.width, screen)
			p.keys("C-c")
			promptAfter(t, name, p.waitFor(`EXIT:\d+`))
		}
	}
}

// Ctrl-C part way through a table at a terminal: the bar is gone, the
// rows fetched end with a line saying the list is partial, stderr says
// what was not fetched, exit 130 leaves the shell a clean line; and
// during -o json into a file: the file holds nothing, never part of a
// document.
func TestCtrlCInARealTerminal(t *testing.T) {
	env, held := screenServer(t)
	for _, size := range terminalSizes {
		name := fmt.Sprintf("table %dx%d", size.width, size.height)
		p := startSized(t, size.width, size.height, env, "", "alerts", "list", "--all", "--limit", "10")
		p.waitFor(`page 2 `)
		p.keys("C-c")
		screen := p.waitFor(`EXIT:\d+`)
		if strings.Contains(screen, "page 2") || strings.Contains(screen, "%") || strings.Contains(screen, "^C") {
			t.Errorf("%s: the bar or ^C is left:\n%s", name, screen)
		}
		if !regexp.MustCompile(`(?m)^\(partial list: 20 of \d+ shown\)\nThe list stopped before its end: 20 items printed, \d+ of\s\d+ were not fetched\.\nEXIT:130$`).MatchString(screen) {
			t.Errorf("%s: no partial line, no word of what was not fetched, or not exit 130:\n%s", name, screen)
		}
		fitsPane(t, name, size.width, screen)
		for len(held) > 0 { // the pages this run asked for, all given up
			<-held
		}

		out := filepath.Join(t.TempDir(), "out.json")
		p = startSized(t, size.width, size.height, env, "> "+out, "alerts", "list", "--all", "--limit", "10", "-o", "json")
		select { // the walk waits for page 3 once pages 1 and 2 are in
		case <-held:
		case <-time.After(20 * time.Second):
			t.Fatalf("the list never asked for page 3:\n%s", p.screen())
		}
		p.keys("C-c")
		screen = p.waitFor(`EXIT:\d+`)
		promptAfter(t, "-o json "+name, screen)
		data, err := os.ReadFile(out)
		if err != nil || len(data) > 0 && !json.Valid(data) {
			t.Errorf("-o json %s: the file holds %d bytes that are not one JSON document (%v)", name, len(data), err)
		}
		if len(data) > 0 {
			t.Errorf("-o json %s: a stopped list printed %d bytes", name, len(data))
		}
		if !strings.Contains(strings.Join(strings.Fields(screen), " "), "nothing printed (-o json prints the whole list or nothing)") {
			t.Errorf("-o json %s: stderr does not say what was printed:\n%s", name, screen)
		}
	}
}
