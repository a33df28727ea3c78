package config

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
)

// GetOptions are the inputs of `config get`.
type GetOptions struct {
	cmdutil.Deps
	ConfigPath func() (string, error)

	Profile string
	Key     string
	Reveal  bool
}

// NewCmdGet builds `config get`.
func NewCmdGet(f *cmdutil.Factory, runF func(*GetOptions) error) *cobra.Command {
	opts := &GetOptions{Deps: cmdutil.NewDeps(f), ConfigPath: cfg.Path}
	cmd := &cobra.Command{
		Use:   "get KEY",
		Short: "Print a key of a profile",
		Long:  "Print the value a profile stores for KEY. The private key, read from the OS credential store or the file, prints redacted unless --reveal is given.",
		Example: `  omctl config get base_url
  omctl config get -P staging project_id`,
		Args:              cmdutil.ExactArgs(1, "KEY"),
		ValidArgsFunction: completeKey,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Profile, opts.Key = f.Flags.Profile, args[0]
			if runF != nil {
				return runF(opts)
			}
			return getRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Reveal, "reveal", false, "print a secret in full")
	return cmd
}

func getRun(opts *GetOptions) error {
	if err := cfg.ValidateKey(opts.Key); err != nil {
		return &cmdutil.FlagError{Err: err}
	}
	path, file, name, err := load(opts.ConfigPath, opts.Profile, opts.IO.ErrOut)
	if err != nil {
		return err
	}
	if _, ok := file.Profiles[name]; !ok {
		return cmdutil.FlagErrorf("profile %q not found: known profiles: %s", name, file.KnownProfiles())
	}
	v := file.Profiles[name].Get(opts.Key)
	if cfg.IsSecret(opts.Key) {
		if v, _, err = credentials(path, false, nil).Get(file, name, opts.Key); err != nil {
			return err
		}
	}
	if v == "" {
		return fmt.Errorf("%s is not set in profile %q", opts.Key, name)
	}
	if cfg.IsSecret(opts.Key) && !opts.Reveal {
		v = cfg.Redact(v)
	}
	fmt.Fprintln(opts.IO.Out, v)
	return nil
}
