package globalalerts

import (
	"errors"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
)

func TestGlobalAlertsGroup(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	cmd := NewCmdGlobalAlerts(&cmdutil.Factory{IOStreams: ios})
	if subs := cmd.Commands(); len(subs) != 1 || subs[0].Name() != "list" {
		t.Errorf("subcommands = %v", subs)
	}
	cmd.SetArgs([]string{"lsit"})
	cmd.SetOut(out)
	cmd.SetErr(out)
	err := cmd.Execute()
	var fe *cmdutil.FlagError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "did you mean list?") {
		t.Errorf("unknown subcommand: %v", err)
	}
}
