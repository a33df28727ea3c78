package config

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
)

// Answers are what `config init` asks for.
type Answers struct {
	BaseURL, PublicKey, PrivateKey, ProjectID, OrgID string
	// CheckNow asks to try the credentials against the server once saved.
	CheckNow bool
}

// InitOptions are the inputs of `config init`.
type InitOptions struct {
	cmdutil.Deps
	ConfigPath func() (string, error)
	// Ask fills the answers; the default asks at the terminal.
	Ask func(context.Context, *InitOptions, *Answers) error
	// Check tries saved answers against the server (checkCredentials).
	Check func(context.Context, *Answers) error

	Profile string
}

// NewCmdInit builds `config init`.
func NewCmdInit(f *cmdutil.Factory, runF func(*InitOptions) error) *cobra.Command {
	opts := &InitOptions{Deps: cmdutil.NewDeps(f), ConfigPath: cfg.Path, Ask: askAtTerminal, Check: checkCredentials}
	return &cobra.Command{
		Use:   "init",
		Short: "Create a profile by answering questions",
		Long: `Create or update a profile interactively: base URL, API key pair (the
private key is masked as you type), default project and organization; then,
if you wish, try the key against the server. It needs a terminal;
in scripts use 'omctl config set KEY VALUE' or the OMCTL_* environment
variables (see 'omctl help environment').`,
		Example: "  omctl config init\n  omctl config init -P staging",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Profile = f.Flags.Profile
			if runF != nil {
				return runF(opts)
			}
			return initRun(cmd.Context(), opts)
		},
	}
}

func initRun(ctx context.Context, opts *InitOptions) error {
	path, file, name, err := load(opts.ConfigPath, opts.Profile)
	if err != nil {
		return err
	}
	prof := file.Profiles[name]
	ans := &Answers{BaseURL: prof.BaseURL, PublicKey: prof.PublicKey, PrivateKey: prof.PrivateKey, ProjectID: prof.ProjectID, OrgID: prof.OrgID}
	if err := opts.Ask(ctx, opts, ans); err != nil {
		return err
	}
	for _, kv := range [][2]string{{"base_url", ans.BaseURL}, {"public_key", ans.PublicKey}, {"private_key", ans.PrivateKey}, {"project_id", ans.ProjectID}, {"org_id", ans.OrgID}} {
		if kv[1] == "" && (kv[0] == "project_id" || kv[0] == "org_id") {
			continue
		}
		if err := prof.Set(kv[0], kv[1]); err != nil {
			return &cmdutil.FlagError{Err: err}
		}
	}
	file.Profiles[name] = prof
	if len(file.Profiles) == 1 {
		file.ActiveProfile = name
	}
	if err := file.Save(path); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Saved profile %q to %s\n", name, path)
	if !ans.CheckNow {
		return nil
	}
	if err := opts.Check(ctx, ans); err != nil {
		return fmt.Errorf("profile %q is saved, but the check failed: %w", name, err)
	}
	fmt.Fprintln(opts.IO.ErrOut, "The server accepted the key.")
	return nil
}

// checkCredentials asks the server for one alert of the project (or one
// global alert without a project), which any key with access can read.
func checkCredentials(ctx context.Context, ans *Answers) error {
	c, err := client.New(client.Options{BaseURL: ans.BaseURL, PublicKey: ans.PublicKey, PrivateKey: ans.PrivateKey, Timeout: 30 * time.Second})
	if err != nil {
		return err
	}
	path := api.ListGlobalAlerts.Path()
	if ans.ProjectID != "" {
		path = api.ListAlerts.Path(ans.ProjectID)
	}
	_, err = c.Get(ctx, path, url.Values{"itemsPerPage": {"1"}})
	return err
}

func askAtTerminal(ctx context.Context, opts *InitOptions, ans *Answers) error {
	if !opts.IO.IsStdinTTY() || !opts.IO.IsStderrTTY() {
		return cmdutil.FlagErrorf("config init needs a terminal to ask questions; in scripts use 'omctl config set KEY VALUE' (keys: base_url, public_key, private_key, project_id, ...) or the environment variables OMCTL_BASE_URL, OMCTL_PUBLIC_KEY, OMCTL_PRIVATE_KEY, OMCTL_PROJECT_ID")
	}
	check := func(key string, optional bool) func(string) error {
		return func(v string) error {
			if v == "" && optional {
				return nil
			}
			return cfg.ValidateValue(key, v)
		}
	}
	p := newPrompter(opts.IO.In, opts.IO.ErrOut)
	for _, q := range []struct {
		title, help string
		value       *string
		secret      bool
		check       func(string) error
	}{
		{"Base URL", "https://host:port of the server", &ans.BaseURL, false, check("base_url", false)},
		{"Public key", "or a user name", &ans.PublicKey, false, check("public_key", false)},
		{"Private key", "or that user's API key; not shown as you type", &ans.PrivateKey, true, check("private_key", false)},
		{"Default project ID", "24 hex digits, optional", &ans.ProjectID, false, check("project_id", true)},
		{"Default organization ID", "24 hex digits, optional; apikeys accesslist add needs it", &ans.OrgID, false, check("org_id", true)},
	} {
		v, err := p.ask(ctx, q.title, q.help, *q.value, q.secret, q.check)
		if err != nil {
			return err
		}
		*q.value = v
	}
	var err error
	ans.CheckNow, err = p.confirm(ctx, "Try the key against the server once saved?")
	return err
}
