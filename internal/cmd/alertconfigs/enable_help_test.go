package alertconfigs

import (
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
)

// disable's help tells what the API does besides the flag: it cancels the
// configuration's active alerts.
func TestDisableHelpSaysItCancelsActiveAlerts(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := cmdutil.New(ios)
	disable := NewCmdSetEnabled(f, false, nil).Long
	enable := NewCmdSetEnabled(f, true, nil).Long
	if !strings.Contains(disable, "becomes\nCANCELLED") && !strings.Contains(disable, "becomes CANCELLED") || strings.Contains(disable, "changing nothing else") {
		t.Errorf("disable's help:\n%s", disable)
	}
	if strings.Contains(enable, "CANCELLED") {
		t.Errorf("enable's help:\n%s", enable)
	}
}
