package config

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/prompt"
	"github.com/omctl/omctl/internal/testutil/prompttest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestInitOfASecondProfileLeavesTheActiveOne(t *testing.T) {
	path := configDir(t)
	ios, _, _, _ := iostreams.Test()
	ask := func(_ context.Context, _ *InitOptions, a *Answers, _ []cfg.Key, _ []api.Project) error {
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

// The key is tried by listing the projects it reads, every page.
func TestCheckCredentialsListsTheProjects(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups", 200, `{"results":[{"id":"5e2b0c2e8f9d4b0012345678","name":"production","orgId":"5e1a0c2e8f9d4b0012345678"},{"id":"bad"}],"totalCount":2}`)
	projects, err := checkCredentials(context.Background(), &Answers{Profile: cfg.Profile{BaseURL: srv.URL, PublicKey: "pub", PrivateKey: "priv"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(projects) != 1 || projects[0].Name != "production" {
		t.Errorf("projects %+v", projects)
	}
	req := srv.Only()
	if req.Method != "GET" || req.Query.Get("itemsPerPage") != "500" || len(req.Body) != 0 {
		t.Errorf("sent %s %s?%v %q", req.Method, req.Path, req.Query, req.Body)
	}
}

func TestCheckCredentialsRefusedKeyIsAnAuthError(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups", 403, `{"detail":"no","error":403,"errorCode":"ORG_REQUIRES_ACCESS_LIST","reason":"Forbidden"}`)
	_, err := checkCredentials(context.Background(), &Answers{Profile: cfg.Profile{BaseURL: srv.URL, PublicKey: "pub", PrivateKey: "priv"}})
	if cmdutil.ExitCode(err) != cmdutil.ExitAuth {
		t.Errorf("err = %v (exit %d)", err, cmdutil.ExitCode(err))
	}
	if _, err := checkCredentials(context.Background(), &Answers{Profile: cfg.Profile{BaseURL: "://bad"}}); err == nil {
		t.Error("a bad base URL gave no error")
	}
}

// A project typed at "Default project ID" is checked against the projects
// the key reads once the key is accepted: a name is saved as its id, and
// a project the key does not read is the project's mistake, never said to
// be the key's (the key was fine).
func TestInitChecksTheProjectNotTheKey(t *testing.T) {
	const id, org = "5e2b0c2e8f9d4b0012345678", "5e1a0c2e8f9d4b0012345678"
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups", 200, `{"results":[{"id":"`+id+`","name":"production","orgId":"`+org+`"}],"totalCount":1}`)
	for _, tt := range []struct {
		project, wantErr, wantSaved string
	}{
		{"production", "", id},
		{id, "", id},
		{"Production Cluster", `project "Production Cluster": the key reads no project of that id or name (the key itself was accepted); it reads production (` + id + `)`, ""},
	} {
		path := tempPath(t)
		ios, _, _, errOut := iostreams.Test()
		opts := &InitOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Check: checkCredentials,
			Ask: func(_ context.Context, _ *InitOptions, a *Answers, keys []cfg.Key, _ []api.Project) error {
				a.BaseURL, a.PublicKey, a.PrivateKey = srv.URL, "pub", "priv"
				if keys[0].Name == "project_id" {
					a.ProjectID = tt.project
				}
				return nil
			}}
		err := initRun(context.Background(), opts)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error()+errOut.String(), "key was not accepted") || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
				t.Errorf("%s: err %v, stderr %q", tt.project, err, errOut.String())
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.project, err)
		}
		p, _ := path()
		file, _ := cfg.Load(p)
		if got := file.Profiles["default"].ProjectID; got != tt.wantSaved {
			t.Errorf("%s: saved project %q", tt.project, got)
		}
	}
}

// Once the key is accepted, the default project is chosen from the
// projects it reads (ids first, the current one first of all), and the
// organization offered is the chosen project's.
func TestInitOffersThePickerOfProjects(t *testing.T) {
	const id, other, org = "5e2b0c2e8f9d4b0012345678", "5e2b0c2e8f9d4b0012340002", "5e1a0c2e8f9d4b0012345678"
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups", 200, `{"results":[{"id":"`+other+`","name":"staging","orgId":"5e1a0c2e8f9d4b0012340009"},{"id":"`+id+`","name":"production","orgId":"`+org+`"}],"totalCount":2}`)
	path := tempPath(t)
	ios, _, _, errOut := iostreams.Test()
	ios.SetStdinTTY(true)
	ios.SetStdoutTTY(true)
	script := prompttest.New(t, srv.URL, "pub", "priv", id, "")
	opts := &InitOptions{Deps: cmdutil.Deps{IO: ios, Prompter: script}, ConfigPath: path, Ask: askAtTerminal, Check: checkCredentials, InsecureStorage: true}
	if err := initRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if want := []string{"Base URL", "Public key", "Private key", "Default project", "Default organization ID"}; !slices.Equal(script.Asked, want) {
		t.Errorf("asked %q, want %q", script.Asked, want)
	}
	offered := script.Offered["Default project"]
	if len(offered) != 3 || offered[0].Value != other || offered[0].Label != other+"  staging" || offered[2].Value != noProject {
		t.Errorf("offered %+v", offered)
	}
	p, _ := path()
	file, _ := cfg.Load(p)
	if got := file.Profiles["default"]; got.ProjectID != id || got.OrgID != org {
		t.Errorf("saved %+v", got)
	}
	if !strings.Contains(errOut.String(), "The server accepted the key; it reads 2 project(s).") {
		t.Errorf("stderr %q", errOut.String())
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
	answer := func(a Answers) func(context.Context, *InitOptions, *Answers, []cfg.Key, []api.Project) error {
		return func(_ context.Context, _ *InitOptions, ans *Answers, _ []cfg.Key, _ []api.Project) error {
			*ans = a
			return nil
		}
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

func TestInitChecksTheKeyBeforeSaving(t *testing.T) {
	path := tempPath(t)
	p, _ := path()
	org := "5e1a0c2e8f9d4b0012345678"
	answers := Answers{Profile: cfg.Profile{BaseURL: "https://om:8443", PublicKey: "pub", PrivateKey: "priv", OrgID: org}}
	var checked *Answers
	refused := func(_ context.Context, ans *Answers) ([]api.Project, error) {
		checked = ans
		return nil, errors.New("401 UNAUTHORIZED")
	}
	newOpts := func(ios *iostreams.IOStreams, script *prompttest.Script) *InitOptions {
		return &InitOptions{Deps: cmdutil.Deps{IO: ios, Prompter: script}, ConfigPath: path,
			Ask: func(_ context.Context, _ *InitOptions, ans *Answers, _ []cfg.Key, _ []api.Project) error {
				*ans = answers
				return nil
			},
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
	opts.Check = func(context.Context, *Answers) ([]api.Project, error) { return nil, nil }
	if err := initRun(context.Background(), opts); err != nil || !strings.Contains(errOut.String(), "The server accepted the key;") ||
		!strings.Contains(errOut.String(), "the private key in the OS credential store") {
		t.Errorf("err = %v, stderr %q", err, errOut.String())
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
