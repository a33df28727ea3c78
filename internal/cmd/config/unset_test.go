package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/iostreams"
)

func TestUnsetRemovesAKey(t *testing.T) {
	path := tempPath(t)
	ios, _, _, errOut := iostreams.Test()
	pem := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(pem, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{{"base_url", "https://om:8443"}, {"ca_cert", pem}} {
		if err := setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Key: kv[0], Value: kv[1]}); err != nil {
			t.Fatal(err)
		}
	}
	if err := unsetRun(&UnsetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Key: "ca_cert"}); err != nil {
		t.Fatal(err)
	}
	p, _ := path()
	file, err := cfg.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := file.Profiles["default"]; got.CACert != "" || got.BaseURL != "https://om:8443" || !strings.Contains(errOut.String(), "Removed ca_cert") {
		t.Errorf("profile %+v, stderr %q", got, errOut.String())
	}
	errOut.Reset()
	if err := unsetRun(&UnsetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Key: "ca_cert"}); err != nil ||
		!strings.Contains(errOut.String(), `ca_cert was not set in profile "default"`) {
		t.Errorf("unsetting what is not set: %v, stderr %q", err, errOut.String())
	}
	for _, o := range []UnsetOptions{{Key: "colour"}, {Key: "ca_cert", Profile: "nope"}} {
		o.IO, o.ConfigPath = ios, path
		if err := unsetRun(&o); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%+v: err = %v", o, err)
		}
	}
}
