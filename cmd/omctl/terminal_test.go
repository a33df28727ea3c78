package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/server"
	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/demo"
)

// tmuxPane runs one omctl command line in a tmux session of its own and
// drives it as a person would: keys in (send-keys), the screen out
// (capture-pane).
type tmuxPane struct {
	t      *testing.T
	socket string
}

// startInTmux starts `omctl args...` in a new tmux server on a socket of
// the test's own, with env, 120x40 like a roomy terminal. When omctl
// ends the pane shows "EXIT:<code>" and stays, so its last screen can be read.
func startInTmux(t *testing.T, env []string, args ...string) *tmuxPane {
	t.Helper()
	return startSized(t, 120, 40, env, "", args...)
}

// startSized is startInTmux in a terminal of width x height, with stdout
// sent where redirect says ("> FILE"), if anywhere.
func startSized(t *testing.T, width, height int, env []string, redirect string, args ...string) *tmuxPane {
	t.Helper()
	omctl, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	quoted := []string{"env"}
	for _, a := range append(append(env, omctl), args...) {
		quoted = append(quoted, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	// Before omctl, the line a shell's prompt and the command take, as at
	// a shell (a screen drawn from the top row is not what people see).
	// After it, the line the prompt would take: EXIT: at its start means
	// nothing (such as a ^C) was left where it begins.
	prompt := "'$ omctl " + strings.ReplaceAll(strings.Join(args, " "), "'", "") + "'"
	line := "echo " + prompt + "; " + strings.Join(quoted, " ") + " " + redirect + `; echo "EXIT:$?"; sleep 600`
	p := &tmuxPane{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	p.tmux("-f", "/dev/null", "new-session", "-d", "-s", "omctl", "-x", strconv.Itoa(width), "-y", strconv.Itoa(height), line)
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", p.socket, "kill-server").Run() })
	return p
}

func (p *tmuxPane) tmux(args ...string) string {
	p.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", p.socket}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen is what the pane shows, each line whole (-J joins a line the
// terminal wrapped: a line wider than the pane shows as such).
func (p *tmuxPane) screen() string {
	p.t.Helper()
	return p.tmux("capture-pane", "-p", "-J", "-t", "omctl")
}

// scrollback is what scrolled off the top of the pane.
func (p *tmuxPane) scrollback() string {
	p.t.Helper()
	n := strings.TrimSpace(p.tmux("display-message", "-p", "-t", "omctl", "#{history_size}"))
	if n == "0" {
		return ""
	}
	return p.tmux("capture-pane", "-p", "-J", "-S", "-"+n, "-E", "-1", "-t", "omctl")
}

// waitFor waits until the screen matches re and returns the screen.
func (p *tmuxPane) waitFor(re string) string {
	p.t.Helper()
	s, ok := p.waitUpTo(re, 20*time.Second)
	if !ok {
		p.t.Fatalf("the screen never showed %q:\n%s", re, s)
	}
	return s
}

// waitUpTo waits at most d until the screen matches re, and returns the
// screen and whether it did.
func (p *tmuxPane) waitUpTo(re string, d time.Duration) (string, bool) {
	p.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(d)
	for {
		s := p.screen()
		if rx.MatchString(s) {
			return s, true
		}
		if time.Now().After(deadline) {
			return s, false
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// keys sends tmux key names (Enter, Down, Space) or text (-l).
func (p *tmuxPane) keys(keys ...string) {
	p.t.Helper()
	p.tmux(append([]string{"send-keys", "-t", "omctl"}, keys...)...)
}

func (p *tmuxPane) text(s string) {
	p.t.Helper()
	p.tmux("send-keys", "-t", "omctl", "-l", s)
}

// fill answers the question titled title with answer and Enter, once the
// field shows the whole answer (as many asterisks when masked). Should it
// not within 1.5 s, it clears the field (Ctrl-U) and types again, and
// says so: with bubbletea v2.0 keys sent as one form gave way to the next
// were lost.
func (p *tmuxPane) fill(title, answer string, masked bool) {
	p.t.Helper()
	p.waitFor(regexp.QuoteMeta(title))
	shown := answer
	if masked {
		shown = strings.Repeat("*", len(answer))
	}
	field := regexp.MustCompile(`> ` + regexp.QuoteMeta(shown) + `\s*$`)
	for try := 0; try < 20; try++ {
		if try > 0 {
			p.t.Logf("retyping %q (try %d)", title, try)
		}
		p.keys("C-u")
		p.text(answer)
		for wait := 0; wait < 50; wait++ {
			time.Sleep(30 * time.Millisecond)
			for _, line := range strings.Split(p.screen(), "\n") {
				if field.MatchString(line) {
					p.keys("Enter")
					return
				}
			}
		}
	}
	p.t.Fatalf("the field %q never showed the answer:\n%s", title, p.screen())
}

// until sends key until the screen shows n chosen options (✓).
func (p *tmuxPane) until(n int, key string) {
	p.t.Helper()
	// A toggle sent twice undoes itself: each try waits long enough for
	// a slow (race-detector) omctl to draw the first.
	for try := 0; try < 5; try++ {
		p.keys(key)
		for wait := 0; wait < 100; wait++ {
			time.Sleep(30 * time.Millisecond)
			if strings.Count(p.screen(), "✓") == n {
				return
			}
		}
	}
	p.t.Fatalf("never %d chosen:\n%s", n, p.screen())
}

// TestPromptsAndPickersInARealTerminal drives omctl's prompts inside
// tmux: config init filled in and checked against the server, the alerts
// ack picker used to acknowledge two alerts, and a confirmation declined.
// `make test-terminal` installs tmux and runs it.
func TestPromptsAndPickersInARealTerminal(t *testing.T) {
	url, env := tmuxDemo(t, nil)
	// A config directory the test reads back.
	dir := t.TempDir()
	base := append(env, "OMCTL_CONFIG_DIR="+dir,
		"OMCTL_BASE_URL=", "OMCTL_PUBLIC_KEY=", "OMCTL_PRIVATE_KEY=", "OMCTL_PROJECT_ID=", "OMCTL_ORG_ID=")

	t.Run("config init", func(t *testing.T) {
		p := startInTmux(t, base, "config", "init", "-P", "tmux", "--insecure-storage")
		p.fill("Base URL", url, false)
		p.fill("Public key", "demoowner", false)
		p.fill("Private key", "11111111-aaaa-4bbb-8ccc-000000000001", true)
		// The key checked, the projects it reads are offered, ids first;
		// the first is the demo's production project.
		p.waitFor(`> ` + demo.ProjectID + `  production`)
		p.keys("Enter")
		// The organization offered is the chosen project's.
		p.waitFor(`> ` + demo.OrgID)
		p.keys("Enter")
		screen := p.waitFor(`EXIT:\d+`)
		if !strings.Contains(screen, "EXIT:0") || !strings.Contains(screen, "The server accepted the key;") || !strings.Contains(screen, `Saved profile "tmux"`) {
			t.Fatalf("screen:\n%s", screen)
		}
		if strings.Contains(screen, "000000000001") {
			t.Errorf("the private key was shown:\n%s", screen)
		}
		data, err := os.ReadFile(filepath.Join(dir, "config.toml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"base_url = '" + url + "'", "org_id = '" + demo.OrgID + "'", "project_id = '" + demo.ProjectID + "'", "public_key = 'demoowner'"} {
			if !strings.Contains(string(data), want) {
				t.Errorf("config.toml lacks %s:\n%s", want, data)
			}
		}
	})

	profile := append(append([]string{}, base...), "OMCTL_PROFILE=tmux")

	t.Run("alerts ack picker", func(t *testing.T) {
		p := startInTmux(t, profile, "alerts", "ack", "--until", "4h")
		p.waitFor(`Alerts to acknowledge`)
		p.until(1, "x") // the first alert chosen
		p.keys("Down")
		p.until(2, "x") // and the second
		p.keys("Enter")
		screen := p.waitFor(`EXIT:\d+`)
		if !strings.Contains(screen, "EXIT:0") || strings.Count(screen, "acknowledged") < 2 {
			t.Fatalf("screen:\n%s", screen)
		}
	})

	t.Run("confirmation declined", func(t *testing.T) {
		id := firstAlertConfig(t, profile)
		p := startInTmux(t, profile, "alertconfigs", "delete", id)
		p.waitFor(`Delete alert configuration ` + id)
		p.keys("n")
		screen := p.waitFor(`EXIT:\d+`)
		if !strings.Contains(screen, "EXIT:1") || !strings.Contains(screen, "not deleted: the deletion was not confirmed") {
			t.Fatalf("screen:\n%s", screen)
		}
		// Still there.
		if got := firstAlertConfig(t, profile); got != id {
			t.Errorf("first configuration now %s, was %s", got, id)
		}
	})
}

// tmuxDemo skips t when tmux is missing, serves the demo data on a clock
// that stands still (through wrap, when not nil) and returns its URL and
// the environment of omctl inside tmux: the test binary as omctl, a config
// directory of its own, no colour, and no credential store of the
// machine's (the keyring test covers the store).
func tmuxDemo(t *testing.T, wrap func(http.Handler) http.Handler) (string, []string) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: run `make test-terminal`, which installs it")
	}
	clock := time.Now().UTC().Truncate(time.Minute)
	s, err := server.New(server.Options{Fixtures: demo.Fixtures(clock), Clock: store.VirtualClock(clock)})
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = s
	if wrap != nil {
		h = wrap(s)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	dir := t.TempDir()
	return ts.URL, []string{asOmctl + "=1", "OMCTL_CONFIG_DIR=" + dir, "GORACE=atexit_sleep_ms=0", "NO_COLOR=1", "TERM=xterm-256color",
		"DBUS_SESSION_BUS_ADDRESS=unix:path=" + filepath.Join(dir, "no-bus"), "OMCTL_PROFILE=", "OMCTL_PRIVATE_KEY_FILE="}
}

// firstAlertConfig runs omctl outside tmux for the id of the project's
// first alert configuration.
func firstAlertConfig(t *testing.T, env []string) string {
	t.Helper()
	omctl, _ := os.Executable()
	cmd := exec.Command(omctl, "alertconfigs", "list", "-o", "json", "--jq", ".results[0].id")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	id := strings.Trim(strings.TrimSpace(string(out)), `"`)
	if len(id) != 24 {
		t.Fatalf("alertconfigs list: %q", out)
	}
	return fmt.Sprint(id)
}
