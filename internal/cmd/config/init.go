package config

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/prompt"
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
	// Ask fills the answers of keys; the default asks at the terminal.
	// init asks twice: the key (base URL and key pair), then, once the key
	// is checked, the defaults (project and organization), the projects
	// the key reads offered to choose from (nil when the key was not
	// checked, empty when it reads none).
	Ask func(ctx context.Context, opts *InitOptions, ans *Answers, keys []cfg.Key, projects []api.Project) error
	// Check tries the key against the server before anything is saved,
	// and returns the projects it reads (checkCredentials).
	Check func(context.Context, *Answers) ([]api.Project, error)

	Profile         string
	InsecureStorage bool
}

// NewCmdInit builds `config init`.
func NewCmdInit(f *cmdutil.Factory, runF func(*InitOptions) error) *cobra.Command {
	opts := &InitOptions{Deps: cmdutil.NewDeps(f), ConfigPath: cfg.Path, Ask: askAtTerminal, Check: checkCredentials}
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create a profile by answering questions",
		Long: `Create or update a profile interactively: base URL and API key pair (the
private key is masked as you type), which are tried against the server at
once (if the server refuses the key, omctl asks whether to save it anyway);
then the default project, chosen from the projects the key reads (a
project typed by name is saved as its id; one the key does not read is
refused), and the default organization, the project's unless you give
another. Nothing is saved before the last answer. The private key
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
	keyQuestions, defaultQuestions := splitInitKeys()
	if err := opts.Ask(ctx, opts, ans, keyQuestions, nil); err != nil {
		return err
	}
	// The key is checked before the defaults are asked for, so that a
	// project is chosen among those the key reads, and a wrong project is
	// never taken for a refused key.
	var projects []api.Project
	checked := false
	if opts.Check != nil {
		if projects, checked, err = confirmCheck(ctx, opts, ans); err != nil {
			return err
		}
	}
	if err := opts.Ask(ctx, opts, ans, defaultQuestions, projects); err != nil {
		return err
	}
	if checked && ans.ProjectID != "" {
		p, err := findProject(projects, ans.ProjectID)
		if err != nil {
			return &cmdutil.FlagError{Err: fmt.Errorf("nothing saved: %w", err)}
		}
		if p.ID != ans.ProjectID {
			fmt.Fprintf(opts.IO.ErrOut, "Project %q is %s; the profile keeps its id.\n", ans.ProjectID, p.ID)
			ans.ProjectID = p.ID
		}
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

// splitInitKeys splits the questions of init into the key (the keys a
// profile needs) and the defaults (the optional ones), asked after the key
// is checked.
func splitInitKeys() (key, defaults []cfg.Key) {
	for _, k := range initKeys() {
		if k.Prompt.Optional {
			defaults = append(defaults, k)
		} else {
			key = append(key, k)
		}
	}
	return key, defaults
}

// confirmCheck tries the key against the server, and returns the projects
// it reads and whether the server accepted it. When the server refuses
// it, a person may still save it (a server not reachable from here, a key
// whose access list is not set yet); nothing is saved unless they say so.
func confirmCheck(ctx context.Context, opts *InitOptions, ans *Answers) ([]api.Project, bool, error) {
	fmt.Fprintf(opts.IO.ErrOut, "Trying the key against %s...\n", ans.BaseURL)
	projects, err := opts.Check(ctx, ans)
	if err == nil {
		fmt.Fprintf(opts.IO.ErrOut, "The server accepted the key; it reads %d project(s).\n", len(projects))
		return projects, true, nil
	}
	fmt.Fprintf(opts.IO.ErrOut, "The check failed: %v\n", err)
	p, ok := opts.Prompt()
	if !ok {
		return nil, false, fmt.Errorf("nothing saved: the check failed: %w", err)
	}
	save, perr := p.Confirm(ctx, "Save the profile anyway?", "the key was not accepted; you can fix it later with 'omctl config init'", false)
	if perr != nil {
		return nil, false, perr
	}
	if !save {
		return nil, false, fmt.Errorf("nothing saved: the check failed: %w", err)
	}
	return nil, false, nil
}

// maxListedProjects bounds the projects init reads to offer: beyond it,
// the project is typed, and checked by the server.
const maxListedProjects = 2000

// checkCredentials tries the key by listing the projects it reads
// (GET /groups), which any key may ask for.
func checkCredentials(ctx context.Context, ans *Answers) ([]api.Project, error) {
	c, err := client.New(client.Options{BaseURL: ans.BaseURL, PublicKey: ans.PublicKey, PrivateKey: ans.PrivateKey, Timeout: 30 * time.Second})
	if err != nil {
		return nil, err
	}
	projects := []api.Project{} // checked, even when it reads none
	for raw, err := range c.Items(ctx, api.ListProjects.Path(), client.ListOptions{All: true, ItemsPerPage: client.MaxItemsPerPage, Parallel: 1}) {
		if err != nil {
			return nil, err
		}
		var p api.Project
		if json.Unmarshal(raw, &p) == nil && api.IsObjectID(p.ID) {
			projects = append(projects, p)
		}
		if len(projects) == maxListedProjects {
			break
		}
	}
	return projects, nil
}

// findProject is the project of projects whose id, else whose name, is
// given: a project the key does not read is an error that says so, and
// names the projects it does read.
func findProject(projects []api.Project, given string) (api.Project, error) {
	for _, p := range projects {
		if p.ID == given {
			return p, nil
		}
	}
	for _, p := range projects {
		if p.Name == given {
			return p, nil
		}
	}
	if len(projects) == 0 {
		return api.Project{}, fmt.Errorf("project %q: the key reads no project (the key itself was accepted); leave the default project empty", given)
	}
	var names []string
	for _, p := range projects[:min(5, len(projects))] {
		names = append(names, fmt.Sprintf("%s (%s)", p.Name, p.ID))
	}
	more := ""
	if len(projects) > 5 {
		more = fmt.Sprintf(" and %d more", len(projects)-5)
	}
	return api.Project{}, fmt.Errorf("project %q: the key reads no project of that id or name (the key itself was accepted); it reads %s%s", given, strings.Join(names, ", "), more)
}

// askAtTerminal asks each question of keys with huh; Enter keeps the
// current value, which is shown, except a secret's. The default project
// is chosen from projects, when the key's check listed some.
func askAtTerminal(ctx context.Context, opts *InitOptions, ans *Answers, keys []cfg.Key, projects []api.Project) error {
	p, ok := opts.Prompt()
	if !ok {
		return cmdutil.FlagErrorf("%s", noTerminalMessage())
	}
	for _, k := range keys {
		current := ans.Get(k.Name)
		check := func(v string) error {
			if v == "" && (k.Prompt.Optional || (k.Secret && current != "")) {
				return nil
			}
			return cfg.ValidateValue(k.Name, strings.TrimSpace(v))
		}
		if k.Name == "project_id" && projects != nil {
			// The key was checked: a project it does not read is refused
			// here, as the project's mistake, not the key's.
			check = func(v string) error {
				if v = strings.TrimSpace(v); v == "" {
					return nil
				}
				_, err := findProject(projects, v)
				return err
			}
		}
		var v string
		var err error
		switch {
		case k.Name == "project_id" && len(projects) > 0:
			v, err = p.Select(ctx, "Default project", projectOptions(projects, current))
			if v == noProject {
				v = ""
			}
			if err == nil && v != "" && ans.OrgID == "" {
				// The organization's question then offers the project's.
				if chosen, ferr := findProject(projects, v); ferr == nil {
					ans.OrgID = chosen.OrgID
				}
			}
		case k.Secret:
			help := k.Prompt.Help
			if current != "" {
				help += "; Enter keeps the current one"
			}
			v, err = p.Password(ctx, k.Prompt.Title, help, check)
			if err == nil && v == "" {
				v = current
			}
		default:
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

// projectOptions are the choices of the default project: the current one
// first, then every project the key reads (name, then id, never cut), and
// none.
func projectOptions(projects []api.Project, current string) []prompt.Option {
	var opts []prompt.Option
	var rest []prompt.Option
	for _, p := range projects {
		o := prompt.Option{Label: p.ID + "  " + p.Name, Value: p.ID}
		if p.ID == current || p.Name == current {
			o.Label += "  (current)"
			opts = append(opts, o)
			continue
		}
		rest = append(rest, o)
	}
	opts = append(opts, rest...)
	return append(opts, prompt.Option{Label: "none: give --project each time", Value: noProject})
}

// noProject is the value of the picker's last choice, no default project.
// It is not "", the value the picker starts from, so the picker starts on
// the first project, not on none.
const noProject = "-"

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
