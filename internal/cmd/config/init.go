package config

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/charmbracelet/huh"
	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/iostreams"
)

// Answers are what `config init` asks for.
type Answers struct {
	BaseURL, PublicKey, PrivateKey, ProjectID, OrgID string
	// CheckNow asks to try the credentials against the server once saved.
	CheckNow bool
}

// InitOptions are the inputs of `config init`.
type InitOptions struct {
	IO         *iostreams.IOStreams
	ConfigPath func() (string, error)
	// Ask fills the answers; the default asks at the terminal with huh.
	Ask func(*InitOptions, *Answers) error
	// Check tries saved answers against the server (checkCredentials).
	Check func(context.Context, *Answers) error

	Profile string
}

// NewCmdInit builds `config init`.
func NewCmdInit(f *cmdutil.Factory, runF func(*InitOptions) error) *cobra.Command {
	opts := &InitOptions{IO: f.IOStreams, ConfigPath: cfg.Path, Ask: askAtTerminal, Check: checkCredentials}
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
	if err := opts.Ask(opts, ans); err != nil {
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
	path := "/globalAlerts"
	if ans.ProjectID != "" {
		path = "/groups/" + ans.ProjectID + "/alerts"
	}
	_, err = c.Get(ctx, path, url.Values{"itemsPerPage": {"1"}})
	return err
}

func askAtTerminal(opts *InitOptions, ans *Answers) error {
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
	form := huh.NewForm(huh.NewGroup(
		huh.NewInput().Title("Base URL").Description("https://host:port of the server").Value(&ans.BaseURL).Validate(check("base_url", false)),
		huh.NewInput().Title("Public key").Description("or a user name").Value(&ans.PublicKey).Validate(check("public_key", false)),
		huh.NewInput().Title("Private key").Description("or that user's API key").EchoMode(huh.EchoModePassword).Value(&ans.PrivateKey).Validate(check("private_key", false)),
		huh.NewInput().Title("Default project ID").Description("24 hex digits, optional").Value(&ans.ProjectID).Validate(check("project_id", true)),
		huh.NewInput().Title("Default organization ID").Description("24 hex digits, optional; apikeys accesslist add needs it").Value(&ans.OrgID).Validate(check("org_id", true)),
		huh.NewConfirm().Title("Try the key against the server once saved?").Value(&ans.CheckNow),
	)).WithInput(opts.IO.In).WithOutput(opts.IO.ErrOut)
	if err := form.Run(); err != nil {
		if errors.Is(err, huh.ErrUserAborted) {
			return errors.New("config init cancelled: nothing was saved")
		}
		return err
	}
	return nil
}
