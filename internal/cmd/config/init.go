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
// the table's Get and Set reach them by name.
type Answers struct {
	cfg.Profile
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
	// Check tries the answers against the server before they are saved
	// (checkCredentials).
	Check func(context.Context, *Answers) error

	Profile         string
	InsecureStorage bool
}

// NewCmdInit builds `config init`.
func NewCmdInit(f *cmdutil.Factory, runF func(*InitOptions) error) *cobra.Command {
	opts := &InitOptions{Deps: cmdutil.NewDeps(f), ConfigPath: cfg.Path, Ask: askAtTerminal, Check: checkCredentials}
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create a profile by answering questions",
		Long: `Create or update a profile interactively: base URL, API key pair (the
private key is masked as you type), default project and organization. The
key is then tried against the server before anything is saved; if the
server refuses it, omctl asks whether to save it anyway. The private key
goes to the OS credential store (or the file, with --insecure-storage or
where no store answers). It needs a terminal; in scripts use
'omctl config set KEY VALUE' or the OMCTL_* environment variables
(see 'omctl help environment').`,
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
	cmd.Flags().BoolVar(&opts.InsecureStorage, "insecure-storage", false, insecureStorageUsage)
	return cmd
}

func initRun(ctx context.Context, opts *InitOptions) error {
	path, file, name, err := load(opts.ConfigPath, opts.Profile, opts.IO.ErrOut)
	if err != nil {
		return err
	}
	prof := file.Profiles[name]
	creds := credentials(path, opts.InsecureStorage, opts.IO.ErrOut)
	// The answers start as the profile, so each question offers the
	// current value; only the keys init asks for are written back.
	ans := &Answers{Profile: prof}
	for _, k := range cfg.SecretKeys() {
		if v, _, err := creds.Get(file, name, k.Name); err == nil && v != "" {
			_ = ans.Set(k.Name, v)
		}
	}
	if err := opts.Ask(ctx, opts, ans); err != nil {
		return err
	}
	secrets := map[string]string{}
	for _, k := range initKeys() {
		v := ans.Get(k.Name)
		if v == "" && k.Prompt.Optional {
			continue
		}
		if err := prof.Set(k.Name, v); err != nil {
			return &cmdutil.FlagError{Err: err}
		}
		if k.Secret {
			secrets[k.Name] = v
		}
	}
	if opts.Check != nil {
		if err := confirmCheck(ctx, opts, ans); err != nil {
			return err
		}
	}
	file.Profiles[name] = prof
	where := cfg.StoredNowhere
	for key, v := range secrets {
		if where, err = creds.Put(file, name, key, v); err != nil {
			return &cmdutil.FlagError{Err: err}
		}
	}
	if len(file.Profiles) == 1 {
		file.ActiveProfile = name
	}
	if err := file.Save(path); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Saved profile %q to %s", name, path)
	if where != cfg.StoredNowhere {
		fmt.Fprintf(opts.IO.ErrOut, "; the private key %s", describeStorage(where, path))
	}
	fmt.Fprintln(opts.IO.ErrOut)
	return nil
}

// confirmCheck tries the answers against the server. When the server
// refuses them, a person may still save them (a server not reachable from
// here, a key whose access list is not set yet); nothing is saved unless
// they say so.
func confirmCheck(ctx context.Context, opts *InitOptions, ans *Answers) error {
	fmt.Fprintf(opts.IO.ErrOut, "Trying the key against %s...\n", ans.BaseURL)
	err := opts.Check(ctx, ans)
	if err == nil {
		fmt.Fprintln(opts.IO.ErrOut, "The server accepted the key.")
		return nil
	}
	fmt.Fprintf(opts.IO.ErrOut, "The check failed: %v\n", err)
	p, ok := opts.Prompt()
	if !ok {
		return fmt.Errorf("nothing saved: the check failed: %w", err)
	}
	save, perr := p.Confirm(ctx, "Save the profile anyway?", "the key was not accepted; you can fix it later with 'omctl config init'", false)
	if perr != nil {
		return perr
	}
	if !save {
		return fmt.Errorf("nothing saved: the check failed: %w", err)
	}
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

// askAtTerminal asks each question of initKeys with huh; Enter keeps the
// current value, which is shown, except a secret's.
func askAtTerminal(ctx context.Context, opts *InitOptions, ans *Answers) error {
	p, ok := opts.Prompt()
	if !ok {
		return cmdutil.FlagErrorf("%s", noTerminalMessage())
	}
	for _, k := range initKeys() {
		current := ans.Get(k.Name)
		check := func(v string) error {
			if v == "" && (k.Prompt.Optional || (k.Secret && current != "")) {
				return nil
			}
			return cfg.ValidateValue(k.Name, strings.TrimSpace(v))
		}
		var v string
		var err error
		if k.Secret {
			help := k.Prompt.Help
			if current != "" {
				help += "; Enter keeps the current one"
			}
			v, err = p.Password(ctx, k.Prompt.Title, help, check)
			if err == nil && v == "" {
				v = current
			}
		} else {
			v, err = p.Input(ctx, k.Prompt.Title, k.Prompt.Help, current, check)
		}
		if err != nil {
			return err
		}
		if err := setAnswer(ans, k, strings.TrimSpace(v)); err != nil {
			return err
		}
	}
	return nil
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
