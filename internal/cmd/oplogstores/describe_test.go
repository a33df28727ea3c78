package oplogstores

import (
	"context"
	"testing"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/s3store"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestDescribeGetsStore(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/oplog/s3Configs/oplog-1", 200, `{"id":"oplog-1","cloudSecretKey":"as-stored"}`)
	ios, _, out, _ := iostreams.Test()
	err := s3store.DescribeRun(context.Background(), &s3store.DescribeOptions{Deps: srv.Deps(ios, "json", ""), Endpoint: api.GetOplogStore, StoreID: "oplog-1"})
	if err != nil || out.String() != `{"id":"oplog-1","cloudSecretKey":"as-stored"}`+"\n" {
		t.Fatalf("err = %v, out = %q", err, out.String())
	}
}
