package config

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/prompt"
	"github.com/omctl/omctl/internal/testutil/prompttest"
)

func tempPath(t *testing.T) func() (string, error) {
	path := filepath.Join(t.TempDir(), "omctl", "config.toml")
	t.Setenv(cfg.ProfileEnv, "")
	keyring.MockInit() // a store of this test's own
	return func() (string, error) { return path, nil }
}

func TestSetWritesMode0600AndListRedacts(t *testing.T) {
	path := tempPath(t)
	ios, _, out, _ := iostreams.Test()
	for _, kv := range [][2]string{{"base_url", "https://om.example.com:8443"}, {"project_id", "5e2b0c2e8f9d4b0012345678"}} {
		if err := setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Key: kv[0], Value: kv[1]}); err != nil {
			t.Fatal(err)
		}
	}
	setSecret(t, path, "", "aaaaaaaa-bbbb-cccc-dddd-eeeeeeee1234")
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
	setSecret(t, path, "staging", "secret-value-9876")
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
	stored, _ := keyring.Get("omctl:default", "private_key")
	if got := file.Profiles["default"]; got.BaseURL != "https://om:8443" || got.PrivateKey != "" || stored != "priv" || file.ActiveProfile != "default" {
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

func TestInitChecksTheKeyBeforeSaving(t *testing.T) {
	path := tempPath(t)
	p, _ := path()
	org := "5e1a0c2e8f9d4b0012345678"
	answers := Answers{Profile: cfg.Profile{BaseURL: "https://om:8443", PublicKey: "pub", PrivateKey: "priv", OrgID: org}}
	var checked *Answers
	refused := func(_ context.Context, ans *Answers) error { checked = ans; return errors.New("401 UNAUTHORIZED") }
	newOpts := func(ios *iostreams.IOStreams, script *prompttest.Script) *InitOptions {
		return &InitOptions{Deps: cmdutil.Deps{IO: ios, Prompter: script}, ConfigPath: path,
			Ask:   func(_ context.Context, _ *InitOptions, ans *Answers) error { *ans = answers; return nil },
			Check: refused}
	}
	// Refused, and nobody to ask: nothing saved.
	ios, _, _, _ := iostreams.Test()
	err := initRun(context.Background(), newOpts(ios, nil))
	if err == nil || !strings.Contains(err.Error(), "nothing saved: the check failed: 401") || checked == nil || checked.PrivateKey != "priv" {
		t.Fatalf("err = %v, checked %+v", err, checked)
	}
	if fileExists(p) {
		t.Fatal("a refused key was saved")
	}
	// Refused, and the person says no: nothing saved.
	ios, _, _, _ = iostreams.Test()
	ios.SetStdinTTY(true)
	ios.SetStdoutTTY(true)
	script := prompttest.New(t, false)
	if err := initRun(context.Background(), newOpts(ios, script)); err == nil || fileExists(p) || script.Asked[0] != "Save the profile anyway?" {
		t.Fatalf("declined: err %v, asked %v", err, script.Asked)
	}
	// Refused, and the person says yes: saved, the key in the store.
	if err := initRun(context.Background(), newOpts(ios, prompttest.New(t, true))); err != nil {
		t.Fatal(err)
	}
	file, _ := cfg.Load(p)
	if file.Profiles["default"].OrgID != org || file.HoldsSecret() {
		t.Errorf("saved %+v", file.Profiles)
	}
	if v, _ := keyring.Get("omctl:default", "private_key"); v != "priv" {
		t.Errorf("store holds %q", v)
	}
	// Accepted: saved without a question.
	ios, _, _, errOut := iostreams.Test()
	opts := newOpts(ios, nil)
	opts.Check = func(context.Context, *Answers) error { return nil }
	if err := initRun(context.Background(), opts); err != nil || !strings.Contains(errOut.String(), "The server accepted the key.") ||
		!strings.Contains(errOut.String(), "the private key in the OS credential store") {
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

func TestInitAsksThroughThePrompterAndRefusesBadAnswers(t *testing.T) {
	path := tempPath(t)
	ios, _, _, _ := iostreams.Test()
	ios.SetStdinTTY(true)
	ios.SetStdoutTTY(true)
	bad := prompttest.New(t, "om.example.com")
	err := initRun(context.Background(), &InitOptions{Deps: cmdutil.Deps{IO: ios, Prompter: bad}, ConfigPath: path, Ask: askAtTerminal})
	if err == nil || !strings.Contains(err.Error(), `invalid base_url "om.example.com"`) {
		t.Errorf("a bad base URL passed the question's check: %v", err)
	}
	script := prompttest.New(t, "https://om.example.com", "pub", "priv", "", "5e1a0c2e8f9d4b0012345678")
	err = initRun(context.Background(), &InitOptions{Deps: cmdutil.Deps{IO: ios, Prompter: script}, ConfigPath: path, Ask: askAtTerminal, InsecureStorage: true})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := path()
	file, _ := cfg.Load(p)
	if got := file.Profiles["default"]; got.BaseURL != "https://om.example.com" || got.PrivateKey != "priv" || got.ProjectID != "" || got.OrgID != "5e1a0c2e8f9d4b0012345678" {
		t.Errorf("saved %+v (--insecure-storage keeps the key in the file)", got)
	}
}

func TestInitCancelledSavesNothing(t *testing.T) {
	path := tempPath(t)
	ios, _, _, _ := iostreams.Test()
	ios.SetStdinTTY(true)
	ios.SetStdoutTTY(true)
	script := prompttest.New(t, "https://om.example.com", prompt.ErrCancelled)
	err := initRun(context.Background(), &InitOptions{Deps: cmdutil.Deps{IO: ios, Prompter: script}, ConfigPath: path, Ask: askAtTerminal})
	if !errors.Is(err, prompt.ErrCancelled) {
		t.Fatalf("err = %v", err)
	}
	if p, _ := path(); fileExists(p) {
		t.Error("a cancelled init wrote the config file")
	}
}

// setSecret runs `config set private_key` with value on standard input.
func setSecret(t *testing.T, path func() (string, error), profile, value string) {
	t.Helper()
	ios, in, _, _ := iostreams.Test()
	in.WriteString(value + "\n")
	if err := setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Profile: profile, Key: "private_key"}); err != nil {
		t.Fatal(err)
	}
}

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

func TestSetReadsASecretHiddenAtATerminal(t *testing.T) {
	path := tempPath(t)
	ios, _, _, errOut := iostreams.Test()
	ios.SetStdinTTY(true)
	ios.SetStdoutTTY(true)
	script := prompttest.New(t, "typed-key-4321")
	if err := setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios, Prompter: script}, ConfigPath: path, Key: "private_key"}); err != nil {
		t.Fatal(err)
	}
	if v, _ := keyring.Get("omctl:default", "private_key"); v != "typed-key-4321" || strings.Contains(errOut.String(), "typed") {
		t.Errorf("store %q, stderr %q", v, errOut.String())
	}
	// A terminal on stdin alone: nowhere to draw a prompt, a usage error.
	ios.SetStdoutTTY(false)
	err := setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios, Prompter: script}, ConfigPath: path, Key: "private_key"})
	if !isUsage(err) || !strings.Contains(err.Error(), "neither standard output nor standard error is a terminal") {
		t.Errorf("err = %v", err)
	}
	// An empty pipe sets nothing.
	ios, _, _, _ = iostreams.Test()
	if err := setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Key: "private_key"}); !isUsage(err) || !strings.Contains(err.Error(), "must not be empty") {
		t.Errorf("empty stdin: %v", err)
	}
}
