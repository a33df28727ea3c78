package oplogstores

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

func TestNewCmdCreateParsesFlags(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		usage   bool // the error is a *cmdutil.FlagError (exit 2)
		check   func(*CreateOptions) bool
	}{
		{[]string{"--id", "oplog-1", "--accepted-tos", "--path-style-access=false", "--bucket-endpoint", "https://s3.example.com",
			"--bucket-name", "oplogs", "--max-connections", "50", "--sse", "--uri", "mongodb://meta:27017", "--auth-method", "IAM_ROLE",
			"--label", "a", "--label", "b", "--write-concern", "MAJORITY", "--custom-cert", "ca.pem"}, "", false, func(o *CreateOptions) bool {
			s := o.Store.Store
			return s.ID == "oplog-1" && *s.AcceptedTos && !*s.PathStyleAccessEnabled && s.S3BucketEndpoint == "https://s3.example.com" &&
				s.S3BucketName == "oplogs" && *s.S3MaxConnections == 50 && *s.SSEEnabled && s.URI == "mongodb://meta:27017" &&
				s.S3AuthMethod == "IAM_ROLE" && strings.Join(s.Labels, ",") == "a,b" && s.WriteConcern == "MAJORITY" &&
				len(o.Store.CertFiles) == 1 && o.Store.CertFiles[0] == "ca.pem" && o.Store.File == ""
		}},
		// Defaults: nothing given is nothing sent.
		{[]string{"-f", "store.json"}, "", false, func(o *CreateOptions) bool {
			s := o.Store.Store
			return o.Store.File == "store.json" && s.ID == "" && s.AcceptedTos == nil && s.SSEEnabled == nil && s.S3MaxConnections == nil &&
				s.LoadFactor == nil && s.Labels == nil && o.Store.CertFiles == nil
		}},
		{[]string{"--sse=false", "--ssl", "--assignment-enabled", "--disable-proxy-s3=true", "--encrypted-credentials"}, "", false, func(o *CreateOptions) bool {
			s := o.Store.Store
			return !*s.SSEEnabled && *s.SSL && *s.AssignmentEnabled && *s.DisableProxyS3 && *s.EncryptedCredentials
		}},
		{[]string{"oplog-1"}, `unknown command "oplog-1"`, false, nil},
		{[]string{"--load-factor", "2"}, "unknown flag: --load-factor", false, nil},
		{[]string{"--max-connections", "x"}, `invalid argument "x" for "--max-connections"`, false, nil},
		{[]string{"--accepted-tos=maybe"}, `invalid argument "maybe" for "--accepted-tos"`, false, nil},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *CreateOptions
		cmd := NewCmdCreate(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *CreateOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			var fe *cmdutil.FlagError
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || errors.As(err, &fe) != tt.usage || got != nil {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.wantErr)
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

func TestNewCmdUpdateArgsAreUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "missing STORE_ID: usage: update STORE_ID"},
		{[]string{"oplog-1", "oplog-2"}, `too many arguments ["oplog-2"]`},
	} {
		ios, _, _, _ := iostreams.Test()
		called := false
		cmd := NewCmdUpdate(&cmdutil.Factory{IOStreams: ios}, func(context.Context, *UpdateOptions) error { called = true; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		var fe *cmdutil.FlagError
		if !errors.As(err, &fe) || cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), tt.want) || called {
			t.Errorf("%v: err = %v, want a usage error with %q", tt.args, err, tt.want)
		}
	}
	// Flags of the update default to unset, so a --file's fields stand.
	ios, _, _, _ := iostreams.Test()
	var got *UpdateOptions
	cmd := NewCmdUpdate(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *UpdateOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"oplog-1", "--accepted-tos", "--sse=false"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if s := got.Store.Store; got.StoreID != "oplog-1" || !*s.AcceptedTos || *s.SSEEnabled || s.S3MaxConnections != nil || s.PathStyleAccessEnabled != nil || got.Store.File != "" {
		t.Errorf("options = %+v", got)
	}
}

func TestGroupListsItsCommands(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdOplogStores(&cmdutil.Factory{IOStreams: ios})
	var names []string
	for _, c := range cmd.Commands() {
		names = append(names, c.Name())
	}
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
		f, ios := factory(t, srv, tc.format)
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

func TestCommandsCheckBeforeSending(t *testing.T) {
	srv := stubapi.New(t)
	f, _ := factory(t, srv, "json")
	err := execute(t, f, "create", "--id", "oplog-1", "--accepted-tos=false")
	var fe *cmdutil.FlagError
	if !errors.As(err, &fe) || cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "acceptedTos must be true") {
		t.Errorf("err = %v", err)
	}
}

func TestUpdateServerErrorsKeepTheirExitCodes(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		code   int
	}{
		{404, `{"detail":"No oplog store with ID oplog-1 exists.","error":404,"errorCode":"STORE_NOT_FOUND","reason":"Not Found"}`, cmdutil.ExitNotFound},
		{403, `{"detail":"Forbidden.","error":403,"reason":"Forbidden"}`, cmdutil.ExitAuth},
		{400, `{"detail":"Invalid attribute uri.","error":400,"errorCode":"INVALID_ATTRIBUTE","reason":"Bad Request"}`, cmdutil.ExitError},
	} {
		srv := stubapi.New(t)
		srv.Reply("PUT", "/admin/backup/oplog/s3Configs/oplog-1", tc.status, tc.body)
		ios, _, out, _ := iostreams.Test()
		opts := &UpdateOptions{Deps: srv.Deps(ios, "table", ""), StoreID: "oplog-1", Replace: true, Store: validFlags()}
		err := updateRun(context.Background(), opts)
		if cmdutil.ExitCode(err) != tc.code || !strings.HasPrefix(err.Error(), fmt.Sprint(tc.status)) || out.Len() != 0 {
			t.Errorf("%d: err = %v (exit %d), want exit %d", tc.status, err, cmdutil.ExitCode(err), tc.code)
		}
	}
}
