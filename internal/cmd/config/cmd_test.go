package config

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/zalando/go-keyring"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

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

// run executes cmd with args, stdout and stderr of cobra kept apart.
func run(ios *iostreams.IOStreams, cmd *cobra.Command, args ...string) error {
	return cmdtest.Execute(cmd, ios, args...)
}

func isUsage(err error) bool {
	var fe *cmdutil.FlagError
	return errors.As(err, &fe) && cmdutil.ExitCode(err) == cmdutil.ExitUsage
}

func TestNewCmdSet(t *testing.T) {
	for _, tt := range []struct {
		profile string
		args    []string
		wantErr string
		want    SetOptions
	}{
		{"", []string{"base_url", "https://om:8443"}, "", SetOptions{Key: "base_url", Value: "https://om:8443"}},
		{"staging", []string{"project_id", "5e2b0c2e8f9d4b0012345678"}, "", SetOptions{Profile: "staging", Key: "project_id", Value: "5e2b0c2e8f9d4b0012345678"}},
		{"", []string{"base_url"}, "missing VALUE", SetOptions{}},
		{"", nil, "missing KEY", SetOptions{}},
		{"", []string{"private_key", secret}, "not taken as an argument", SetOptions{}},
		{"", []string{"private_key"}, "", SetOptions{Key: "private_key"}},
		{"", []string{"private_key", "-"}, "", SetOptions{Key: "private_key", Value: "-"}},
		{"", []string{"a", "b", "c"}, "too many arguments", SetOptions{}},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *SetOptions
		f := &cmdutil.Factory{IOStreams: ios, Flags: cmdutil.GlobalFlags{Profile: tt.profile}}
		err := run(ios, NewCmdSet(f, func(o *SetOptions) error { got = o; return nil }), tt.args...)
		if tt.wantErr != "" {
			if !isUsage(err) || !strings.Contains(err.Error(), tt.wantErr) || got != nil || strings.Contains(err.Error(), secret) {
				t.Errorf("%v: err %v, want usage error %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || got.Profile != tt.want.Profile || got.Key != tt.want.Key || got.Value != tt.want.Value || got.ValueGiven != (len(tt.args) == 2 && tt.args[1] != "-") || got.IO != ios || got.ConfigPath == nil {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
}

func TestNewCmdGet(t *testing.T) {
	for _, tt := range []struct {
		profile string
		args    []string
		wantErr string
		want    GetOptions
	}{
		{"", []string{"private_key"}, "", GetOptions{Key: "private_key"}},
		{"p2", []string{"private_key", "--reveal"}, "", GetOptions{Profile: "p2", Key: "private_key", Reveal: true}},
		{"", nil, "missing KEY", GetOptions{}},
		{"", []string{"a", "b"}, "too many arguments", GetOptions{}},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *GetOptions
		f := &cmdutil.Factory{IOStreams: ios, Flags: cmdutil.GlobalFlags{Profile: tt.profile}}
		err := run(ios, NewCmdGet(f, func(o *GetOptions) error { got = o; return nil }), tt.args...)
		if tt.wantErr != "" {
			if !isUsage(err) || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
				t.Errorf("%v: err %v, want usage error %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || got.Profile != tt.want.Profile || got.Key != tt.want.Key || got.Reveal != tt.want.Reveal {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
}

func TestNewCmdUnsetUseListInit(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios, Flags: cmdutil.GlobalFlags{Profile: "staging"}}

	var unset *UnsetOptions
	if err := run(ios, NewCmdUnset(f, func(o *UnsetOptions) error { unset = o; return nil }), "ca_cert"); err != nil || unset.Key != "ca_cert" || unset.Profile != "staging" {
		t.Errorf("unset: %v %+v", err, unset)
	}
	if err := run(ios, NewCmdUnset(f, func(*UnsetOptions) error { t.Error("ran"); return nil })); !isUsage(err) || !strings.Contains(err.Error(), "missing KEY") {
		t.Errorf("unset without KEY: %v", err)
	}

	// use takes the profile from its argument, not from -P.
	var use *UseOptions
	if err := run(ios, NewCmdUse(f, func(o *UseOptions) error { use = o; return nil }), "prod"); err != nil || use.Profile != "prod" {
		t.Errorf("use: %v %+v", err, use)
	}
	if err := run(ios, NewCmdUse(f, func(*UseOptions) error { t.Error("ran"); return nil }), "a", "b"); !isUsage(err) {
		t.Errorf("use a b: %v", err)
	}

	var list *ListOptions
	if err := run(ios, NewCmdList(f, func(o *ListOptions) error { list = o; return nil })); err != nil || list.Profile != "staging" {
		t.Errorf("list: %v %+v", err, list)
	}
	if err := run(ios, NewCmdList(f, func(*ListOptions) error { t.Error("ran"); return nil }), "x"); err == nil || !strings.Contains(err.Error(), `unknown command "x"`) {
		t.Errorf("list x: %v", err)
	}

	var ini *InitOptions
	if err := run(ios, NewCmdInit(f, func(o *InitOptions) error { ini = o; return nil })); err != nil || ini.Profile != "staging" || ini.Ask == nil || ini.Check == nil {
		t.Errorf("init: %v %+v", err, ini)
	}
	if err := run(ios, NewCmdInit(f, func(*InitOptions) error { t.Error("ran"); return nil }), "x"); err == nil {
		t.Error("init x: no error")
	}
}

func TestNewCmdConfigTree(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var names []string
	for _, c := range NewCmdConfig(&cmdutil.Factory{IOStreams: ios}).Commands() {
		names = append(names, c.Name())
	}
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
		if err := run(ios, NewCmdSet(f, nil), kv[0], kv[1]); err != nil {
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

	if err := run(ios, NewCmdGet(f, nil), "private_key"); err != nil || out.String() != "********1234\n" {
		t.Errorf("get: %v %q", err, out.String())
	}
	out.Reset()
	if err := run(ios, NewCmdGet(f, nil), "private_key", "--reveal"); err != nil || out.String() != secret+"\n" {
		t.Errorf("get --reveal: %v %q", err, out.String())
	}
	out.Reset()
	// --reveal shows nothing more for a key that is not secret.
	if err := run(ios, NewCmdGet(f, nil), "public_key"); err != nil || out.String() != "pub\n" {
		t.Errorf("get public_key: %v %q", err, out.String())
	}
	out.Reset()
	if err := run(ios, NewCmdList(f, nil)); err != nil || !strings.HasPrefix(out.String(), "# "+path+"\n* default\n\n[default]\n") || strings.Contains(out.String(), "aaaaaaaa") {
		t.Errorf("list: %v %q", err, out.String())
	}
	out.Reset()
	if err := run(ios, NewCmdUnset(f, nil), "public_key"); err != nil {
		t.Fatal(err)
	}
	if err := run(ios, NewCmdGet(f, nil), "public_key"); err == nil || !strings.Contains(err.Error(), `public_key is not set in profile "default"`) || cmdutil.ExitCode(err) != cmdutil.ExitError {
		t.Errorf("get after unset: %v", err)
	}
	if err := run(ios, NewCmdUse(f, nil), "default"); err != nil || !strings.Contains(errOut.String(), "Active profile: default") {
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

func TestGetRefusesBadKeysAndMissingProfiles(t *testing.T) {
	path := tempPath(t)
	ios, _, out, _ := iostreams.Test()
	if err := setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Key: "output", Value: "json"}); err != nil {
		t.Fatal(err)
	}
	for _, o := range []GetOptions{{Key: "colour"}, {Key: "output", Profile: "nosuch"}} {
		o.IO, o.ConfigPath = ios, path
		if err := getRun(&o); !isUsage(err) {
			t.Errorf("%+v: %v", o, err)
		}
	}
	if out.Len() != 0 {
		t.Errorf("stdout %q", out.String())
	}
}

func TestListWithoutProfileYetSaysHowToCreateOne(t *testing.T) {
	path := tempPath(t)
	ios, _, out, errOut := iostreams.Test()
	if err := listRun(&ListOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path}); err != nil {
		t.Fatal(err)
	}
	p, _ := path()
	if out.String() != "# "+p+"\n" || !strings.Contains(errOut.String(), `No profile "default" yet`) {
		t.Errorf("stdout %q stderr %q", out.String(), errOut.String())
	}
	if fileExists(p) {
		t.Error("list wrote the file")
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

func TestInitOfASecondProfileLeavesTheActiveOne(t *testing.T) {
	path := configDir(t)
	ios, _, _, _ := iostreams.Test()
	ask := func(_ context.Context, _ *InitOptions, a *Answers) error {
		*a = Answers{Profile: cfg.Profile{BaseURL: "https://om:8443", PublicKey: "p", PrivateKey: "k"}}
		return nil
	}
	for _, name := range []string{"first", "second"} {
		if err := initRun(context.Background(), &InitOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: cfg.Path, Profile: name, Ask: ask}); err != nil {
			t.Fatal(err)
		}
	}
	file, _ := cfg.Load(path)
	if file.ActiveProfile != "first" || len(file.Profiles) != 2 {
		t.Errorf("active %q, profiles %v", file.ActiveProfile, file.ProfileNames())
	}
}

func TestCheckCredentialsReadsOneAlert(t *testing.T) {
	const project = "5e2b0c2e8f9d4b0012345678"
	for _, tt := range []struct {
		project, path string
	}{
		{project, "/groups/" + project + "/alerts"},
		{"", "/globalAlerts"},
	} {
		srv := stubapi.New(t)
		srv.Reply("GET", tt.path, 200, `{"results":[],"totalCount":0}`)
		err := checkCredentials(context.Background(), &Answers{Profile: cfg.Profile{BaseURL: srv.URL, PublicKey: "pub", PrivateKey: "priv", ProjectID: tt.project}})
		if err != nil {
			t.Fatal(err)
		}
		req := srv.Only()
		if req.Method != "GET" || req.Query.Get("itemsPerPage") != "1" || len(req.Body) != 0 {
			t.Errorf("sent %s %s?%v %q", req.Method, req.Path, req.Query, req.Body)
		}
	}
}

func TestCheckCredentialsRefusedKeyIsAnAuthError(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/globalAlerts", 403, `{"detail":"no","error":403,"errorCode":"ORG_REQUIRES_ACCESS_LIST","reason":"Forbidden"}`)
	err := checkCredentials(context.Background(), &Answers{Profile: cfg.Profile{BaseURL: srv.URL, PublicKey: "pub", PrivateKey: "priv"}})
	if cmdutil.ExitCode(err) != cmdutil.ExitAuth {
		t.Errorf("err = %v (exit %d)", err, cmdutil.ExitCode(err))
	}
	if err := checkCredentials(context.Background(), &Answers{Profile: cfg.Profile{BaseURL: "://bad"}}); err == nil {
		t.Error("a bad base URL gave no error")
	}
}

func TestCompletion(t *testing.T) {
	if got, dir := completeKey(nil, nil, ""); !slices.Equal(got, cfg.Keys) || dir != noFiles {
		t.Errorf("key: %v %v", got, dir)
	}
	if got, _ := completeKey(nil, []string{"output"}, ""); got != nil {
		t.Errorf("second arg of get: %v", got)
	}
	for _, tt := range []struct {
		args []string
		want []string
		dir  cobra.ShellCompDirective
	}{
		{nil, cfg.Keys, noFiles},
		{[]string{"output"}, api.OutputFormats, noFiles},
		{[]string{"insecure"}, []string{"true", "false"}, noFiles},
		{[]string{"ca_cert"}, nil, cobra.ShellCompDirectiveDefault},
		{[]string{"base_url"}, nil, noFiles},
		{[]string{"output", "json"}, nil, noFiles},
	} {
		if got, dir := completeKeyValue(nil, tt.args, ""); !slices.Equal(got, tt.want) || dir != tt.dir {
			t.Errorf("%v: %v %v", tt.args, got, dir)
		}
	}
	configDir(t)
	ios, _, _, _ := iostreams.Test()
	for _, p := range []string{"prod", "dev"} {
		if err := setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: cfg.Path, Profile: p, Key: "output", Value: "json"}); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := completeProfile(nil, nil, ""); !slices.Equal(got, []string{"dev", "prod"}) {
		t.Errorf("profiles: %v", got)
	}
	if got, _ := completeProfile(nil, []string{"dev"}, ""); got != nil {
		t.Errorf("second arg of use: %v", got)
	}
}

func TestSetTightensAnExistingFileTo0600(t *testing.T) {
	path := configDir(t)
	if err := os.WriteFile(path, []byte("active_profile = \"default\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ios, in, _, _ := iostreams.Test()
	in.WriteString(secret)
	if err := run(ios, NewCmdSet(&cmdutil.Factory{IOStreams: ios}, nil), "private_key", "--insecure-storage"); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v %v", st, err)
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
	if err := run(ios, NewCmdSet(f, nil), "private_key"); err != nil {
		t.Fatal(err)
	}
	if err := run(ios, NewCmdGet(f, nil), "private_key"); err != nil {
		t.Fatal(err)
	}
	if err := run(ios, NewCmdList(f, nil)); err != nil {
		t.Fatal(err)
	}
	if all := out.String() + errOut.String(); strings.Contains(all, "1234") || strings.Contains(all, "abcd") {
		t.Errorf("a short secret leaked: stdout %q stderr %q", out.String(), errOut.String())
	}
}
