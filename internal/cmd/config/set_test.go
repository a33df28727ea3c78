package config

import (
	"os"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/prompttest"
)

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
		err := cmdtest.Execute(NewCmdSet(f, func(o *SetOptions) error { got = o; return nil }), ios, tt.args...)
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

func TestSetTightensAnExistingFileTo0600(t *testing.T) {
	path := configDir(t)
	if err := os.WriteFile(path, []byte("active_profile = \"default\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ios, in, _, _ := iostreams.Test()
	in.WriteString(secret)
	if err := cmdtest.Execute(NewCmdSet(&cmdutil.Factory{IOStreams: ios}, nil), ios, "private_key", "--insecure-storage"); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v %v", st, err)
	}
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
