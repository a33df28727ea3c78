package snapshotstores

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestNewCmdUpdate(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		usage   bool // the error is a *cmdutil.FlagError (exit 2)
		check   func(*UpdateOptions) bool
	}{
		{[]string{"blockstore-1", "--file", "b.json", "--load-factor", "2", "--max-connections", "30"}, "", false, func(o *UpdateOptions) bool {
			s := o.Store.Store
			return o.StoreID == "blockstore-1" && o.Store.File == "b.json" && *s.LoadFactor == 2 && *s.S3MaxConnections == 30 && s.ID == ""
		}},
		// Defaults: nothing given is nothing sent.
		{[]string{"blockstore-1"}, "", false, func(o *UpdateOptions) bool {
			s := o.Store.Store
			return o.Store.File == "" && s.LoadFactor == nil && s.S3MaxConnections == nil && s.AcceptedTos == nil && s.SSEEnabled == nil && s.Labels == nil
		}},
		{[]string{"blockstore-1", "--access-key", "AK", "--secret-key", "SK", "--auth-method", "KEYS", "--region-override", "us-east-2", "--label", "x"}, "", false, func(o *UpdateOptions) bool {
			s := o.Store.Store
			return s.CloudAccessKey == "AK" && s.CloudSecretKey == "SK" && s.S3AuthMethod == "KEYS" && s.S3RegionOverride == "us-east-2" && strings.Join(s.Labels, ",") == "x"
		}},
		{nil, "missing STORE_ID: usage: update STORE_ID", true, nil},
		{[]string{"--file", "b.json"}, "missing STORE_ID", true, nil},
		{[]string{"b1", "b2"}, `too many arguments ["b2"]`, true, nil},
		{[]string{"b1", "--id", "b1"}, "unknown flag: --id", false, nil},
		{[]string{"b1", "--load-factor", "0.5"}, `invalid argument "0.5" for "--load-factor"`, false, nil},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *UpdateOptions
		cmd := NewCmdUpdate(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *UpdateOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			var fe *cmdutil.FlagError
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || errors.As(err, &fe) != tt.usage || (tt.usage && cmdutil.ExitCode(err) != cmdutil.ExitUsage) || got != nil {
				t.Errorf("%v: error %v, want %q (usage error %v)", tt.args, err, tt.wantErr, tt.usage)
			}
			continue
		}
		if err != nil || !tt.check(got) {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
		if got.IO != ios || got.Client == nil || got.Printer == nil {
			t.Errorf("%v: the factory's streams, client and printer were not passed on", tt.args)
		}
	}
}

func TestNewCmdCreateDefaultsAndBadInput(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var got *CreateOptions
	cmd := NewCmdCreate(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *CreateOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--id", "b2"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if s := got.Store.Store; s.ID != "b2" || s.LoadFactor != nil || s.S3MaxConnections != nil || s.AcceptedTos != nil || got.Store.File != "" {
		t.Errorf("options = %+v", got)
	}
	if usage := cmd.Flags().Lookup("max-connections").Usage; !strings.Contains(usage, "the server's default: 50") {
		t.Errorf("--max-connections says %q", usage)
	}
	for _, args := range [][]string{{"--sse=perhaps"}, {"--max-connections", ""}, {"--nosuch"}} {
		called := false
		cmd := NewCmdCreate(&cmdutil.Factory{IOStreams: ios}, func(context.Context, *CreateOptions) error { called = true; return nil })
		if err := cmdtest.Execute(cmd, ios, args...); err == nil || called {
			t.Errorf("%v: err = %v, run %v", args, err, called)
		}
	}
}

func TestGroupListsItsCommands(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdSnapshotStores(&cmdutil.Factory{IOStreams: ios})
	var names []string
	for _, c := range cmd.Commands() {
		names = append(names, c.Name())
	}
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

// factory is the Factory of a run against srv, with -o format.
func factory(t *testing.T, srv *stubapi.Server, format string) (*cmdutil.Factory, *iostreams.IOStreams) {
	t.Helper()
	t.Setenv("OMCTL_CONFIG_DIR", t.TempDir())
	t.Setenv("OMCTL_BASE_URL", srv.URL)
	t.Setenv("OMCTL_PUBLIC_KEY", "pub")
	t.Setenv("OMCTL_PRIVATE_KEY", "priv")
	t.Setenv("OMCTL_PROFILE", "")
	t.Setenv("OMCTL_OUTPUT", format)
	t.Setenv("OMCTL_RETRIES", "0")
	ios, _, _, _ := iostreams.Test()
	return cmdutil.New(ios), ios
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
		f, ios := factory(t, srv, tc.format)
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

func TestUpdateServerErrorsKeepTheirExitCodes(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		code   int
	}{
		{404, `{"detail":"No snapshot store with ID blockstore-1 exists.","error":404,"errorCode":"STORE_NOT_FOUND","reason":"Not Found"}`, cmdutil.ExitNotFound},
		{401, `{"detail":"You are not authorized for this resource.","error":401,"reason":"Unauthorized"}`, cmdutil.ExitAuth},
		{500, `{"detail":"boom","error":500,"reason":"Internal Server Error"}`, cmdutil.ExitError},
	} {
		srv := stubapi.New(t)
		srv.Reply("PUT", "/admin/backup/snapshot/s3Configs/blockstore-1", tc.status, tc.body)
		ios, stdin, out, _ := iostreams.Test()
		stdin.WriteString(store)
		opts := &UpdateOptions{Deps: srv.Deps(ios, "json", ""), StoreID: "blockstore-1"}
		opts.Store.File = "-"
		err := updateRun(context.Background(), opts)
		if cmdutil.ExitCode(err) != tc.code || !strings.HasPrefix(err.Error(), fmt.Sprint(tc.status)) || out.Len() != 0 {
			t.Errorf("%d: err = %v (exit %d), want exit %d", tc.status, err, cmdutil.ExitCode(err), tc.code)
		}
	}
}
