package snapshotstores

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/s3store"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const store = `{"acceptedTos":true,"s3AuthMethod":"IAM_ROLE","pathStyleAccessEnabled":true,"s3BucketEndpoint":"https://s3.example.com","s3BucketName":"blocks","s3MaxConnections":10,"sseEnabled":false,"uri":"db1:27017,db2:27017"}`

func TestUpdatePutsFileWithLoadFactor(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("PUT", "/admin/backup/snapshot/s3Configs/blockstore-1", 200, `{"id":"blockstore-1","loadFactor":2}`)
	ios, stdin, _, _ := iostreams.Test()
	stdin.WriteString(store)
	opts := &UpdateOptions{Deps: srv.Deps(ios, "json", ""), StoreID: "blockstore-1"}
	opts.Store.File = "-"
	lf := int64(2)
	opts.Store.Store.LoadFactor = &lf
	if err := updateRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	body := srv.Only().JSON(t)
	if body["loadFactor"] != 2.0 || body["uri"] != "db1:27017,db2:27017" {
		t.Errorf("body = %v", body)
	}
}

func TestUpdateRejectsNonPositiveLoadFactorAndIDMismatch(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{strings.Replace(store, `{`, `{"loadFactor":0,`, 1), "loadFactor must be a positive integer"},
		{strings.Replace(store, `{`, `{"id":"other",`, 1), `differs from STORE_ID "blockstore-1"`},
		{strings.Replace(store, `"s3MaxConnections":10`, `"s3MaxConnections":-1`, 1), "s3MaxConnections must be a positive"},
		// KEYS, said or implied, needs the keys.
		{strings.Replace(store, `"IAM_ROLE"`, `"KEYS"`, 1), "s3AuthMethod KEYS needs the bucket's keys"},
		{strings.Replace(store, `"s3AuthMethod":"IAM_ROLE",`, ``, 1), "s3AuthMethod KEYS needs the bucket's keys"},
	} {
		srv := stubapi.New(t)
		ios, stdin, _, _ := iostreams.Test()
		stdin.WriteString(tc.doc)
		opts := &UpdateOptions{Deps: srv.Deps(ios, "json", ""), StoreID: "blockstore-1"}
		opts.Store.File = "-"
		err := updateRun(context.Background(), opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) || len(srv.Requests()) != 0 {
			t.Errorf("want %q, err = %v", tc.want, err)
		}
	}
}

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
