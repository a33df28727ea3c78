package config

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
)

// UseOptions are the inputs of `config use`.
type UseOptions struct {
	cmdutil.Deps
	ConfigPath func() (string, error)

	Profile string
}

// NewCmdUse builds `config use`.
func NewCmdUse(f *cmdutil.Factory, runF func(*UseOptions) error) *cobra.Command {
	opts := &UseOptions{Deps: cmdutil.NewDeps(f), ConfigPath: cfg.Path}
	return &cobra.Command{
		Use:               "use PROFILE",
		Short:             "Make a profile the active one",
		Long:              "Make PROFILE the one used when neither -P nor OMCTL_PROFILE names another.",
		Example:           "  omctl config use staging",
		Args:              cmdutil.ExactArgs(1, "PROFILE"),
		ValidArgsFunction: completeProfile,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Profile = args[0]
			if runF != nil {
				return runF(opts)
			}
			return useRun(opts)
		},
	}
}

func useRun(opts *UseOptions) error {
	path, err := opts.ConfigPath()
	if err != nil {
		return err
	}
	file, err := cfg.Load(path)
	if err != nil {
		return err
	}
	if _, ok := file.Profiles[opts.Profile]; !ok {
		return cmdutil.FlagErrorf("profile %q not found: known profiles: %s", opts.Profile, file.KnownProfiles())
	}
	file.ActiveProfile = opts.Profile
	if err := file.Save(path); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Active profile: %s\n", opts.Profile)
	return nil
}
