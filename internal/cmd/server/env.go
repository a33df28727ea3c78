package server

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/omctl/omctl/internal/cmdutil"
)

// Every flag of `omctl server` has an environment variable, so that a
// container configured by its environment alone (a CI job's service)
// needs no command line (docs/server.md, Configured by environment).

// envPrefix starts the variable of every flag.
const envPrefix = "OMCTL_SERVER_"

// keysEnv is the variable of --key: one variable for all the keys,
// entries separated by spaces.
const keysEnv = envPrefix + "KEYS"

// EnvName is the variable of a flag of omctl server: OMCTL_SERVER_ and
// the flag's name in capitals, - as _ (--key's is OMCTL_SERVER_KEYS).
func EnvName(flag string) string {
	if flag == "key" {
		return keysEnv
	}
	return envPrefix + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// flagsWithEnv are the flags that have a variable: the command's own.
func flagsWithEnv(cmd *cobra.Command, fn func(*pflag.Flag)) {
	cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Name != "help" {
			fn(f)
		}
	})
}

// envTable is the help's table of the variables, flag by flag.
func envTable(cmd *cobra.Command) string {
	var b strings.Builder
	b.WriteString("\n\nEvery flag can be set by an environment variable instead; a flag given\non the command line wins over its variable:\n\n")
	flagsWithEnv(cmd, func(f *pflag.Flag) {
		env := EnvName(f.Name)
		switch {
		case f.Name == "key":
			env += " (entries separated by spaces)"
		case f.Value.Type() == "bool":
			env += "=true"
		}
		fmt.Fprintf(&b, "  --%-23s %s\n", f.Name, env)
	})
	return strings.TrimRight(b.String(), "\n")
}

// flagGroups are the flags that go only together, or never together,
// from the command line or the environment.
var flagGroups = struct{ exclusive, together [][]string }{
	exclusive: [][]string{{"fixtures", "demo"}, {"tls-self-signed", "tls-cert"}},
	together:  [][]string{{"tls-cert", "tls-key"}},
}

// applyEnv sets every flag the command line leaves out from its variable
// in lookup (os.LookupEnv), an empty variable counting as unset. It
// returns the flags it set, with their variables, for messages: a value
// that is wrong is told by the name the user gave it.
func applyEnv(cmd *cobra.Command, lookup func(string) (string, bool)) (map[string]string, error) {
	fromEnv := map[string]string{}
	var err error
	flagsWithEnv(cmd, func(f *pflag.Flag) {
		env := EnvName(f.Name)
		v, ok := lookup(env)
		if err != nil || f.Changed || !ok || strings.TrimSpace(v) == "" {
			return
		}
		values := []string{v}
		if f.Name == "key" {
			values = strings.Fields(v)
		}
		for _, value := range values {
			if setErr := f.Value.Set(value); setErr != nil {
				err = envValueError(f, env, value, setErr)
				return
			}
		}
		f.Changed = true
		fromEnv[f.Name] = env
	})
	if err != nil {
		return nil, err
	}
	return fromEnv, checkGroups(cmd.Flags(), fromEnv)
}

func envValueError(f *pflag.Flag, env, value string, err error) error {
	if want := cmdutil.ValueWanted(f.Value.Type()); want != "" {
		return cmdutil.FlagErrorf("invalid %s %q: want %s", env, value, want)
	}
	return cmdutil.FlagErrorf("invalid %s %q: %v", env, value, err)
}

// checkGroups checks the flagGroups a variable takes part in, naming it;
// cobra checks the command line's alone, after.
func checkGroups(fs *pflag.FlagSet, fromEnv map[string]string) error {
	name := func(flag string) string { return flagName(fromEnv, flag) }
	inEnv := func(g []string) bool { return fromEnv[g[0]] != "" || fromEnv[g[1]] != "" }
	for _, g := range flagGroups.exclusive {
		if fs.Changed(g[0]) && fs.Changed(g[1]) && inEnv(g) {
			return cmdutil.FlagErrorf("%s and %s cannot be used together", name(g[0]), name(g[1]))
		}
	}
	for _, g := range flagGroups.together {
		if fs.Changed(g[0]) != fs.Changed(g[1]) && inEnv(g) {
			set, unset := g[0], g[1]
			if fs.Changed(unset) {
				set, unset = unset, set
			}
			return cmdutil.FlagErrorf("%s needs %s too (or %s)", name(set), "--"+unset, EnvName(unset))
		}
	}
	return nil
}

// flagName is how a message names a flag's value: by its variable when
// it came from the environment.
func flagName(fromEnv map[string]string, flag string) string {
	if env, ok := fromEnv[flag]; ok {
		return env
	}
	return "--" + flag
}
