package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/client"
)

// exampleFixtures is the fixture file docs/server.md shows and `omctl
// server --help` names.
var exampleFixtures = filepath.Join("..", "..", "..", "docs", "examples", "fixtures.json")

// TestExampleFixturesAndControlsWorkAsDocumented walks docs/server.md: the
// example file loads, its keys authenticate, the health control answers
// without credentials, the clock opens a TRACKING alert after the smallest
// delayMin of its configuration, and reset puts the loaded data back.
func TestExampleFixturesAndControlsWorkAsDocumented(t *testing.T) {
	base, _, errOut, stop := start(t, &Options{FixturesFile: exampleFixtures, Clock: "2026-01-01T00:05:00Z", Quiet: true})
	defer stop()
	for _, key := range []string{"ciowner", "shopmonitor", "dba@example.com"} {
		if !strings.Contains(errOut.String(), "\n  "+key+" ") {
			t.Errorf("banner lacks %s: %q", key, errOut.String())
		}
	}
	root := strings.TrimSuffix(base, "/api/public/v1.0")
	ctx := context.Background()

	res, err := http.Get(root + "/_omctl/health")
	if err != nil {
		t.Fatal(err)
	}
	health, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || strings.TrimSpace(string(health)) != `{"status":"ok"}` {
		t.Errorf("health: %d %s", res.StatusCode, health)
	}

	const owner, ownerKey = "ciowner", "00000000-0000-4000-8000-000000000001"
	apiClient, _ := client.New(client.Options{BaseURL: base, PublicKey: owner, PrivateKey: ownerKey})
	controls, _ := client.New(client.Options{BaseURL: root + "/_omctl", PublicKey: owner, PrivateKey: ownerKey})
	statuses := func() string {
		t.Helper()
		body, err := apiClient.Get(ctx, "/groups/6a2b00000000000000000001/alerts", url.Values{"status": {"OPEN"}})
		if err != nil {
			t.Fatal(err)
		}
		var list struct {
			Results []struct{ ID string } `json:"results"`
		}
		if err := json.Unmarshal(body, &list); err != nil {
			t.Fatal(err)
		}
		ids := make([]string, len(list.Results))
		for i, a := range list.Results {
			ids[i] = a.ID
		}
		return strings.Join(ids, " ")
	}
	if got := statuses(); got != "6a1a0000000000000000a001" {
		t.Fatalf("open alerts at start: %q", got)
	}
	// The TRACKING alert was created at 00:00 and its configuration's
	// smallest delayMin is 15: it opens at 00:15.
	body, err := controls.Send(ctx, http.MethodPost, "/clock", map[string]string{"advance": "10m"})
	if err != nil || !strings.Contains(string(body), `"now":"2026-01-01T00:15:00Z"`) {
		t.Fatalf("clock: %s %v", body, err)
	}
	if got := statuses(); got != "6a1a0000000000000000a001 6a1a0000000000000000a002" {
		t.Errorf("open alerts at 00:15: %q", got)
	}
	if _, err := controls.Send(ctx, http.MethodPost, "/reset", nil); err != nil {
		t.Fatal(err)
	}
	body, _ = controls.Get(ctx, "/clock", nil)
	if got := statuses(); got != "6a1a0000000000000000a001 6a1a0000000000000000a002" || !strings.Contains(string(body), "00:15:00Z") {
		// Reset restores the data, not the time: at 00:15 the alert opens again.
		t.Errorf("after reset: open %q, clock %s", got, body)
	}

	// A key without GLOBAL_OWNER may not use the controls.
	monitor, _ := client.New(client.Options{BaseURL: root + "/_omctl", PublicKey: "shopmonitor", PrivateKey: "00000000-0000-4000-8000-000000000002"})
	if _, err := monitor.Send(ctx, http.MethodPost, "/reset", nil); err == nil {
		t.Error("reset allowed without GLOBAL_OWNER")
	}
}

// TestSelfSignedCertificateIsRemovedOnStop: --tls-self-signed leaves no
// temporary directory behind.
func TestSelfSignedCertificateIsRemovedOnStop(t *testing.T) {
	_, _, errOut, stop := start(t, &Options{TLSSelfSigned: true, Quiet: true})
	i := strings.Index(errOut.String(), "--ca-cert: ")
	if i < 0 {
		t.Fatalf("no CA path in %q", errOut.String())
	}
	caFile := strings.TrimSpace(strings.SplitN(errOut.String()[i+len("--ca-cert: "):], "\n", 2)[0])
	if _, err := os.Stat(caFile); err != nil {
		t.Fatalf("certificate missing while serving: %v", err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(caFile)); !os.IsNotExist(err) {
		t.Errorf("%s left behind (%v)", filepath.Dir(caFile), err)
	}
}
