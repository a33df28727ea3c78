package config

import (
	"fmt"
	"os"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// Settings are the resolved settings of one run.
type Settings struct {
	Profile    string
	BaseURL    string
	PublicKey  string
	PrivateKey string
	ProjectID  string
	OrgID      string
	Output     string
	CACert     string
	Insecure   bool
}

// envNames maps each key to its environment variable.
var envNames = map[string]string{
	"base_url":    "OMCTL_BASE_URL",
	"public_key":  "OMCTL_PUBLIC_KEY",
	"private_key": "OMCTL_PRIVATE_KEY",
	"project_id":  "OMCTL_PROJECT_ID",
	"org_id":      "OMCTL_ORG_ID",
	"output":      "OMCTL_OUTPUT",
	"ca_cert":     "OMCTL_CA_CERT",
	"insecure":    "OMCTL_INSECURE",
}

// EnvName returns the environment variable of a key.
func EnvName(key string) string { return envNames[key] }

// flagNames maps keys to the global flags that override them.
var flagNames = map[string]string{
	"base_url":   "base-url",
	"project_id": "project",
	"org_id":     "org",
	"output":     "output",
	"ca_cert":    "ca-cert",
	"insecure":   "insecure",
}

// ProfileEnv names the profile to use when -P is not given.
const ProfileEnv = "OMCTL_PROFILE"

// Resolve merges, by precedence, the flags that were set, the environment,
// and the chosen profile of f. profileFlag is the value of -P ("" if unset).
// A profile named by -P or OMCTL_PROFILE must exist; the default one need not,
// so CI jobs can run on environment variables alone.
func Resolve(f *File, profileFlag string, flags *pflag.FlagSet) (*Settings, error) {
	name, explicit := profileFlag, profileFlag != ""
	if name == "" {
		name = os.Getenv(ProfileEnv)
		explicit = name != ""
	}
	if name == "" {
		name = f.Active()
	}
	prof, ok := f.Profiles[name]
	if !ok && !explicit && f.ActiveProfile != "" {
		return nil, fmt.Errorf("the active profile %q does not exist: known profiles: %s (choose one with `omctl config use NAME`)", name, f.KnownProfiles())
	}
	if !ok && explicit {
		return nil, fmt.Errorf("profile %q not found: known profiles: %s (create it with `omctl config set --profile %s KEY VALUE`)", name, f.KnownProfiles(), name)
	}

	v := viper.New()
	profMap := map[string]any{}
	for _, k := range Keys {
		if k == "insecure" {
			profMap[k] = prof.Insecure
			continue
		}
		if val := prof.Get(k); val != "" {
			profMap[k] = val
		}
	}
	if err := v.MergeConfigMap(profMap); err != nil {
		return nil, err
	}
	for k, env := range envNames {
		if err := v.BindEnv(k, env); err != nil {
			return nil, err
		}
	}
	if flags != nil {
		for k, fl := range flagNames {
			if pf := flags.Lookup(fl); pf != nil && pf.Changed {
				if err := v.BindPFlag(k, pf); err != nil {
					return nil, err
				}
			}
		}
	}
	s := &Settings{
		Profile:    name,
		BaseURL:    v.GetString("base_url"),
		PublicKey:  v.GetString("public_key"),
		PrivateKey: v.GetString("private_key"),
		ProjectID:  v.GetString("project_id"),
		OrgID:      v.GetString("org_id"),
		Output:     v.GetString("output"),
		CACert:     v.GetString("ca_cert"),
		Insecure:   v.GetBool("insecure"),
	}
	for _, k := range Keys {
		raw := v.GetString(k)
		if raw == "" || (k == "insecure" && raw == "false") {
			continue
		}
		if err := ValidateValue(k, raw); err != nil {
			return nil, fmt.Errorf("%w (from %s)", err, source(k, name, flags))
		}
	}
	if s.Output == "" {
		s.Output = "table"
	}
	return s, nil
}

// source names where the value of key came from, for error messages.
func source(key, profile string, flags *pflag.FlagSet) string {
	if flags != nil {
		if pf := flags.Lookup(flagNames[key]); pf != nil && pf.Changed {
			return "--" + pf.Name
		}
	}
	if env := envNames[key]; os.Getenv(env) != "" {
		return env
	}
	return fmt.Sprintf("%s in profile %q", key, profile)
}
