package snapshots

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/prompt"
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
	if len(offered) != 1 || offered[0].Value != snapshot || offered[0].Label != snapshot+"  20 days ago  in 10 days" {
		t.Errorf("offered %+v", offered)
	}
	if reqs := srv.Requests(); len(reqs) != 2 || reqs[1].Method != "PATCH" {
		t.Errorf("requests %+v", reqs)
	}
}

// The picker offers only snapshots the change can apply to: a new expiry
// not to a snapshot whose expiry has passed (the server answers 400
// SNAPSHOT_EXPIRY_IN_PAST), do-not-delete not to one marked so already.
func TestExpirePickerOffersOnlySnapshotsItCanChange(t *testing.T) {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	with := func(id, expires string, keep bool) string {
		s := strings.Replace(snapJSON, snapshot, id, 1)
		s = strings.Replace(s, `"expires":"2026-12-01T00:00:00Z"`, `"expires":"`+expires+`"`, 1)
		return strings.Replace(s, `"doNotDelete":false`, fmt.Sprintf(`"doNotDelete":%v`, keep), 1)
	}
	const live, expired, kept = "5f3c0c2e8f9d4b00123456b1", "5f3c0c2e8f9d4b00123456b2", "5f3c0c2e8f9d4b00123456b3"
	page := `{"results":[` + with(live, "2026-12-01T00:00:00Z", false) + `,` + with(expired, "2026-11-20T00:00:00Z", false) + `,` + with(kept, "", true) + `],"totalCount":3}`
	for _, tc := range []struct {
		opts ExpireOptions
		want []string
	}{
		{ExpireOptions{Expires: "30d"}, []string{live, kept}},
		{ExpireOptions{DoNotDelete: true}, []string{live, expired}},
	} {
		srv := stubapi.New(t)
		srv.Reply("GET", clusterPath, 200, page)
		ios, _, _, _ := iostreams.Test()
		ios.SetStdinTTY(true)
		ios.SetStdoutTTY(true)
		script := prompttest.New(t, prompt.ErrCancelled)
		opts := tc.opts
		opts.Deps = srv.Deps(ios, "table", project)
		opts.Deps.Prompter = script
		opts.Now, opts.ClusterID = func() time.Time { return now }, cluster
		_ = expireRun(context.Background(), &opts)
		var got []string
		for _, o := range script.Offered["Snapshot whose expiry to change"] {
			got = append(got, o.Value)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("--expires %q --do-not-delete %v: offered %v, want %v", tc.opts.Expires, tc.opts.DoNotDelete, got, tc.want)
		}
	}
}
