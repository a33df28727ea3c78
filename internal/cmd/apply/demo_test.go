package apply

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/server"
	omstore "github.com/omctl/omctl/internal/store"
)

// demoDeps runs commands as the demo's global owner against a fresh
// in-process server with the demo data.
func demoDeps(t *testing.T) (func() (cmdutil.Deps, *strings.Builder, *strings.Builder), *client.Client) {
	t.Helper()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	s, err := server.New(server.Options{Fixtures: omstore.DemoFixtures(now), Clock: omstore.VirtualClock(now)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	t.Setenv("OMCTL_CONFIG_DIR", t.TempDir())
	t.Setenv("OMCTL_PROFILE", "")
	t.Setenv("OMCTL_BASE_URL", ts.URL)
	t.Setenv("OMCTL_PUBLIC_KEY", "demoowner")
	t.Setenv("OMCTL_PRIVATE_KEY", "11111111-aaaa-4bbb-8ccc-000000000001")
	t.Setenv("OMCTL_PROJECT_ID", omstore.DemoProjectID)
	t.Setenv("OMCTL_ORG_ID", omstore.DemoOrgID)
	deps := func() (cmdutil.Deps, *strings.Builder, *strings.Builder) {
		ios, _, _, _ := iostreams.Test()
		out, errOut := &strings.Builder{}, &strings.Builder{}
		ios.Out, ios.ErrOut = out, errOut
		return cmdutil.NewDeps(cmdutil.New(ios)), out, errOut
	}
	d, _, _ := deps()
	c, err := d.Client()
	if err != nil {
		t.Fatal(err)
	}
	return deps, c
}

// writesJournaled counts the writes the server's request journal holds.
func writesJournaled(t *testing.T, c *client.Client) int {
	t.Helper()
	body, err := c.Get(context.Background(), client.ControlPrefix+"requests", url.Values{"itemsPerPage": {"500"}})
	if err != nil {
		t.Fatal(err)
	}
	var page struct {
		Results []struct{ Method, Path string }
	}
	if err := json.Unmarshal(body, &page); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range page.Results {
		if r.Method != "GET" {
			n++
		}
	}
	return n
}

var refLine = regexp.MustCompile(`\$\{env:([A-Z0-9_]+)\}`)

// export --secret-refs, edit, apply, over every configuration of the demo
// data: the references are set from the environment, every alert
// configuration changes a field, and a second apply makes no write.
func TestDemoExportEditApplyWithReferences(t *testing.T) {
	deps, c := demoDeps(t)
	d, out, errOut := deps()
	kinds := []string{"AlertConfig", "GlobalAlertConfig", "BackupJobsConfig", "OplogStore/oplog-us-east-1",
		"SnapshotStore/blockstore-us-1", "SnapshotStore/blockstore-eu-1"}
	if err := exportRun(context.Background(), &ExportOptions{Deps: d, Kinds: kinds, SecretRefs: true}); err != nil {
		t.Fatal(err)
	}
	exported := out.String()
	if strings.Contains(exported, "****") || strings.Contains(exported, "secret-value") {
		t.Fatalf("the export holds a secret, redacted or not:\n%s", exported)
	}
	// The variables: each is listed on stderr, and set here to a secret
	// of its kind (in a CI job, from its secret store).
	names := refLine.FindAllStringSubmatch(exported, -1)
	if len(names) < 15 {
		t.Fatalf("%d references, want one per secret of the demo data:\n%s", len(names), exported)
	}
	for _, m := range names {
		if !strings.Contains(errOut.String(), m[1]) {
			t.Errorf("stderr does not list %s", m[1])
		}
		value := "secret-for-" + strings.ToLower(m[1])
		if strings.HasSuffix(m[1], "URL") {
			value = "https://hooks.example.net/" + strings.ToLower(m[1])
		}
		t.Setenv(m[1], value)
	}
	// The edit: every project alert configuration waits a minute longer.
	edited := regexp.MustCompile(`(?m)^(    delayMin: )(\d+)$`).ReplaceAllStringFunc(exported, func(s string) string {
		return strings.Replace(s, "delayMin: ", "delayMin: 1", 1)
	})
	path := filepath.Join(t.TempDir(), "all.yaml")
	if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	d, out, errOut = deps()
	if err := applyRun(context.Background(), &Options{Deps: d, Files: []string{path}}); err != nil {
		t.Fatalf("apply: %v\n%s\n%s", err, out, errOut)
	}
	if !strings.Contains(out.String(), "updated AlertConfig") || writesJournaled(t, c) < 10 {
		t.Fatalf("the first apply wrote %d times:\n%s", writesJournaled(t, c), out)
	}
	if strings.Contains(out.String()+errOut.String(), "secret-for-") {
		t.Errorf("apply printed a secret:\n%s%s", out, errOut)
	}
	t.Logf("first apply:\n%s", out)
	before := writesJournaled(t, c)
	d, out, errOut = deps()
	if err := applyRun(context.Background(), &Options{Deps: d, Files: []string{path}}); err != nil {
		t.Fatalf("second apply: %v\n%s\n%s", err, out, errOut)
	}
	if after := writesJournaled(t, c); after != before || !strings.HasPrefix(lastLine(out.String()), "No changes") {
		t.Errorf("the second apply wrote %d times:\n%s", after-before, out)
	}
	// diff compares the resolved secrets with the server's masked form,
	// and prints none of them.
	d, out, errOut = deps()
	opts := &Options{Deps: d, Files: []string{path}, DryRun: true, ExitCode: true}
	if err := diffRun(context.Background(), opts); err != nil || out.Len() != 0 || strings.Contains(errOut.String(), "secret-for-") {
		t.Errorf("diff: %v\n%s\n%s", err, out, errOut)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}
