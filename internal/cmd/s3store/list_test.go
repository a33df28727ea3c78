package s3store

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestNewCmdList(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string // assignableOnly as parsed: "" for not given
	}{
		{nil, ""}, {[]string{"--assignable-only=false"}, "false"}, {[]string{"--assignable-only"}, "true"},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *ListOptions
		cmd := NewCmdList(&cmdutil.Factory{IOStreams: ios}, api.ListOplogStores, rules.OplogStore, "", "", func(_ context.Context, o *ListOptions) error { got = o; return nil })
		if err := cmdtest.Execute(cmd, ios, tt.args...); err != nil || got == nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		parsed := ""
		if got.AssignableOnly != nil {
			parsed = map[bool]string{true: "true", false: "false"}[*got.AssignableOnly]
		}
		if parsed != tt.want || got.Endpoint != api.ListOplogStores {
			t.Errorf("%v: assignableOnly %q, want %q", tt.args, parsed, tt.want)
		}
	}
}

func TestListSendsAssignableOnlyOnlyWhenGiven(t *testing.T) {
	for _, given := range []*bool{nil, new(bool)} {
		srv := stubapi.New(t)
		srv.Reply("GET", snapshotPath, 200, `{"results":[{"id":"blocks-1","s3BucketName":"b","s3AuthMethod":"IAM_ROLE","loadFactor":3,"assignmentEnabled":false}],"totalCount":1}`)
		ios, _, out, _ := iostreams.Test()
		opts := &ListOptions{Deps: srv.Deps(ios, "table", ""), Endpoint: api.ListSnapshotStores, Kind: rules.SnapshotStore,
			AssignableOnly: given, List: &cmdutil.ListFlags{Page: 1, Limit: 100}}
		if err := ListRun(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		q := srv.Only().Query
		if (given == nil) == q.Has("assignableOnly") || (given != nil && q.Get("assignableOnly") != "false") {
			t.Errorf("given %v: query %v", given, q)
		}
		if !strings.HasPrefix(out.String(), "blocks-1\tb\t\tIAM_ROLE\t") || !strings.HasSuffix(out.String(), "\t3\n") {
			t.Errorf("snapshot store row: %q", out.String())
		}
	}
}
