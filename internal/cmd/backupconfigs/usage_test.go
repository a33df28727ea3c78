package backupconfigs_test

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
	const cluster = "5e3c0c2e8f9d4b0012345678"
	srv := stubapi.New(t)
	cmdtest.Env(t, srv.URL, "5e2b0c2e8f9d4b0012345678")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"backupconfigs", "describe"}, "missing CLUSTER_ID"},
		{[]string{"backupconfigs", "describe", "Cluster0"}, `invalid cluster ID "Cluster0": want 24 hexadecimal digits`},
		{[]string{"backupconfigs", "assign-regions", cluster}, "missing required flag --region\nRun 'omctl backupconfigs assign-regions --help'"},
		{[]string{"backupconfigs", "assign-regions", cluster, "--region", "shard0"}, `invalid --region "shard0": want RS_ID=DEPLOYMENT_ID`},
		{[]string{"backupconfigs", "assign-regions", cluster, "--region", "s=a", "--multi-region=yes"}, `invalid --multi-region "yes": want true or false`},
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
