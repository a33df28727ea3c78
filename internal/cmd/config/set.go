package config

import (
	"context"
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
	// ValueGiven is false when VALUE was left out or given as "-": a
	// secret is then read from standard input.
	ValueGiven      bool
	InsecureStorage bool
}

// NewCmdSet builds `config set`.
func NewCmdSet(f *cmdutil.Factory, runF func(*SetOptions) error) *cobra.Command {
	opts := &SetOptions{Deps: cmdutil.NewDeps(f), ConfigPath: cfg.Path}
	cmd := &cobra.Command{
		Use:   "set KEY VALUE | set private_key [-]",
		Short: "Set a key of a profile",
		Long: `Set a key of a profile, creating the profile and the file (mode 0600) if needed. Values are checked: base_url must be an http(s) URL, project_id and org_id 24 hex digits, output one of table, json, jsonl, yaml.

private_key is a secret and is never an argument, where shell history and
ps would keep it: without VALUE (or with -) omctl asks for it without
echo on a terminal, or reads one line from standard input. It goes to the
OS credential store, or to the file with --insecure-storage or when no
store answers (omctl says so).`,
		Example: `  omctl config set base_url https://opsmanager.example.com:8443
  omctl config set -P staging project_id 5e2b0c2e8f9d4b0012340002
  omctl config set private_key
  omctl config set private_key < /run/secrets/om-key`,
		Args:              cmdutil.RangeArgs(1, 2, "KEY", "VALUE"),
		ValidArgsFunction: completeKeyValue,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Profile, opts.Key = f.Flags.Profile, args[0]
			opts.ValueGiven = len(args) == 2 && args[1] != "-"
			if len(args) == 2 {
				opts.Value = args[1]
			}
			if !cfg.IsSecret(opts.Key) && len(args) < 2 {
				if err := cfg.ValidateKey(opts.Key); err != nil {
					return &cmdutil.FlagError{Err: err}
				}
				return cmdutil.FlagErrorf("missing VALUE: usage: %s", cmd.UseLine())
			}
			if cfg.IsSecret(opts.Key) && opts.ValueGiven {
				return secretArgError(opts.Key)
			}
			if runF != nil {
				return runF(opts)
			}
			return setRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.InsecureStorage, "insecure-storage", false, insecureStorageUsage)
	return cmd
}

// secretArgError refuses a secret given on the command line, before it
// is stored anywhere, and says how to give it instead.
func secretArgError(key string) error {
	return cmdutil.FlagErrorf("%s is a secret and is not taken as an argument (shell history and ps would keep it): run 'omctl config set %s' to type it hidden, or pipe it in: 'omctl config set %s < FILE'", key, key, key)
}

func setRun(opts *SetOptions) error {
	if err := cfg.ValidateKey(opts.Key); err != nil {
		return &cmdutil.FlagError{Err: err}
	}
	secret := cfg.IsSecret(opts.Key)
	if secret && opts.ValueGiven {
		return secretArgError(opts.Key)
	}
	path, file, name, err := load(opts.ConfigPath, opts.Profile, opts.IO.ErrOut)
	if err != nil {
		return err
	}
	if !secret {
		prof := file.Profiles[name]
		if err := prof.Set(opts.Key, opts.Value); err != nil {
			return &cmdutil.FlagError{Err: err}
		}
		file.Profiles[name] = prof
		if err := file.Save(path); err != nil {
			return err
		}
		fmt.Fprintf(opts.IO.ErrOut, "Set %s = %s in profile %q (%s)\n", opts.Key, opts.Value, name, path)
		return nil
	}
	// The prompt takes Ctrl-C itself (the terminal is raw), so it needs
	// no context of the command's.
	value, err := readSecret(context.Background(), opts.Deps, opts.Key)
	if err != nil {
		return err
	}
	where, err := credentials(path, opts.InsecureStorage, opts.IO.ErrOut).Put(file, name, opts.Key, value)
	if err != nil {
		return &cmdutil.FlagError{Err: err}
	}
	if err := file.Save(path); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "Set %s = %s in profile %q (%s)\n", opts.Key, cfg.Redact(value), name, describeStorage(where, path))
	return nil
}

// describeStorage names where a secret is kept, for a message.
func describeStorage(where cfg.Storage, path string) string {
	if where == cfg.StoredInFile {
		return "in " + path + ", plain text"
	}
	return where.String()
}

// readSecret asks for a secret without echo at a terminal, or reads one
// line of standard input.
func readSecret(ctx context.Context, deps cmdutil.Deps, key string) (string, error) {
	return cmdutil.ReadSecret(ctx, deps, key, fmt.Sprintf("'omctl config set %s < FILE'", key))
}
