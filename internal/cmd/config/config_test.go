package config

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
)

func tempPath(t *testing.T) func() (string, error) {
	path := filepath.Join(t.TempDir(), "omctl", "config.toml")
	t.Setenv(cfg.ProfileEnv, "")
	keyring.MockInit() // a store of this test's own
	return func() (string, error) { return path, nil }
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

// setSecret runs `config set private_key` with value on standard input.
func setSecret(t *testing.T, path func() (string, error), profile, value string) {
	t.Helper()
	ios, in, _, _ := iostreams.Test()
	in.WriteString(value + "\n")
	if err := setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Profile: profile, Key: "private_key"}); err != nil {
		t.Fatal(err)
	}
}

const secret = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeee1234"

// configDir points OMCTL_CONFIG_DIR at a new directory, with no profile
// named by the environment, and returns the config file's path there.
func configDir(t *testing.T) string {
	dir := t.TempDir()
	t.Setenv("OMCTL_CONFIG_DIR", dir)
	t.Setenv(cfg.ProfileEnv, "")
	keyring.MockInit() // a store of this test's own
	return filepath.Join(dir, "config.toml")
}

func isUsage(err error) bool {
	var fe *cmdutil.FlagError
	return errors.As(err, &fe) && cmdutil.ExitCode(err) == cmdutil.ExitUsage
}

func TestNewCmdUnsetUseListInit(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios, Flags: cmdutil.GlobalFlags{Profile: "staging"}}

	var unset *UnsetOptions
	if err := cmdtest.Execute(NewCmdUnset(f, func(o *UnsetOptions) error { unset = o; return nil }), ios, "ca_cert"); err != nil || unset.Key != "ca_cert" || unset.Profile != "staging" {
		t.Errorf("unset: %v %+v", err, unset)
	}
	if err := cmdtest.Execute(NewCmdUnset(f, func(*UnsetOptions) error { t.Error("ran"); return nil }), ios); !isUsage(err) || !strings.Contains(err.Error(), "missing KEY") {
		t.Errorf("unset without KEY: %v", err)
	}

	// use takes the profile from its argument, not from -P.
	var use *UseOptions
	if err := cmdtest.Execute(NewCmdUse(f, func(o *UseOptions) error { use = o; return nil }), ios, "prod"); err != nil || use.Profile != "prod" {
		t.Errorf("use: %v %+v", err, use)
	}
	if err := cmdtest.Execute(NewCmdUse(f, func(*UseOptions) error { t.Error("ran"); return nil }), ios, "a", "b"); !isUsage(err) {
		t.Errorf("use a b: %v", err)
	}

	var list *ListOptions
	if err := cmdtest.Execute(NewCmdList(f, func(o *ListOptions) error { list = o; return nil }), ios); err != nil || list.Profile != "staging" {
		t.Errorf("list: %v %+v", err, list)
	}
	if err := cmdtest.Execute(NewCmdList(f, func(*ListOptions) error { t.Error("ran"); return nil }), ios, "x"); err == nil || !strings.Contains(err.Error(), `unknown command "x"`) {
		t.Errorf("list x: %v", err)
	}

	var ini *InitOptions
	if err := cmdtest.Execute(NewCmdInit(f, func(o *InitOptions) error { ini = o; return nil }), ios); err != nil || ini.Profile != "staging" || ini.Ask == nil || ini.Check == nil {
		t.Errorf("init: %v %+v", err, ini)
	}
	if err := cmdtest.Execute(NewCmdInit(f, func(*InitOptions) error { t.Error("ran"); return nil }), ios, "x"); err == nil {
		t.Error("init x: no error")
	}
}

func TestNewCmdConfigTree(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	names := cmdtest.Subcommands(NewCmdConfig(&cmdutil.Factory{IOStreams: ios}))
	if got := strings.Join(names, ","); got != "get,init,list,migrate-secrets,set,unset,use" {
		t.Errorf("subcommands = %s", got)
	}
}

// TestCommandsUseOMCTLConfigDir runs the real commands, without runF, on
// the file OMCTL_CONFIG_DIR names.
func TestCommandsUseOMCTLConfigDir(t *testing.T) {
	path := configDir(t)
	ios, in, out, errOut := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios}
	for _, kv := range [][2]string{{"base_url", "https://om:8443"}, {"private_key", "-"}, {"public_key", "pub"}} {
		in.WriteString(secret + "\n")
		if err := cmdtest.Execute(NewCmdSet(f, nil), ios, kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
		in.Reset()
	}
	if data, _ := os.ReadFile(path); strings.Contains(string(data), "private_key") {
		t.Errorf("the key went to the file though the store took it:\n%s", data)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("%s: %v %v", path, st, err)
	}
	if strings.Contains(errOut.String(), "aaaaaaaa") || !strings.Contains(errOut.String(), "Set private_key = ********1234 in profile \"default\"") {
		t.Errorf("set printed the secret or nothing: %q", errOut.String())
	}
	if out.Len() != 0 {
		t.Errorf("set wrote to stdout: %q", out.String())
	}

	if err := cmdtest.Execute(NewCmdGet(f, nil), ios, "private_key"); err != nil || out.String() != "********1234\n" {
		t.Errorf("get: %v %q", err, out.String())
	}
	out.Reset()
	if err := cmdtest.Execute(NewCmdGet(f, nil), ios, "private_key", "--reveal"); err != nil || out.String() != secret+"\n" {
		t.Errorf("get --reveal: %v %q", err, out.String())
	}
	out.Reset()
	// --reveal shows nothing more for a key that is not secret.
	if err := cmdtest.Execute(NewCmdGet(f, nil), ios, "public_key"); err != nil || out.String() != "pub\n" {
		t.Errorf("get public_key: %v %q", err, out.String())
	}
	out.Reset()
	if err := cmdtest.Execute(NewCmdList(f, nil), ios); err != nil || !strings.HasPrefix(out.String(), "# "+path+"\n* default\n\n[default]\n") || strings.Contains(out.String(), "aaaaaaaa") {
		t.Errorf("list: %v %q", err, out.String())
	}
	out.Reset()
	if err := cmdtest.Execute(NewCmdUnset(f, nil), ios, "public_key"); err != nil {
		t.Fatal(err)
	}
	if err := cmdtest.Execute(NewCmdGet(f, nil), ios, "public_key"); err == nil || !strings.Contains(err.Error(), `public_key is not set in profile "default"`) || cmdutil.ExitCode(err) != cmdutil.ExitError {
		t.Errorf("get after unset: %v", err)
	}
	if err := cmdtest.Execute(NewCmdUse(f, nil), ios, "default"); err != nil || !strings.Contains(errOut.String(), "Active profile: default") {
		t.Errorf("use: %v %q", err, errOut.String())
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("after unset and use: %v %v", st, err)
	}
	if out.Len() != 0 {
		t.Errorf("stdout %q", out.String())
	}
}

func TestProfileFromEnvironmentAndFlag(t *testing.T) {
	path := configDir(t)
	ios, _, out, _ := iostreams.Test()
	set := func(profile, key, value string) {
		t.Helper()
		if err := setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: cfg.Path, Profile: profile, Key: key, Value: value}); err != nil {
			t.Fatal(err)
		}
	}
	set("a", "output", "json")
	set("b", "output", "yaml")
	t.Setenv(cfg.ProfileEnv, "b")
	if err := getRun(&GetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: cfg.Path, Key: "output"}); err != nil || out.String() != "yaml\n" {
		t.Errorf("OMCTL_PROFILE=b: %v %q", err, out.String())
	}
	out.Reset()
	// -P wins over OMCTL_PROFILE.
	if err := getRun(&GetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: cfg.Path, Profile: "a", Key: "output"}); err != nil || out.String() != "json\n" {
		t.Errorf("-P a: %v %q", err, out.String())
	}
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}
}

func TestConfigPathErrorsArePassedOn(t *testing.T) {
	boom := errors.New("cannot find the config directory")
	bad := func() (string, error) { return "", boom }
	ios, _, _, _ := iostreams.Test()
	for name, err := range map[string]error{
		"set":   setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: bad, Key: "output", Value: "json"}),
		"get":   getRun(&GetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: bad, Key: "output"}),
		"unset": unsetRun(&UnsetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: bad, Key: "output"}),
		"list":  listRun(&ListOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: bad}),
		"use":   useRun(&UseOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: bad, Profile: "x"}),
		"init":  initRun(context.Background(), &InitOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: bad}),
	} {
		if !errors.Is(err, boom) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestUnreadableConfigFileIsAnError(t *testing.T) {
	path := configDir(t)
	if err := os.WriteFile(path, []byte("this is = = not toml [[["), 0o600); err != nil {
		t.Fatal(err)
	}
	ios, _, out, _ := iostreams.Test()
	for name, err := range map[string]error{
		"get": getRun(&GetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: cfg.Path, Key: "output"}),
		"use": useRun(&UseOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: cfg.Path, Profile: "x"}),
		"set": setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: cfg.Path, Key: "output", Value: "json"}),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != "this is = = not toml [[[" || out.Len() != 0 {
		t.Errorf("file now %q, stdout %q", b, out.String())
	}
}

func TestNewConfigDirectoryIs0700(t *testing.T) {
	path := tempPath(t)
	ios, _, _, _ := iostreams.Test()
	if err := setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Key: "output", Value: "json"}); err != nil {
		t.Fatal(err)
	}
	p, _ := path()
	if st, err := os.Stat(filepath.Dir(p)); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %v %v", st, err)
	}
}

func TestShortSecretIsRedactedWhole(t *testing.T) {
	configDir(t)
	ios, in, out, errOut := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios}
	in.WriteString("abcd1234\n")
	if err := cmdtest.Execute(NewCmdSet(f, nil), ios, "private_key"); err != nil {
		t.Fatal(err)
	}
	if err := cmdtest.Execute(NewCmdGet(f, nil), ios, "private_key"); err != nil {
		t.Fatal(err)
	}
	if err := cmdtest.Execute(NewCmdList(f, nil), ios); err != nil {
		t.Fatal(err)
	}
	if all := out.String() + errOut.String(); strings.Contains(all, "1234") || strings.Contains(all, "abcd") {
		t.Errorf("a short secret leaked: stdout %q stderr %q", out.String(), errOut.String())
	}
}

// `omctl config --help` names the keys in prose, wrapped by hand; it must
// name those of the key table, in its order, so a key added there is
// added here too.
func TestConfigHelpNamesEveryKey(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	long := NewCmdConfig(cmdutil.New(ios)).Long
	_, after, ok := strings.Cut(long, "Keys: ")
	list, _, _ := strings.Cut(after, ".")
	if got := strings.Fields(strings.ReplaceAll(list, ",", " ")); !ok || !slices.Equal(got, cfg.Keys) {
		t.Errorf("config --help names keys %v, the table has %v", got, cfg.Keys)
	}
}
