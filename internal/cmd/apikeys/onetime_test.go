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

const (
	privateKey = "092524ce-19d4-4c7e-9a51-3f0c7d2b8e61"
	twoRoles   = `{"id":"5f4d0c2e8f9d4b0012345678","desc":"CI job with a long description that fills a column","publicKey":"qwertyui","privateKey":"` + privateKey + `","roles":[{"groupId":"5e2b0c2e8f9d4b0012345678","roleName":"GROUP_READ_ONLY"},{"groupId":"5e2b0c2e8f9d4b0012345678","roleName":"GROUP_BACKUP_ADMIN"}]}`
)

// The private key of a new key is shown only once: whole, at every width
// and in every format, and on a terminal as a line of its own.
func TestCreateShowsThePrivateKeyWholeAtEveryWidthAndFormat(t *testing.T) {
	for _, tt := range []struct {
		format string
		tty    bool
		width  int
	}{
		{"table", true, 60}, {"table", true, 80}, {"table", true, 200},
		{"table", false, 60}, {"json", true, 60}, {"jsonl", false, 80}, {"yaml", true, 60},
	} {
		srv := stubapi.New(t)
		srv.Reply("POST", "/groups/"+project+"/apiKeys", 201, twoRoles)
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(tt.tty)
		ios.SetTerminalWidth(tt.width)
		err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, tt.format, project), Desc: "CI job", Roles: []string{"GROUP_READ_ONLY", "GROUP_BACKUP_ADMIN"}})
		if err != nil {
			t.Fatalf("%+v: %v", tt, err)
		}
		got := out.String()
		if !strings.Contains(got, privateKey) || strings.Contains(got, "…") {
			t.Errorf("%+v: the private key is not whole:\n%s", tt, got)
		}
		if tt.format == "table" {
			if !strings.Contains(got, "\nPrivate key: "+privateKey+"\n") || strings.Contains(got, "\t") {
				t.Errorf("%+v: the key is not a field of its own line:\n%s", tt, got)
			}
		}
	}
}

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
