package config

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
)

// Answers are what `config init` asks for: the values of the keys that
// have a Prompt in the key table (cfg.AllKeys), held in a Profile so that
// the table's Get and Set reach them by name, and whether to check them.
type Answers struct {
	cfg.Profile
	// CheckNow asks to try the credentials against the server once saved.
	CheckNow bool
}

// initKeys are the keys `config init` asks for, in the table's order.
func initKeys() []cfg.Key {
	var keys []cfg.Key
	for _, k := range cfg.AllKeys {
		if k.Prompt != nil {
			keys = append(keys, k)
		}
	}
	return keys
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
	// The answers start as the profile, so each question offers the
	// current value; only the keys init asks for are written back.
	ans := &Answers{Profile: prof}
	if err := opts.Ask(ctx, opts, ans); err != nil {
		return err
	}
	for _, k := range initKeys() {
		v := ans.Get(k.Name)
		if v == "" && k.Prompt.Optional {
			continue
		}
		if err := prof.Set(k.Name, v); err != nil {
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
		return cmdutil.FlagErrorf("%s", noTerminalMessage())
	}
	p := newPrompter(opts.IO.In, opts.IO.ErrOut)
	for _, k := range initKeys() {
		check := func(v string) error {
			if v == "" && k.Prompt.Optional {
				return nil
			}
			return cfg.ValidateValue(k.Name, v)
		}
		v, err := p.ask(ctx, k.Prompt.Title, k.Prompt.Help, ans.Get(k.Name), k.Secret, check)
		if err != nil {
			return err
		}
		if err := setAnswer(ans, k, v); err != nil {
			return err
		}
	}
	var err error
	ans.CheckNow, err = p.confirm(ctx, "Try the key against the server once saved?")
	return err
}

// setAnswer stores v as the answer for k. An optional key left empty is
// unset rather than set, since "" is no valid value to Set.
func setAnswer(ans *Answers, k cfg.Key, v string) error {
	if v == "" {
		return ans.Unset(k.Name)
	}
	return ans.Set(k.Name, v)
}

// noTerminalMessage sends a script to the keys init would have asked for
// and their variables. It names the first four, "..." standing for the
// rest, as it always has: enough to show the pattern, short enough to
// read in one line.
func noTerminalMessage() string {
	var names, envs []string
	keys := initKeys()
	for _, k := range keys[:min(4, len(keys))] {
		names = append(names, k.Name)
		envs = append(envs, k.Env)
	}
	return fmt.Sprintf("config init needs a terminal to ask questions; in scripts use 'omctl config set KEY VALUE' (keys: %s, ...) or the environment variables %s",
		strings.Join(names, ", "), strings.Join(envs, ", "))
}
