package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func clearEnv(t *testing.T) {
	for _, k := range append(envNames(), ProfileEnv) {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
}

func envNames() []string {
	var names []string
	for _, k := range AllKeys {
		names = append(names, k.Env)
	}
	return names
}

func flags(args ...string) *pflag.FlagSet {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.String("base-url", "", "")
	fs.String("project", "", "")
	fs.String("org", "", "")
	fs.StringP("output", "o", "", "")
	fs.String("ca-cert", "", "")
	fs.Bool("insecure", false, "")
	fs.Parse(args)
	return fs
}

func TestPrecedenceFlagOverEnvOverProfile(t *testing.T) {
	clearEnv(t)
	f := &File{Profiles: map[string]Profile{"default": {BaseURL: "https://profile", ProjectID: "aaaaaaaaaaaaaaaaaaaaaaaa", PublicKey: "p-pub", Output: "json"}}}
	t.Setenv("OMCTL_PROJECT_ID", "bbbbbbbbbbbbbbbbbbbbbbbb")
	t.Setenv("OMCTL_OUTPUT", "jsonl")
	s, err := Resolve(f, "", flags("--output", "table"))
	if err != nil {
		t.Fatal(err)
	}
	if s.BaseURL != "https://profile" || s.PublicKey != "p-pub" {
		t.Errorf("profile values lost: %+v", s)
	}
	if s.ProjectID != "bbbbbbbbbbbbbbbbbbbbbbbb" {
		t.Errorf("env did not beat profile: %q", s.ProjectID)
	}
	if s.Output != "table" {
		t.Errorf("flag did not beat env: %q", s.Output)
	}
}

func TestEnvironmentAloneWithoutFile(t *testing.T) {
	clearEnv(t)
	t.Setenv("OMCTL_BASE_URL", "http://127.0.0.1:8080")
	t.Setenv("OMCTL_PUBLIC_KEY", "pub")
	t.Setenv("OMCTL_PRIVATE_KEY", "priv")
	t.Setenv("OMCTL_INSECURE", "true")
	s, err := Resolve(&File{Profiles: map[string]Profile{}}, "", flags())
	if err != nil {
		t.Fatal(err)
	}
	if s.BaseURL != "http://127.0.0.1:8080" || s.PrivateKey != "priv" || !s.Insecure || s.Output != "table" || s.Profile != "default" {
		t.Errorf("settings = %+v", s)
	}
}

func TestProfileSelection(t *testing.T) {
	clearEnv(t)
	f := &File{ActiveProfile: "prod", Profiles: map[string]Profile{"prod": {BaseURL: "https://prod"}, "staging": {BaseURL: "https://staging"}}}
	if s, _ := Resolve(f, "", nil); s.BaseURL != "https://prod" {
		t.Errorf("active profile not used: %+v", s)
	}
	t.Setenv(ProfileEnv, "staging")
	if s, _ := Resolve(f, "", nil); s.BaseURL != "https://staging" {
		t.Errorf("OMCTL_PROFILE not used: %+v", s)
	}
	if s, _ := Resolve(f, "prod", nil); s.BaseURL != "https://prod" {
		t.Errorf("-P did not beat OMCTL_PROFILE: %+v", s)
	}
	if _, err := Resolve(f, "nope", nil); err == nil || !strings.Contains(err.Error(), "known profiles: prod, staging") {
		t.Errorf("missing profile: %v", err)
	}
}

func TestInvalidOutputIsRefused(t *testing.T) {
	clearEnv(t)
	t.Setenv("OMCTL_OUTPUT", "xml")
	if _, err := Resolve(&File{}, "", nil); err == nil || !strings.Contains(err.Error(), "xml") {
		t.Errorf("err = %v", err)
	}
}

func TestSaveLoadRoundTripAndUnknownKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "config.toml")
	f := &File{ActiveProfile: "a", Profiles: map[string]Profile{"a": {BaseURL: "https://x", PrivateKey: "k", Insecure: true}}}
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode())
	}
	got, err := Load(path)
	if err != nil || got.Profiles["a"] != f.Profiles["a"] || got.ActiveProfile != "a" {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	os.WriteFile(path, []byte("[profiles.a]\nbase_ur = \"https://x\"\n"), 0o600)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "base_ur") {
		t.Errorf("typo in key accepted: %v", err)
	}
}

func TestPathOrder(t *testing.T) {
	t.Setenv("OMCTL_CONFIG_DIR", "/cfg")
	if p, _ := Path(); p != "/cfg/config.toml" {
		t.Errorf("Path = %s", p)
	}
	t.Setenv("OMCTL_CONFIG_DIR", "")
	t.Setenv("XDG_CONFIG_HOME", "/xdg")
	if p, _ := Path(); p != "/xdg/omctl/config.toml" {
		t.Errorf("Path = %s", p)
	}
}

func TestInvalidValuesNameTheirSource(t *testing.T) {
	f := &File{Profiles: map[string]Profile{"default": {OrgID: "bad-org"}, "ok": {}}}
	for _, tc := range []struct {
		env   map[string]string
		flags []string
		file  *File
		want  string
	}{
		{env: map[string]string{"OMCTL_INSECURE": "maybe"}, want: `invalid insecure "maybe": want true or false (from OMCTL_INSECURE)`},
		{env: map[string]string{"OMCTL_PROJECT_ID": "bad\tname"}, want: `invalid project_id "bad\tname": want 24 hexadecimal digits or a project's name (from OMCTL_PROJECT_ID)`},
		{flags: []string{"--project", " "}, want: `(from --project)`},
		{file: f, want: `invalid org_id "bad-org": want 24 hexadecimal digits (from org_id in profile "default")`},
		{env: map[string]string{"OMCTL_CA_CERT": "/nonexistent.pem"}, want: `invalid ca_cert "/nonexistent.pem": no such file`},
		{file: &File{ActiveProfile: "nope", Profiles: map[string]Profile{"ok": {}}}, want: `the active profile "nope" does not exist: known profiles: ok`},
	} {
		clearEnv(t)
		for k, v := range tc.env {
			t.Setenv(k, v)
		}
		file := tc.file
		if file == nil {
			file = &File{Profiles: map[string]Profile{}}
		}
		_, err := Resolve(file, "", flags(tc.flags...))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v %v: err = %v, want %q", tc.env, tc.flags, err, tc.want)
		}
	}
}

func TestBaseURLWithCredentialsIsRefusedWithoutEchoingThem(t *testing.T) {
	err := ValidateValue("base_url", "https://user:s3cret-key@om.example.com")
	if err == nil || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "must not hold credentials") {
		t.Errorf("err = %v", err)
	}
}

func TestBrokenFileSaysWhereAndWhatInTOMLTerms(t *testing.T) {
	for body, want := range map[string]string{
		"[profiles.default]\ninsecure = \"yes\"\n": "line 2, column 12: profiles.default.insecure is a string, want true or false",
		"[profiles.default]\nproject_id = 5\n":     "line 2, column 14: profiles.default.project_id is an integer, want a string in quotes",
		"[profiles.default\n":                      "line 1, column 18: expected ']' to close table name",
	} {
		path := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "struct field") {
			t.Errorf("%q: err = %v, want %q", body, err, want)
		}
	}
}
