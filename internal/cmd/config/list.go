package config

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
)

// ListOptions are the inputs of `config list`.
type ListOptions struct {
	cmdutil.Deps
	ConfigPath func() (string, error)

	Profile string
}

// NewCmdList builds `config list`.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{Deps: cmdutil.NewDeps(f), ConfigPath: cfg.Path}
	return &cobra.Command{
		Use:     "list",
		Short:   "List the profiles and the keys of one",
		Long:    "List the profiles (the active one marked *) and the keys of the chosen profile, with secrets redacted and a comment saying where each is kept: the OS credential store or the config file, and whether an environment variable overrides it.",
		Example: "  omctl config list\n  omctl config list -P staging",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.Profile = f.Flags.Profile
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		},
	}
}

func listRun(opts *ListOptions) error {
	path, file, name, err := load(opts.ConfigPath, opts.Profile, opts.IO.ErrOut)
	if err != nil {
		return err
	}
	prof, ok := file.Profiles[name]
	if !ok && opts.Profile != "" {
		// Before printing anything: a failed run prints nothing.
		return cmdutil.FlagErrorf("profile %q not found: known profiles: %s", name, file.KnownProfiles())
	}
	out := opts.IO.Out
	fmt.Fprintf(out, "# %s\n", path)
	for _, name := range file.ProfileNames() {
		mark := " "
		if name == file.Active() {
			mark = "*"
		}
		fmt.Fprintf(out, "%s %s\n", mark, name)
	}
	if !ok {
		fmt.Fprintf(opts.IO.ErrOut, "No profile %q yet: create one with 'omctl config init' or 'omctl config set KEY VALUE'.\n", name)
		return nil
	}
	fmt.Fprintf(out, "\n[%s]\n", name)
	creds := credentials(path, false, nil)
	for _, k := range cfg.AllKeys {
		v := prof.Get(k.Name)
		if !k.Secret {
			if v != "" {
				fmt.Fprintf(out, "%s = %s\n", k.Name, v)
			}
			continue
		}
		// Where each secret is kept, and whether the environment
		// overrides it, so a user knows what a run will send.
		v, where, err := creds.Get(file, name, k.Name)
		note := where.String()
		switch {
		case err != nil:
			note = "the OS credential store could not be read: " + err.Error()
		case where == cfg.StoredInFile:
			note = "in " + path + ", plain text; 'omctl config migrate-secrets' moves it to the OS credential store"
		}
		if os.Getenv(k.Env) != "" {
			note += "; " + k.Env + " is set and wins"
		}
		if v == "" && prof.PrivateKeyFile != "" && k.Name == "private_key" {
			note = "read from " + prof.PrivateKeyFile + " (private_key_file)"
		}
		if v == "" {
			fmt.Fprintf(out, "# %s: %s\n", k.Name, note)
			continue
		}
		fmt.Fprintf(out, "%s = %s  # %s\n", k.Name, cfg.Redact(v), note)
	}
	return nil
}
