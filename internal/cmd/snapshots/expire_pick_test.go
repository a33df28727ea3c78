package snapshots

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/prompttest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestExpireWithoutIDPicksOrRefuses(t *testing.T) {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	// No terminal: a usage error before any request.
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	err := expireRun(context.Background(), &ExpireOptions{Deps: srv.Deps(ios, "table", project), Now: func() time.Time { return now }, ClusterID: cluster, DoNotDelete: true})
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "missing SNAPSHOT_ID") || len(srv.Requests()) != 0 {
		t.Errorf("no terminal: %v", err)
	}
	// A terminal: the cluster's snapshots to choose from.
	srv = stubapi.New(t)
	srv.Reply("GET", clusterPath, 200, `{"results":[`+snapJSON+`],"totalCount":1}`)
	srv.Reply("PATCH", clusterPath+"/"+snapshot, 200, strings.Replace(snapJSON, `"doNotDelete":false`, `"doNotDelete":true`, 1))
	ios, _, _, _ = iostreams.Test()
	ios.SetStdinTTY(true)
	ios.SetStdoutTTY(true)
	script := prompttest.New(t, snapshot)
	deps := srv.Deps(ios, "table", project)
	deps.Prompter = script
	if err := expireRun(context.Background(), &ExpireOptions{Deps: deps, Now: func() time.Time { return now }, ClusterID: cluster, DoNotDelete: true}); err != nil {
		t.Fatal(err)
	}
	offered := script.Offered["Snapshot whose expiry to change"]
	if len(offered) != 1 || offered[0].Value != snapshot || !strings.Contains(offered[0].Label, "taken 20 days ago") || !strings.Contains(offered[0].Label, "expires 2026-12-01") {
		t.Errorf("offered %+v", offered)
	}
	if reqs := srv.Requests(); len(reqs) != 2 || reqs[1].Method != "PATCH" {
		t.Errorf("requests %+v", reqs)
	}
}
