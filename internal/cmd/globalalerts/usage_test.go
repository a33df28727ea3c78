package globalalerts_test

import (
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmd/root"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

// TestUsageErrorsExitTwo runs the whole command tree, where cobra's own
// flag errors become usage errors (exit 2). No request may be sent.
func TestUsageErrorsExitTwo(t *testing.T) {
	srv := stubapi.New(t)
	cmdtest.Env(t, srv.URL, "5e2b0c2e8f9d4b0012345678")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"globalalerts", "list", "OPEN"}, `unknown command "OPEN"`},
		{[]string{"globalalerts", "list", "--status", "opened"}, `invalid --status "opened": valid values are TRACKING, OPEN, CLOSED, CANCELLED`},
		{[]string{"globalalerts", "list", "--limit", "ten"}, `invalid --limit "ten": want an integer`},
		{[]string{"globalalerts", "list", "--since", "1d", "--until", "7d"}, "--until 7d is before --since 1d\nRun 'omctl globalalerts list --help'"},
	} {
		ios, _, out, errOut := iostreams.Test()
		code := root.Run(tc.args, ios)
		if code != cmdutil.ExitUsage || !strings.Contains(errOut.String(), tc.want) || out.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args, code, errOut.String(), tc.want)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}
