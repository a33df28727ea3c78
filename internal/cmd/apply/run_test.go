package apply

import (
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
)

func TestNewCmdsBuildsApplyDiffAndExport(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var names []string
	for _, c := range NewCmds(&cmdutil.Factory{IOStreams: ios}) {
		names = append(names, c.Name())
	}
	if strings.Join(names, " ") != "apply diff export" {
		t.Errorf("commands %v", names)
	}
}
