package config

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/prompttest"
)

// The questions of init come from the Prompt of each key (cfg.AllKeys),
// in table order, over an existing profile: Enter keeps each current
// value, the private key's included, which is never offered as a default.
func TestInitAsksTheKeysWithAPromptInTableOrder(t *testing.T) {
	path := tempPath(t)
	p, _ := path()
	file := &cfg.File{Profiles: map[string]cfg.Profile{"default": {BaseURL: "https://old:8443", PublicKey: "oldpub", PrivateKey: "oldpriv", ProjectID: "5e1a0c2e8f9d4b0012345678", Output: "json"}}}
	if err := file.Save(p); err != nil {
		t.Fatal(err)
	}
	ios, _, _, errOut := iostreams.Test()
	ios.SetStdinTTY(true)
	ios.SetStdoutTTY(true)
	script := prompttest.New(t, "", "", "", "", "")
	if err := initRun(context.Background(), &InitOptions{Deps: cmdutil.Deps{IO: ios, Prompter: script}, ConfigPath: path, Ask: askAtTerminal}); err != nil {
		t.Fatal(err)
	}
	want := []string{"Base URL", "Public key", "Private key", "Default project ID", "Default organization ID"}
	if !slices.Equal(script.Asked, want) {
		t.Errorf("asked %q, want %q", script.Asked, want)
	}
	file, _ = cfg.Load(p)
	want2 := cfg.Profile{BaseURL: "https://old:8443", PublicKey: "oldpub", ProjectID: "5e1a0c2e8f9d4b0012345678", Output: "json"}
	if got := file.Profiles["default"]; got != want2 {
		t.Errorf("saved %+v, want %+v", got, want2)
	}
	// The key kept is the old one, now in the store, not in the file.
	if v, _ := keyring.Get("omctl:default", "private_key"); v != "oldpriv" {
		t.Errorf("store holds %q", v)
	}
	if strings.Contains(errOut.String(), "oldpriv") {
		t.Errorf("init showed the key: %q", errOut.String())
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
