package cmdutil

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/prompt"
)

func clearKeyEnv(t *testing.T, dir string) {
	t.Setenv("OMCTL_CONFIG_DIR", dir)
	for _, k := range config.AllKeys {
		t.Setenv(k.Env, "")
	}
	t.Setenv(config.ProfileEnv, "")
}

// The client takes the key from the credential store; a store that fails
// leaves the "no API key" message, saying why.
func TestClientReadsTheKeyFromTheStore(t *testing.T) {
	dir := t.TempDir()
	clearKeyEnv(t, dir)
	file := &config.File{Profiles: map[string]config.Profile{"default": {BaseURL: "https://om:8443", PublicKey: "pub"}}}
	if err := file.Save(filepath.Join(dir, "config.toml")); err != nil {
		t.Fatal(err)
	}
	keyring.MockInit()
	if err := keyring.Set("omctl:default", "private_key", "from-store"); err != nil {
		t.Fatal(err)
	}
	ios, _, _, errOut := iostreams.Test()
	if _, err := New(ios).Client(); err != nil || errOut.Len() != 0 {
		t.Fatalf("%v %q", err, errOut.String())
	}
	keyring.MockInitWithError(errors.New("locked"))
	_, err := New(ios).Client()
	if err == nil || !strings.Contains(err.Error(), "no API key") || !strings.Contains(err.Error(), "OS credential store") || ExitCode(err) != ExitUsage {
		t.Errorf("err = %v", err)
	}
}

// A config file holding a key that others may read is reported on each
// use, with the fix; one holding no key is not.
func TestConfigFileReadableByOthersIsReported(t *testing.T) {
	dir := t.TempDir()
	clearKeyEnv(t, dir)
	path := filepath.Join(dir, "config.toml")
	for _, tc := range []struct {
		prof config.Profile
		warn bool
	}{{config.Profile{PublicKey: "pub", PrivateKey: "in-file"}, true}, {config.Profile{PublicKey: "pub"}, false}} {
		file := &config.File{Profiles: map[string]config.Profile{"default": tc.prof}}
		if err := file.Save(path); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, 0o640); err != nil {
			t.Fatal(err)
		}
		ios, _, _, errOut := iostreams.Test()
		f := New(ios)
		if _, err := f.Settings(); err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.ConfigFile(); err != nil { // loaded again in the same run: said once
			t.Fatal(err)
		}
		want := "Warning: " + path + " holds a private key and other users may read it (mode 0640); fix it with: chmod 600 " + path + "\n"
		if got := errOut.String(); (got == want) != tc.warn || (!tc.warn && got != "") {
			t.Errorf("%+v: stderr %q", tc.prof, got)
		}
	}
}

// Ctrl-C at a prompt ends the run as Ctrl-C anywhere else does.
func TestACancelledPromptExitsAsInterrupted(t *testing.T) {
	if code := ExitCode(fmt.Errorf("config init: %w", prompt.ErrCancelled)); code != ExitInterrupted {
		t.Errorf("exit %d", code)
	}
}
