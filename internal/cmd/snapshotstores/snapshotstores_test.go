package snapshotstores

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const store = `{"acceptedTos":true,"s3AuthMethod":"IAM_ROLE","pathStyleAccessEnabled":true,"s3BucketEndpoint":"https://s3.example.com","s3BucketName":"blocks","s3MaxConnections":10,"sseEnabled":false,"uri":"db1:27017,db2:27017"}`

func TestGroupListsItsCommands(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdSnapshotStores(&cmdutil.Factory{IOStreams: ios})
	names := cmdtest.Subcommands(cmd)
	if strings.Join(names, ",") != "create,describe,list,update" || cmd.Name() != "snapshotstores" {
		t.Errorf("commands = %v", names)
	}
	describe, _, _ := cmd.Find([]string{"describe"})
	if describe.Short != "Show a snapshot store" || !strings.Contains(describe.Long, "GET /admin/backup/snapshot/s3Configs/{id}") {
		t.Errorf("describe = %q %q", describe.Short, describe.Long)
	}
	err := cmdtest.Execute(cmd, ios, []string{"updte"}...)
	var fe *cmdutil.FlagError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "did you mean update?") {
		t.Errorf("err = %v", err)
	}
}

func TestCommandsRunThroughTheFactory(t *testing.T) {
	srv := stubapi.New(t)
	answer := `{"id":"blockstore-1","s3BucketName":"blocks","s3BucketEndpoint":"https://s3.example.com","s3MaxConnections":50,"s3AuthMethod":"IAM_ROLE","loadFactor":1}`
	srv.Reply("GET", "/admin/backup/snapshot/s3Configs/blockstore-1", 200, answer)
	srv.Reply("POST", "/admin/backup/snapshot/s3Configs", 200, answer)
	srv.Reply("PUT", "/admin/backup/snapshot/s3Configs/blockstore-1", 200, answer)
	required := []string{"--accepted-tos", "--path-style-access", "--bucket-endpoint", "https://s3.example.com",
		"--bucket-name", "blocks", "--sse=false", "--uri", "db1:27017", "--auth-method", "IAM_ROLE"}
	row := "blockstore-1\tblocks\thttps://s3.example.com\tIAM_ROLE\t50\t\t\t1\n"
	for _, tc := range []struct {
		args   []string
		format string
		method string
		want   string
	}{
		{[]string{"describe", "blockstore-1"}, "table", "GET", row},
		{[]string{"describe", "blockstore-1"}, "yaml", "GET", "id: blockstore-1\ns3BucketName: blocks\ns3BucketEndpoint: https://s3.example.com\ns3MaxConnections: 50\ns3AuthMethod: IAM_ROLE\nloadFactor: 1\n"},
		// The server's defaults: no --max-connections, no --load-factor.
		{append([]string{"create", "--id", "blockstore-1"}, required...), "table", "POST", row},
		{append([]string{"update", "blockstore-1", "--replace", "--max-connections", "50", "--load-factor", "1"}, required...), "json", "PUT", answer + "\n"},
	} {
		f := cmdtest.FormatFactory(t, srv.URL, tc.format)
		ios := f.IOStreams
		before := len(srv.Requests())
		cmd := NewCmdSnapshotStores(f)
		if err := cmdtest.Execute(cmd, ios, tc.args...); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		reqs := srv.Requests()[before:]
		if len(reqs) != 1 || reqs[0].Method != tc.method {
			t.Fatalf("%v: requests %v", tc.args, reqs)
		}
		switch tc.method {
		case "POST":
			if body := reqs[0].JSON(t); body["id"] != "blockstore-1" || body["s3MaxConnections"] != nil || body["loadFactor"] != nil || body["sseEnabled"] != false {
				t.Errorf("%v: body = %v", tc.args, body)
			}
		case "PUT":
			if body := reqs[0].JSON(t); body["id"] != nil || body["s3MaxConnections"] != 50.0 || body["loadFactor"] != 1.0 {
				t.Errorf("%v: body = %v", tc.args, body)
			}
		}
		if out := ios.Out.(fmt.Stringer).String(); out != tc.want {
			t.Errorf("%v -o %s: output %q, want %q", tc.args, tc.format, out, tc.want)
		}
	}
}
