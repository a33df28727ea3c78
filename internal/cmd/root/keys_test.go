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
