package config

import (
	"fmt"
	"os"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// Settings are the resolved settings of one run: the name of the profile
// they started from, and the value of every key of AllKeys. The values stay
// a typed struct, not a map by key name, so that commands read
// s.ProjectID and s.Insecure with the compiler checking the name and the
// type; they are the Profile struct itself, embedded, so that a new key is
// still one row of AllKeys and one Profile field, with nothing to copy here.
type Settings struct {
	Profile string
	Values
	// From names where each key's value came from ("--insecure",
	// "OMCTL_INSECURE", "insecure in profile \"ci\""), by key name; a
	// key left at its default has none.
	From map[string]string
}

// Values is Profile under a second name, so that Settings can embed it:
// Settings' own field Profile, the profile's name, which commands already
// read, takes the name an embedded Profile would have.
type Values = Profile

// ProfileEnv names the profile to use when -P is not given.
const ProfileEnv = "OMCTL_PROFILE"

// RetriesEnv is the variable of --retries. The number of retries belongs
// to a run, not to a profile, so it is no key of AllKeys; it is named
// here so the flag's help, `omctl help environment` and README.md's
// table of settings share it.
const RetriesEnv = "OMCTL_RETRIES"

// Resolve merges, by precedence, the flags that were set, the environment,
// and the chosen profile of f. profileFlag is the value of -P ("" if unset).
// A profile named by -P or OMCTL_PROFILE must exist; the default one need not,
// so CI jobs can run on environment variables alone.
func Resolve(f *File, profileFlag string, flags *pflag.FlagSet) (*Settings, error) {
	name, explicit, from := profileFlag, profileFlag != "", "-P/--profile"
	if name == "" {
		name, from = os.Getenv(ProfileEnv), ProfileEnv
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
		return nil, fmt.Errorf("profile %q (from %s) not found: known profiles: %s (create it with `omctl config set --profile %s KEY VALUE`)", name, from, f.KnownProfiles(), name)
	}

	v := viper.New()
	profMap := map[string]any{}
	for _, k := range AllKeys {
		if val := k.get(prof); val != "" {
			profMap[k.Name] = val
		}
	}
	if err := v.MergeConfigMap(profMap); err != nil {
		return nil, err
	}
	for _, k := range AllKeys {
		if err := v.BindEnv(k.Name, k.Env); err != nil {
			return nil, err
		}
		if pf := changedFlag(flags, k); pf != nil {
			if err := v.BindPFlag(k.Name, pf); err != nil {
				return nil, err
			}
		}
	}
	s := &Settings{Profile: name, From: map[string]string{}}
	for _, k := range AllKeys {
		raw := v.GetString(k.Name)
		if raw == "" {
			k.set(&s.Values, k.Default)
			continue
		}
		from := source(k, name, flags)
		if err := k.check(k.Name, raw); err != nil {
			return nil, fmt.Errorf("%w (from %s)", err, from)
		}
		k.set(&s.Values, raw)
		s.From[k.Name] = from
	}
	if os.Getenv("OMCTL_PRIVATE_KEY") == "" && os.Getenv("OMCTL_PRIVATE_KEY_FILE") != "" {
		// The environment beats the profile: a key file named there wins
		// over a private_key the profile holds.
		s.PrivateKey = ""
	}
	return s, nil
}

// source names where the value of key came from, for error messages.
func source(k Key, profile string, flags *pflag.FlagSet) string {
	if pf := changedFlag(flags, k); pf != nil {
		return "--" + pf.Name
	}
	if os.Getenv(k.Env) != "" {
		return k.Env
	}
	return fmt.Sprintf("%s in profile %q", k.Name, profile)
}

// changedFlag is the global flag of k when the command line set it.
func changedFlag(flags *pflag.FlagSet, k Key) *pflag.Flag {
	if flags == nil || k.Flag == "" {
		return nil
	}
	if pf := flags.Lookup(k.Flag); pf != nil && pf.Changed {
		return pf
	}
	return nil
}
