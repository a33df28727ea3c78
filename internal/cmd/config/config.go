// Package config implements `omctl config`: write and read the profiles of
// the config file.
package config

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
)

// NewCmdConfig is the `config` command group.
func NewCmdConfig(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "config <command>",
		Short: "Manage configuration profiles",
		Long: `Profiles live in $OMCTL_CONFIG_DIR/config.toml, else
$XDG_CONFIG_HOME/omctl/config.toml, else ~/.config/omctl/config.toml, with
mode 0600 since they hold private keys. Keys: base_url, public_key,
private_key, project_id, org_id, output, ca_cert, timeout, insecure.

Commands act on the profile named by -P/--profile, else OMCTL_PROFILE, else
the active profile ('config use'), else "default".`,
	})
	cmd.AddCommand(NewCmdInit(f, nil), NewCmdSet(f, nil), NewCmdUnset(f, nil), NewCmdGet(f, nil), NewCmdList(f, nil), NewCmdUse(f, nil))
	return cmd
}

// targetProfile is the profile a config command acts on.
func targetProfile(flag string, file *cfg.File) string {
	if flag != "" {
		return flag
	}
	if env := os.Getenv(cfg.ProfileEnv); env != "" {
		return env
	}
	return file.Active()
}

// load reads the config file and names the profile a command acts on.
func load(configPath func() (string, error), profileFlag string) (path string, file *cfg.File, profile string, err error) {
	if path, err = configPath(); err != nil {
		return "", nil, "", err
	}
	if file, err = cfg.Load(path); err != nil {
		return "", nil, "", err
	}
	return path, file, targetProfile(profileFlag, file), nil
}
