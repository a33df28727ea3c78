package oplogstores

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/s3store"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func ptr[T any](v T) *T { return &v }

func validFlags() s3store.Flags {
	var f s3store.Flags
	s := &f.Store
	s.ID, s.AcceptedTos, s.PathStyleAccessEnabled = "oplog-1", ptr(true), ptr(false)
	s.S3BucketEndpoint, s.S3BucketName, s.S3MaxConnections = "https://s3.example.com", "oplogs", ptr(int64(50))
	s.SSEEnabled, s.URI, s.S3AuthMethod = ptr(true), "mongodb://meta:27017", "IAM_ROLE"
	return f
}

func TestCreateFromFlags(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("POST", "/admin/backup/oplog/s3Configs", 200, `{"id":"oplog-1","s3BucketName":"oplogs","s3MaxConnections":50}`)
	ios, _, out, _ := iostreams.Test()
	err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "table", ""), Store: validFlags()})
	if err != nil {
		t.Fatal(err)
	}
	body := srv.Only().JSON(t)
	want := map[string]any{"id": "oplog-1", "acceptedTos": true, "pathStyleAccessEnabled": false, "s3BucketEndpoint": "https://s3.example.com",
		"s3BucketName": "oplogs", "s3MaxConnections": 50.0, "sseEnabled": true, "uri": "mongodb://meta:27017", "s3AuthMethod": "IAM_ROLE"}
	if len(body) != len(want) {
		t.Errorf("body = %v", body)
	}
	for k, v := range want {
		if body[k] != v {
			t.Errorf("body[%s] = %v, want %v", k, body[k], v)
		}
	}
	if !strings.HasPrefix(out.String(), "oplog-1\toplogs\t") {
		t.Errorf("output = %q", out.String())
	}
}

func TestCreateFromFileWithFlagOverrideKeepsUnknownFields(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.json")
	f := validFlags()
	doc, _ := json.Marshal(f.Store)
	var m map[string]any
	json.Unmarshal(doc, &m)
	m["awsAccessKey"], m["s3BucketName"] = "AKIA", "from-file"
	doc, _ = json.Marshal(m)
	os.WriteFile(path, doc, 0o600)

	srv := stubapi.New(t)
	srv.Reply("POST", "/admin/backup/oplog/s3Configs", 200, `{"id":"oplog-1"}`)
	ios, _, _, _ := iostreams.Test()
	var flags s3store.Flags
	flags.File, flags.Store.S3BucketName = path, "from-flag"
	if err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "json", ""), Store: flags}); err != nil {
		t.Fatal(err)
	}
	body := srv.Only().JSON(t)
	if body["s3BucketName"] != "from-flag" || body["awsAccessKey"] != "AKIA" || body["id"] != "oplog-1" {
		t.Errorf("body = %v", body)
	}
}

func TestCreateChecksWhatTheSpecStates(t *testing.T) {
	for _, tc := range []struct {
		change func(*s3store.Flags)
		want   string
	}{
		{func(f *s3store.Flags) { f.Store.AcceptedTos = ptr(false) }, "acceptedTos must be true"},
		{func(f *s3store.Flags) { f.Store.AcceptedTos = nil }, "acceptedTos"},
		{func(f *s3store.Flags) { f.Store.ID = "" }, "missing required store field(s): id"},
		{func(f *s3store.Flags) { f.Store.S3MaxConnections = ptr(int64(0)) }, "s3MaxConnections must be a positive integer"},
		{func(f *s3store.Flags) { f.Store.URI, f.Store.SSEEnabled = "", nil }, "sseEnabled, uri (flags: --sse, --uri)"},
		{func(f *s3store.Flags) { f.Store.WriteConcern = "ALL" }, "ACKNOWLEDGED, W2, JOURNALED, MAJORITY"},
		{func(f *s3store.Flags) { f.Store.S3AuthMethod = "TOKEN" }, "KEYS, IAM_ROLE"},
		{func(f *s3store.Flags) {
			f.Store.S3AuthMethod, f.Store.CloudAccessKey, f.Store.CloudSecretKey, f.Store.AWSAccessKey, f.Store.AWSSecretKey = "KEYS", "", "", "", ""
		}, "s3AuthMethod KEYS needs the bucket's keys"},
		{func(f *s3store.Flags) { f.CertFiles = []string{notPEM(t)} }, "is not a PEM certificate"},
	} {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		flags := validFlags()
		tc.change(&flags)
		err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "json", ""), Store: flags})
		if err == nil || !strings.Contains(err.Error(), tc.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage || len(srv.Requests()) != 0 {
			t.Errorf("want %q: err = %v", tc.want, err)
		}
	}
}

func TestDescribeGetsStore(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/oplog/s3Configs/oplog-1", 200, `{"id":"oplog-1","cloudSecretKey":"as-stored"}`)
	ios, _, out, _ := iostreams.Test()
	err := s3store.DescribeRun(context.Background(), &s3store.DescribeOptions{Deps: srv.Deps(ios, "json", ""), Endpoint: api.GetOplogStore, StoreID: "oplog-1"})
	if err != nil || out.String() != `{"id":"oplog-1","cloudSecretKey":"as-stored"}`+"\n" {
		t.Fatalf("err = %v, out = %q", err, out.String())
	}
}

func TestAcceptedTosFalseIsReportedBeforeMissingFields(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	var flags s3store.Flags
	flags.Store.ID, flags.Store.AcceptedTos = "x", ptr(false)
	err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "json", ""), Store: flags})
	if err == nil || !strings.HasPrefix(err.Error(), "acceptedTos must be true") {
		t.Errorf("err = %v", err)
	}
}

// notPEM writes a --custom-cert file that holds no certificate.
func notPEM(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "ca.txt")
	if err := os.WriteFile(path, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
