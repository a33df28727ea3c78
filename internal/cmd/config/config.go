// Package config implements `omctl config`: write and read the profiles of
// the config file.
package config

import (
	"io"
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
mode 0600. Keys: base_url, public_key, private_key, private_key_file,
project_id, org_id, output, ca_cert, timeout, insecure.

A private key goes to the operating system's credential store (macOS
Keychain, the Secret Service of GNOME Keyring or KWallet, Windows
Credential Manager), not to the file; where none answers, or with
--insecure-storage, it stays in the file. It is never taken as an
argument: 'config set private_key' reads it hidden from the terminal or
from standard input. OMCTL_PRIVATE_KEY and OMCTL_PRIVATE_KEY_FILE always
win over the profile.

Commands act on the profile named by -P/--profile, else OMCTL_PROFILE, else
the active profile ('config use'), else "default".`,
	})
	cmd.AddCommand(NewCmdInit(f, nil), NewCmdSet(f, nil), NewCmdUnset(f, nil), NewCmdGet(f, nil), NewCmdList(f, nil), NewCmdUse(f, nil), NewCmdMigrateSecrets(f, nil))
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

// load reads the config file and names the profile a command acts on,
// warning on warn when the file holds a secret others may read.
func load(configPath func() (string, error), profileFlag string, warn io.Writer) (path string, file *cfg.File, profile string, err error) {
	if path, err = configPath(); err != nil {
		return "", nil, "", err
	}
	if file, err = cfg.Load(path); err != nil {
		return "", nil, "", err
	}
	if file.HoldsSecret() {
		cfg.WarnIfExposed(warn, path, "a private key")
	}
	return path, file, targetProfile(profileFlag, file), nil
}

// insecureStorageUsage is the help of --insecure-storage, gh's name.
const insecureStorageUsage = "keep the private key in the config file (plain text, mode 0600), not in the OS credential store"

// credentials is the credential store of the file at path.
func credentials(path string, insecure bool, notice io.Writer) *cfg.Credentials {
	return &cfg.Credentials{Path: path, Insecure: insecure, Notice: notice}
}
