package config

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
)

// MigrateSecretsOptions are the inputs of `config migrate-secrets`.
type MigrateSecretsOptions struct {
	cmdutil.Deps
	ConfigPath func() (string, error)
}

// NewCmdMigrateSecrets builds `config migrate-secrets`.
func NewCmdMigrateSecrets(f *cmdutil.Factory, runF func(*MigrateSecretsOptions) error) *cobra.Command {
	opts := &MigrateSecretsOptions{Deps: cmdutil.NewDeps(f), ConfigPath: cfg.Path}
	return &cobra.Command{
		Use:   "migrate-secrets",
		Short: "Move the private keys of the config file into the OS credential store",
		Long: `Move every private key that config.toml holds in plain text (written by an
older omctl, with --insecure-storage, or where no credential store answered)
into the OS credential store, and remove it from the file. A key the store
refuses stays in the file, and the command fails naming it.`,
		Example: "  omctl config migrate-secrets",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return migrateSecretsRun(opts)
		},
	}
}

func migrateSecretsRun(opts *MigrateSecretsOptions) error {
	path, file, _, err := load(opts.ConfigPath, "", opts.IO.ErrOut)
	if err != nil {
		return err
	}
	if !file.HoldsSecret() {
		fmt.Fprintf(opts.IO.ErrOut, "No secret to move: %s holds none.\n", path)
		return nil
	}
	moved, migrateErr := credentials(path, false, nil).Migrate(file)
	if len(moved) > 0 {
		// What moved leaves the file even when a later key failed.
		if err := file.Save(path); err != nil {
			return err
		}
	}
	for _, m := range moved {
		fmt.Fprintf(opts.IO.ErrOut, "Moved %s into the OS credential store\n", m)
	}
	return migrateErr
}
