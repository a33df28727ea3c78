package oplogstores

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmd/s3store"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
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

// notPEM writes a --custom-cert file that holds no certificate.
func notPEM(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "ca.txt")
	if err := os.WriteFile(path, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestGroupListsItsCommands(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdOplogStores(&cmdutil.Factory{IOStreams: ios})
	names := cmdtest.Subcommands(cmd)
	if strings.Join(names, ",") != "create,describe,list,update" || cmd.Name() != "oplogstores" {
		t.Errorf("commands = %v", names)
	}
	describe, _, _ := cmd.Find([]string{"describe"})
	if describe.Short != "Show an oplog store" || !strings.Contains(describe.Long, "GET /admin/backup/oplog/s3Configs/{id}") {
		t.Errorf("describe = %q %q", describe.Short, describe.Long)
	}
	err := cmdtest.Execute(cmd, ios, []string{"delete"}...)
	var fe *cmdutil.FlagError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), `unknown command "delete" for "oplogstores"`) {
		t.Errorf("err = %v", err)
	}
}

func execute(t *testing.T, f *cmdutil.Factory, args ...string) error {
	t.Helper()
	return cmdtest.Execute(NewCmdOplogStores(f), f.IOStreams, args...)
}

func TestCommandsRunThroughTheFactory(t *testing.T) {
	srv := stubapi.New(t)
	store := `{"id":"oplog-1","s3BucketName":"oplogs","s3BucketEndpoint":"https://s3.example.com","s3MaxConnections":50,"s3AuthMethod":"IAM_ROLE"}`
	srv.Reply("GET", "/admin/backup/oplog/s3Configs/oplog-1", 200, store)
	srv.Reply("POST", "/admin/backup/oplog/s3Configs", 200, store)
	srv.Reply("PUT", "/admin/backup/oplog/s3Configs/oplog-1", 200, store)
	required := []string{"--accepted-tos", "--path-style-access=false", "--bucket-endpoint", "https://s3.example.com",
		"--bucket-name", "oplogs", "--max-connections", "50", "--sse", "--uri", "mongodb://meta:27017", "--auth-method", "IAM_ROLE"}
	row := "oplog-1\toplogs\thttps://s3.example.com\tIAM_ROLE\t50\t\t\n"
	for _, tc := range []struct {
		args   []string
		format string
		method string
		want   string
	}{
		{[]string{"describe", "oplog-1"}, "table", "GET", row},
		{[]string{"describe", "oplog-1"}, "json", "GET", store + "\n"},
		{[]string{"describe", "oplog-1"}, "yaml", "GET", "id: oplog-1\ns3BucketName: oplogs\ns3BucketEndpoint: https://s3.example.com\ns3MaxConnections: 50\ns3AuthMethod: IAM_ROLE\n"},
		{append([]string{"create", "--id", "oplog-1"}, required...), "table", "POST", row},
		{append([]string{"update", "oplog-1", "--replace"}, required...), "json", "PUT", store + "\n"},
	} {
		f := cmdtest.FormatFactory(t, srv.URL, tc.format)
		ios := f.IOStreams
		before := len(srv.Requests())
		if err := execute(t, f, tc.args...); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		reqs := srv.Requests()[before:]
		if len(reqs) != 1 || reqs[0].Method != tc.method {
			t.Fatalf("%v: requests %v", tc.args, reqs)
		}
		if tc.method != "GET" {
			if body := reqs[0].JSON(t); body["s3BucketName"] != "oplogs" || body["acceptedTos"] != true || (tc.method == "PUT") != (body["id"] == nil) {
				t.Errorf("%v: body = %v", tc.args, body)
			}
		}
		if out := ios.Out.(fmt.Stringer).String(); out != tc.want {
			t.Errorf("%v -o %s: output %q, want %q", tc.args, tc.format, out, tc.want)
		}
	}
}
