package config

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
)

// UnsetOptions are the inputs of `config unset`.
type UnsetOptions struct {
	cmdutil.Deps
	ConfigPath func() (string, error)

	Profile string
	Key     string
}

// NewCmdUnset builds `config unset`.
func NewCmdUnset(f *cmdutil.Factory, runF func(*UnsetOptions) error) *cobra.Command {
	opts := &UnsetOptions{Deps: cmdutil.NewDeps(f), ConfigPath: cfg.Path}
	return &cobra.Command{
		Use:   "unset KEY",
		Short: "Remove a key from a profile",
		Long: `Remove a key from a profile, so the setting comes from a flag, an OMCTL_*
variable or omctl's default again. The profile itself stays, even if empty.`,
		Example: `  omctl config unset ca_cert
  omctl config unset -P staging project_id`,
		Args:              cmdutil.ExactArgs(1, "KEY"),
		ValidArgsFunction: completeKey,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Profile, opts.Key = f.Flags.Profile, args[0]
			if runF != nil {
				return runF(opts)
			}
			return unsetRun(opts)
		},
	}
}

func unsetRun(opts *UnsetOptions) error {
	path, file, name, err := load(opts.ConfigPath, opts.Profile, opts.IO.ErrOut)
	if err != nil {
		return err
	}
	prof, ok := file.Profiles[name]
	if !ok {
		return cmdutil.FlagErrorf("profile %q not found: known profiles: %s", name, file.KnownProfiles())
	}
	if err := cfg.ValidateKey(opts.Key); err != nil {
		return &cmdutil.FlagError{Err: err}
	}
	var wasSet bool
	if cfg.IsSecret(opts.Key) {
		// From the file and from the credential store both.
		wasSet = credentials(path, false, nil).Delete(file, name, opts.Key)
	} else {
		wasSet = prof.Get(opts.Key) != ""
		_ = prof.Unset(opts.Key)
		file.Profiles[name] = prof
	}
	if !wasSet {
		// Nothing to write; say so rather than claim a removal.
		fmt.Fprintf(opts.IO.ErrOut, "%s was not set in profile %q (%s)\n", opts.Key, name, path)
		return nil
	}
	if err := file.Save(path); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Removed %s from profile %q (%s)\n", opts.Key, name, path)
	return nil
}
