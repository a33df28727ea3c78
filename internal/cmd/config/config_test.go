package config

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/iostreams"
)

func tempPath(t *testing.T) func() (string, error) {
	path := filepath.Join(t.TempDir(), "omctl", "config.toml")
	t.Setenv(cfg.ProfileEnv, "")
	return func() (string, error) { return path, nil }
}

func TestSetWritesMode0600AndListRedacts(t *testing.T) {
	path := tempPath(t)
	ios, _, out, _ := iostreams.Test()
	for _, kv := range [][2]string{{"base_url", "https://om.example.com:8443"}, {"private_key", "aaaaaaaa-bbbb-cccc-dddd-eeeeeeee1234"}, {"project_id", "5e2b0c2e8f9d4b0012345678"}} {
		if err := setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Key: kv[0], Value: kv[1]}); err != nil {
			t.Fatal(err)
		}
	}
	p, _ := path()
	st, err := os.Stat(p)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode = %v, err = %v", st.Mode(), err)
	}
	if err := listRun(&ListOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "aaaaaaaa") || !strings.Contains(out.String(), "private_key = ********1234") || !strings.Contains(out.String(), "* default") {
		t.Errorf("list = %q", out.String())
	}
}

func TestSetRejectsBadValues(t *testing.T) {
	path := tempPath(t)
	ios, _, _, _ := iostreams.Test()
	for _, kv := range [][3]string{
		{"project_id", "a\x01b", "24 hexadecimal digits or a project's name"},
		{"base_url", "om.example.com", "http(s)://"},
		{"output", "xml", "valid formats are table, json, jsonl, yaml"},
		{"ca_cert", "/nonexistent.pem", "no such file"},
		{"ca_cert", "", "config unset ca_cert"},
		{"colour", "red", "valid keys are"},
	} {
		err := setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Key: kv[0], Value: kv[1]})
		if err == nil || !strings.Contains(err.Error(), kv[2]) || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%s=%s: err = %v", kv[0], kv[1], err)
		}
	}
	if p, _ := path(); fileExists(p) {
		t.Error("a refused value still wrote the file")
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func TestGetUseAndProfiles(t *testing.T) {
	path := tempPath(t)
	ios, _, out, _ := iostreams.Test()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Profile: "staging", Key: "private_key", Value: "secret-value-9876"}))
	must(getRun(&GetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Profile: "staging", Key: "private_key"}))
	must(getRun(&GetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Profile: "staging", Key: "private_key", Reveal: true}))
	if out.String() != "********9876\nsecret-value-9876\n" {
		t.Errorf("get = %q", out.String())
	}
	if err := useRun(&UseOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Profile: "prod"}); err == nil || !strings.Contains(err.Error(), `"prod" not found`) {
		t.Errorf("use of a missing profile: %v", err)
	}
	must(useRun(&UseOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Profile: "staging"}))
	out.Reset()
	must(getRun(&GetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Key: "private_key", Reveal: true}))
	if out.String() != "secret-value-9876\n" {
		t.Errorf("active profile not used: %q", out.String())
	}
}

func TestInitRefusesWithoutTerminal(t *testing.T) {
	path := tempPath(t)
	ios, _, _, _ := iostreams.Test()
	err := initRun(context.Background(), &InitOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Ask: askAtTerminal})
	if err == nil || !strings.Contains(err.Error(), "config set") || !strings.Contains(err.Error(), "OMCTL_PUBLIC_KEY") {
		t.Fatalf("err = %v", err)
	}
}

func TestInitSavesValidatedAnswers(t *testing.T) {
	path := tempPath(t)
	ios, _, _, _ := iostreams.Test()
	answer := func(a Answers) func(context.Context, *InitOptions, *Answers) error {
		return func(_ context.Context, _ *InitOptions, ans *Answers) error { *ans = a; return nil }
	}
	bad := Answers{Profile: cfg.Profile{BaseURL: "https://om:8443", PublicKey: "pub", PrivateKey: "priv", ProjectID: "not\nhex"}}
	if err := initRun(context.Background(), &InitOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Ask: answer(bad)}); err == nil {
		t.Fatal("bad project id accepted")
	}
	good := bad
	good.ProjectID = ""
	if err := initRun(context.Background(), &InitOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Ask: answer(good)}); err != nil {
		t.Fatal(err)
	}
	p, _ := path()
	file, err := cfg.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := file.Profiles["default"]; got.BaseURL != "https://om:8443" || got.PrivateKey != "priv" || file.ActiveProfile != "default" {
		t.Errorf("saved %+v", file)
	}
}

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

func TestInitSavesOrgAndChecksTheKeyWhenAsked(t *testing.T) {
	path := tempPath(t)
	ios, _, _, errOut := iostreams.Test()
	org := "5e1a0c2e8f9d4b0012345678"
	answers := Answers{Profile: cfg.Profile{BaseURL: "https://om:8443", PublicKey: "pub", PrivateKey: "priv", OrgID: org}, CheckNow: true}
	var checked *Answers
	opts := &InitOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path,
		Ask:   func(_ context.Context, _ *InitOptions, ans *Answers) error { *ans = answers; return nil },
		Check: func(_ context.Context, ans *Answers) error { checked = ans; return errors.New("401 UNAUTHORIZED") }}
	err := initRun(context.Background(), opts)
	if err == nil || !strings.Contains(err.Error(), `profile "default" is saved, but the check failed: 401`) || checked == nil || checked.PrivateKey != "priv" {
		t.Fatalf("err = %v, checked %+v", err, checked)
	}
	p, _ := path()
	file, _ := cfg.Load(p)
	if file.Profiles["default"].OrgID != org {
		t.Errorf("org not saved: %+v", file.Profiles)
	}
	opts.Check = func(context.Context, *Answers) error { return nil }
	if err := initRun(context.Background(), opts); err != nil || !strings.Contains(errOut.String(), "The server accepted the key.") {
		t.Errorf("err = %v, stderr %q", err, errOut.String())
	}
}

func TestListOfAMissingProfilePrintsNothing(t *testing.T) {
	path := tempPath(t)
	ios, _, out, _ := iostreams.Test()
	if err := setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Key: "output", Value: "json"}); err != nil {
		t.Fatal(err)
	}
	err := listRun(&ListOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Profile: "nosuch"})
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || out.Len() != 0 {
		t.Errorf("err = %v, stdout %q", err, out.String())
	}
}

func TestInitAsksLineByLineAndReasksBadAnswers(t *testing.T) {
	path := tempPath(t)
	ios, stdin, _, errOut := iostreams.Test()
	ios.SetStdinTTY(true)
	ios.SetStderrTTY(true)
	stdin.WriteString(strings.Join([]string{
		"om.example.com",         // refused: not a URL
		"https://om.example.com", // base URL
		"pub",                    // public key
		"priv",                   // private key
		"",                       // no project
		"5e1a0c2e8f9d4b0012345678",
		"n", // do not try the key
	}, "\n") + "\n")
	err := initRun(context.Background(), &InitOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Ask: askAtTerminal,
		Check: func(context.Context, *Answers) error { t.Error("key checked though the answer was no"); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), `invalid base_url "om.example.com"`) {
		t.Errorf("bad answer not explained: %q", errOut.String())
	}
	p, _ := path()
	file, _ := cfg.Load(p)
	if got := file.Profiles["default"]; got.BaseURL != "https://om.example.com" || got.PrivateKey != "priv" || got.ProjectID != "" || got.OrgID != "5e1a0c2e8f9d4b0012345678" {
		t.Errorf("saved %+v", got)
	}
}

func TestInitCancelledSavesNothing(t *testing.T) {
	path := tempPath(t)
	ios, stdin, _, _ := iostreams.Test()
	ios.SetStdinTTY(true)
	ios.SetStderrTTY(true)
	stdin.WriteString("https://om.example.com\n") // then the input ends, as Ctrl-D
	err := initRun(context.Background(), &InitOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Ask: askAtTerminal})
	if err == nil || err.Error() != "config init cancelled: nothing was saved" {
		t.Fatalf("err = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // as Ctrl-C does
	err = initRun(ctx, &InitOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Ask: func(ctx context.Context, o *InitOptions, a *Answers) error {
		_, err := newPrompter(blockingReader{}, io.Discard).ask(ctx, "Base URL", "", "", false, func(string) error { return nil })
		return err
	}})
	if err == nil || err.Error() != "config init cancelled: nothing was saved" {
		t.Fatalf("after Ctrl-C: err = %v", err)
	}
	if p, _ := path(); fileExists(p) {
		t.Error("a cancelled init wrote the config file")
	}
}

// blockingReader never answers, like a person who does not type.
type blockingReader struct{}

func (blockingReader) Read([]byte) (int, error) { select {} }
