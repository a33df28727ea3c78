package apikeys

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func saveOptions(t *testing.T, srv *stubapi.Server, ios *iostreams.IOStreams, path string) *CreateOptions {
	deps := srv.Deps(ios, "table", project)
	deps.OrgID = stubapi.Project("5e2a0c2e8f9d4b0012340001")
	return &CreateOptions{Deps: deps, Desc: "CI job", Roles: []string{"GROUP_READ_ONLY"}, SaveProfile: "ci",
		ConfigPath: func() (string, error) { return path, nil },
		Connection: func() (config.Profile, error) {
			return config.Profile{BaseURL: "https://om.example.com", CACert: "/etc/omctl/ca.pem"}, nil
		}}
}

func TestCreateSaveProfileWritesTheNewKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "omctl", "config.toml")
	srv := stubapi.New(t)
	srv.Reply("POST", "/groups/"+project+"/apiKeys", 201, twoRoles)
	ios, _, _, errOut := iostreams.Test()
	if err := createRun(context.Background(), saveOptions(t, srv, ios, path)); err != nil {
		t.Fatal(err)
	}
	file, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want := config.Profile{BaseURL: "https://om.example.com", CACert: "/etc/omctl/ca.pem", PublicKey: "qwertyui", PrivateKey: privateKey,
		ProjectID: project, OrgID: "5e2a0c2e8f9d4b0012340001"}
	if got := file.Profiles["ci"]; got != want {
		t.Errorf("profile %+v, want %+v", got, want)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("config mode %v (%v), want 0600", st.Mode(), err)
	}
	if !strings.Contains(errOut.String(), `Saved the key qwertyui to profile "ci"`) || strings.Contains(errOut.String(), privateKey) {
		t.Errorf("stderr %q", errOut.String())
	}
}

// An existing profile is never overwritten, and the refusal comes before
// a key is created (the strict stub fails on any request).
func TestCreateSaveProfileRefusesAnExistingProfileBeforeSending(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	old := &config.File{Profiles: map[string]config.Profile{"ci": {PublicKey: "oldkey", PrivateKey: "old-private"}}}
	if err := old.Save(path); err != nil {
		t.Fatal(err)
	}
	srv := stubapi.New(t)
	ios, _, out, _ := iostreams.Test()
	err := createRun(context.Background(), saveOptions(t, srv, ios, path))
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "the profile exists already") {
		t.Fatalf("err %v", err)
	}
	if len(srv.Requests()) != 0 || out.Len() != 0 {
		t.Errorf("sent %d requests, printed %q", len(srv.Requests()), out.String())
	}
	file, _ := config.Load(path)
	if file.Profiles["ci"].PrivateKey != "old-private" {
		t.Errorf("profile overwritten: %+v", file.Profiles["ci"])
	}
}
