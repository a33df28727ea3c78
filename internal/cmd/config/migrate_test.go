package config

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/iostreams"
)

func TestListSaysWhereEachSecretIsAndMigrateMovesIt(t *testing.T) {
	path := tempPath(t)
	p, _ := path()
	file := &cfg.File{Profiles: map[string]cfg.Profile{"default": {PublicKey: "pub", PrivateKey: "file-key-5678"}}}
	if err := file.Save(p); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OMCTL_PRIVATE_KEY", "")
	ios, _, out, errOut := iostreams.Test()
	if err := listRun(&ListOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "private_key = ********5678  # in "+p+", plain text; 'omctl config migrate-secrets' moves it") {
		t.Errorf("list before: %q", out.String())
	}
	if err := migrateSecretsRun(&MigrateSecretsOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "Moved default/private_key into the OS credential store") {
		t.Errorf("stderr %q", errOut.String())
	}
	if data, _ := os.ReadFile(p); strings.Contains(string(data), "file-key") {
		t.Errorf("the file still holds the key:\n%s", data)
	}
	out.Reset()
	t.Setenv("OMCTL_PRIVATE_KEY", "x")
	if err := listRun(&ListOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "private_key = ********5678  # in the OS credential store; OMCTL_PRIVATE_KEY is set and wins\n") {
		t.Errorf("list after: %q", out.String())
	}
	errOut.Reset()
	if err := migrateSecretsRun(&MigrateSecretsOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path}); err != nil || !strings.Contains(errOut.String(), "No secret to move") {
		t.Errorf("second migration: %v %q", err, errOut.String())
	}
	// unset removes it from the store too.
	if err := unsetRun(&UnsetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Key: "private_key"}); err != nil {
		t.Fatal(err)
	}
	if _, err := keyring.Get("omctl:default", "private_key"); !errors.Is(err, keyring.ErrNotFound) {
		t.Errorf("the store still holds the key: %v", err)
	}
}
