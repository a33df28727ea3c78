package snapshots_test

import (
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmd/root"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

// TestUsageErrorsExitTwo runs the whole command tree: cobra reports
// missing and conflicting flags as plain errors, and root makes them usage
// errors (exit 2) with the help hint. No request may be sent.
func TestUsageErrorsExitTwo(t *testing.T) {
	const (
		snap    = "5f3c0c2e8f9d4b0012345678"
		cluster = "5e3c0c2e8f9d4b0012345678"
	)
	srv := stubapi.New(t)
	cmdtest.Env(t, srv.URL, "5e2b0c2e8f9d4b0012345678")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"snapshots", "list"}, "missing flag: give --cluster or --host\nRun 'omctl snapshots list --help'"},
		{[]string{"snapshots", "describe", snap, "--cluster", cluster, "--host", "h"}, "--cluster and --host cannot be used together\n"},
		{[]string{"snapshots", "describe", "--cluster", cluster}, "missing SNAPSHOT_ID"},
		{[]string{"snapshots", "expire", snap, "--cluster", cluster}, "missing flag: give --expires or --do-not-delete\n"},
		{[]string{"snapshots", "expire", snap, "--cluster", cluster, "--expires", "1d", "--do-not-delete"}, "--do-not-delete and --expires cannot be used together\n"},
		{[]string{"snapshots", "expire", snap, "--cluster", cluster, "--expires", "soon"}, `invalid --expires: invalid time "soon"`},
		{[]string{"snapshots", "list", "--cluster", cluster, "--page", "x"}, `invalid --page "x": want an integer`},
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
