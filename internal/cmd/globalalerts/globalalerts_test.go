package globalalerts

import (
	"errors"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
)

func TestGlobalAlertsGroup(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdGlobalAlerts(&cmdutil.Factory{IOStreams: ios})
	if subs := cmd.Commands(); len(subs) != 1 || subs[0].Name() != "list" {
		t.Errorf("subcommands = %v", subs)
	}
	err := cmdtest.ExecuteToStdout(cmd, ios, "lsit")
	var fe *cmdutil.FlagError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "did you mean list?") {
		t.Errorf("unknown subcommand: %v", err)
	}
}
