package snapshotstores

import (
	"context"
	"testing"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/s3store"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestDescribeReadsBack(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/snapshot/s3Configs/blockstore-1", 200, `{"id":"blockstore-1","s3BucketName":"blocks","s3AuthMethod":"IAM_ROLE","s3MaxConnections":10,"labels":["a","b"],"loadFactor":3}`)
	ios, _, out, _ := iostreams.Test()
	if err := s3store.DescribeRun(context.Background(), &s3store.DescribeOptions{Deps: srv.Deps(ios, "table", ""), Endpoint: api.GetSnapshotStore, Kind: rules.SnapshotStore, StoreID: "blockstore-1"}); err != nil {
		t.Fatal(err)
	}
	// The load factor, which only snapshot stores have, comes last.
	if want := "blockstore-1\tblocks\t\tIAM_ROLE\t10\t\ta,b\t3\n"; out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
}
