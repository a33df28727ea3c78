package config

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/iostreams"
)

// The questions of init come from the Prompt of each key (cfg.AllKeys):
// this is the whole dialogue over an existing profile, word for word,
// the private key's current value never shown.
func TestInitAsksTheKeysWithAPromptInTableOrder(t *testing.T) {
	path := tempPath(t)
	p, _ := path()
	file := &cfg.File{Profiles: map[string]cfg.Profile{"default": {BaseURL: "https://old:8443", PublicKey: "oldpub", PrivateKey: "oldpriv", ProjectID: "5e1a0c2e8f9d4b0012345678", Output: "json"}}}
	if err := file.Save(p); err != nil {
		t.Fatal(err)
	}
	ios, stdin, _, errOut := iostreams.Test()
	ios.SetStdinTTY(true)
	ios.SetStderrTTY(true)
	stdin.WriteString("\n\nnewpriv\n\nbad\n\nn\n")
	if err := initRun(context.Background(), &InitOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Ask: askAtTerminal}); err != nil {
		t.Fatal(err)
	}
	want := "Base URL (https://host:port of the server) [https://old:8443]: " +
		"Public key (or a user name) [oldpub]: " +
		"Private key (or that user's API key; not shown as you type) [keep the current one]: " +
		"Default project ID (24 hex digits, optional) [5e1a0c2e8f9d4b0012345678]: " +
		"Default organization ID (24 hex digits, optional; apikeys accesslist add needs it): " +
		"  invalid org_id \"bad\": want 24 hexadecimal digits\n" +
		"Default organization ID (24 hex digits, optional; apikeys accesslist add needs it): " +
		"Try the key against the server once saved? [Y/n]: " +
		"Saved profile \"default\" to " + p + "\n"
	if got := errOut.String(); got != want {
		t.Errorf("dialogue\n%q\nwant\n%q", got, want)
	}
	file, _ = cfg.Load(p)
	want2 := cfg.Profile{BaseURL: "https://old:8443", PublicKey: "oldpub", PrivateKey: "newpriv", ProjectID: "5e1a0c2e8f9d4b0012345678", Output: "json"}
	if got := file.Profiles["default"]; got != want2 {
		t.Errorf("saved %+v, want %+v", got, want2)
	}
}

// Every key init asks for has a title and help to ask with, and the
// questions are the ones of the table: the required credentials first,
// then the optional defaults.
func TestInitKeysAreThoseWithAPrompt(t *testing.T) {
	var names []string
	for _, k := range initKeys() {
		names = append(names, k.Name)
		if k.Prompt.Title == "" || k.Prompt.Help == "" {
			t.Errorf("%s: prompt %+v", k.Name, *k.Prompt)
		}
		if k.Prompt.Optional != (k.Name == "project_id" || k.Name == "org_id") {
			t.Errorf("%s: optional %v", k.Name, k.Prompt.Optional)
		}
	}
	if got := strings.Join(names, " "); got != "base_url public_key private_key project_id org_id" {
		t.Errorf("init asks for %s", got)
	}
}

func TestInitWithoutTerminalNamesTheKeysAndTheirVariables(t *testing.T) {
	path := tempPath(t)
	ios, _, _, _ := iostreams.Test()
	err := initRun(context.Background(), &InitOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Ask: askAtTerminal})
	want := "config init needs a terminal to ask questions; in scripts use 'omctl config set KEY VALUE' (keys: base_url, public_key, private_key, project_id, ...) or the environment variables OMCTL_BASE_URL, OMCTL_PUBLIC_KEY, OMCTL_PRIVATE_KEY, OMCTL_PROJECT_ID"
	if err == nil || err.Error() != want || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("err = %v", err)
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
