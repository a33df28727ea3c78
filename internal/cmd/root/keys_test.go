package root

import (
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/iostreams"
)

// The key table names the global flag that overrides each key; a flag
// renamed here without the table would stop overriding the profile
// silently, so every named flag must exist.
func TestEveryKeyFlagIsAGlobalFlag(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	pf := NewCmdRoot(cmdutil.New(ios)).PersistentFlags()
	for _, k := range cfg.AllKeys {
		if k.Flag != "" && pf.Lookup(k.Flag) == nil {
			t.Errorf("key %s names --%s, which omctl does not have", k.Name, k.Flag)
		}
	}
}

func TestHelpEnvironmentListsEveryKeyVariable(t *testing.T) {
	code, out, _ := run(t, "http://127.0.0.1:1", "help", "environment")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, k := range cfg.AllKeys {
		if !strings.Contains(out, "  "+k.Env+" ") || !strings.Contains(out, k.Help) {
			t.Errorf("help environment lacks %s: %s", k.Env, k.Help)
		}
	}
}

// The "(env VAR)" of a global flag's help comes from the key table: with
// a variable renamed in the table, the help names the new one.
func TestGlobalFlagHelpNamesTheKeyTablesVariable(t *testing.T) {
	for i, k := range cfg.AllKeys {
		if k.Flag == "" {
			continue
		}
		renamed := "OMCTL_RENAMED_" + strings.ToUpper(k.Name)
		cfg.AllKeys[i].Env = renamed
		ios, _, _, _ := iostreams.Test()
		usage := NewCmdRoot(cmdutil.New(ios)).PersistentFlags().Lookup(k.Flag).Usage
		cfg.AllKeys[i].Env = k.Env
		// --ca-cert and --insecure never named a variable in their help.
		if strings.Contains(usage, "(env ") != strings.HasSuffix(usage, " (env "+renamed+")") {
			t.Errorf("--%s: %q does not name %s", k.Flag, usage, renamed)
		}
	}
	ios, _, _, _ := iostreams.Test()
	pf := NewCmdRoot(cmdutil.New(ios)).PersistentFlags()
	for flag, env := range map[string]string{"base-url": "OMCTL_BASE_URL", "project": "OMCTL_PROJECT_ID", "org": "OMCTL_ORG_ID",
		"output": "OMCTL_OUTPUT", "profile": cfg.ProfileEnv, "retries": cfg.RetriesEnv} {
		if usage := pf.Lookup(flag).Usage; !strings.HasSuffix(usage, " (env "+env+")") {
			t.Errorf("--%s: %q", flag, usage)
		}
	}
}

func TestKeyEnvNotePanicsOnAFlagNoKeyHas(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("keyEnvNote accepted --jq, which overrides no key")
		}
	}()
	keyEnvNote("jq")
}

// cmdutil reads the retries variable itself; the name the help, `help
// environment` and README.md show (cfg.RetriesEnv) must be the one it
// reads, or a user setting it would change nothing.
func TestRetriesEnvIsTheVariableRead(t *testing.T) {
	t.Setenv(cfg.RetriesEnv, "many")
	code, _, errOut := run(t, "http://127.0.0.1:1", "alerts", "list")
	if code != cmdutil.ExitUsage || !strings.Contains(errOut, `invalid retries "many" (from `+cfg.RetriesEnv+`)`) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	code, out, _ := run(t, "http://127.0.0.1:1", "help", "environment")
	if code != 0 || !strings.Contains(out, "  "+cfg.RetriesEnv+" ") || !strings.Contains(out, "  "+cfg.ProfileEnv+" ") {
		t.Errorf("help environment lacks %s or %s:\n%s", cfg.RetriesEnv, cfg.ProfileEnv, out)
	}
}
