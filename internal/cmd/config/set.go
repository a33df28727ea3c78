package config

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
)

// SetOptions are the inputs of `config set`.
type SetOptions struct {
	cmdutil.Deps
	ConfigPath func() (string, error)

	Profile string
	Key     string
	Value   string
}

// NewCmdSet builds `config set`.
func NewCmdSet(f *cmdutil.Factory, runF func(*SetOptions) error) *cobra.Command {
	opts := &SetOptions{Deps: cmdutil.NewDeps(f), ConfigPath: cfg.Path}
	return &cobra.Command{
		Use:   "set KEY VALUE",
		Short: "Set a key of a profile",
		Long:  "Set a key of a profile, creating the profile and the file (mode 0600) if needed. Values are checked: base_url must be an http(s) URL, project_id and org_id 24 hex digits, output one of table, json, jsonl, yaml.",
		Example: `  omctl config set base_url https://opsmanager.example.com:8443
  omctl config set -P staging project_id 5e2b0c2e8f9d4b0012345678`,
		Args:              cmdutil.ExactArgs(2, "KEY", "VALUE"),
		ValidArgsFunction: completeKeyValue,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Profile, opts.Key, opts.Value = f.Flags.Profile, args[0], args[1]
			if runF != nil {
				return runF(opts)
			}
			return setRun(opts)
		},
	}
}

func setRun(opts *SetOptions) error {
	path, file, name, err := load(opts.ConfigPath, opts.Profile)
	if err != nil {
		return err
	}
	prof := file.Profiles[name]
	if err := prof.Set(opts.Key, opts.Value); err != nil {
		return &cmdutil.FlagError{Err: err}
	}
	file.Profiles[name] = prof
	if err := file.Save(path); err != nil {
		return err
	}
	shown := opts.Value
	if cfg.IsSecret(opts.Key) {
		shown = cfg.Redact(shown)
	}
	fmt.Fprintf(opts.IO.ErrOut, "Set %s = %s in profile %q (%s)\n", opts.Key, shown, name, path)
	return nil
}
