package snapshotstores

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestNewCmdCreate(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		check   func(*CreateOptions) bool
	}{
		{[]string{"--id", "b2", "--accepted-tos", "--load-factor", "3", "--bucket-name", "blocks"}, "", func(o *CreateOptions) bool {
			s := o.Store.Store
			return s.ID == "b2" && *s.AcceptedTos && *s.LoadFactor == 3 && s.S3BucketName == "blocks" && s.S3MaxConnections == nil
		}},
		{[]string{"--file", "-", "--max-connections", "7"}, "", func(o *CreateOptions) bool {
			return o.Store.File == "-" && *o.Store.Store.S3MaxConnections == 7
		}},
		{[]string{"--load-factor", "many"}, "invalid argument", nil},
		{[]string{"b2"}, "unknown command", nil},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *CreateOptions
		cmd := NewCmdCreate(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *CreateOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !tt.check(got) {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
}

func TestCreatePostsWithoutMaxConnectionsAndPrintsTheAnswer(t *testing.T) {
	answer := `{"id":"blockstore-2","s3BucketName":"blocks","s3MaxConnections":50,"loadFactor":1,"s3AuthMethod":"IAM_ROLE"}`
	srv := stubapi.New(t)
	srv.Reply("POST", "/admin/backup/snapshot/s3Configs", 200, answer)
	ios, stdin, out, _ := iostreams.Test()
	stdin.WriteString(strings.Replace(store, `"s3MaxConnections":10,`, `"id":"blockstore-2",`, 1))
	opts := &CreateOptions{Deps: srv.Deps(ios, "json", "")}
	opts.Store.File = "-"
	if err := createRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	r := srv.Only()
	body := r.JSON(t)
	if r.Method != "POST" || body["id"] != "blockstore-2" || body["s3MaxConnections"] != nil || body["loadFactor"] != nil {
		t.Errorf("sent %s %v", r.Method, body)
	}
	if out.String() != answer+"\n" {
		t.Errorf("output = %q", out.String())
	}
	// A table on a pipe shows the load factor last.
	srv.Reply("POST", "/admin/backup/snapshot/s3Configs", 200, answer)
	ios, stdin, out, _ = iostreams.Test()
	stdin.WriteString(strings.Replace(store, `{`, `{"id":"blockstore-2",`, 1))
	opts = &CreateOptions{Deps: srv.Deps(ios, "table", "")}
	opts.Store.File = "-"
	if err := createRun(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if want := "blockstore-2\tblocks\t\tIAM_ROLE\t50\t\t\t1\n"; out.String() != want {
		t.Errorf("table = %q, want %q", out.String(), want)
	}
}

func TestCreateChecksBeforeSending(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{store, "missing required store field(s): id (flags: --id)"},
		{strings.Replace(store, `"acceptedTos":true`, `"id":"b","acceptedTos":false`, 1), "acceptedTos must be true"},
		{strings.Replace(store, `"s3MaxConnections":10`, `"id":"b","s3MaxConnections":0`, 1), "s3MaxConnections must be a positive"},
		{strings.Replace(store, `{`, `{"id":"b","loadFactor":-2,`, 1), "loadFactor must be a positive integer"},
		{strings.Replace(store, `"uri":"db1:27017,db2:27017"`, `"id":"b"`, 1), "missing required store field(s): uri"},
	} {
		srv := stubapi.New(t)
		ios, stdin, _, _ := iostreams.Test()
		stdin.WriteString(tc.doc)
		opts := &CreateOptions{Deps: srv.Deps(ios, "json", "")}
		opts.Store.File = "-"
		err := createRun(context.Background(), opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage || len(srv.Requests()) != 0 {
			t.Errorf("want %q, err = %v", tc.want, err)
		}
	}
}

func TestCreateDuplicateIsTheServersConflict(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("POST", "/admin/backup/snapshot/s3Configs", 409, `{"detail":"A snapshot store with ID b already exists.","error":409,"errorCode":"DUPLICATE_STORE_ID","reason":"Conflict"}`)
	ios, stdin, _, _ := iostreams.Test()
	stdin.WriteString(strings.Replace(store, `{`, `{"id":"b",`, 1))
	opts := &CreateOptions{Deps: srv.Deps(ios, "json", "")}
	opts.Store.File = "-"
	err := createRun(context.Background(), opts)
	if err == nil || !strings.Contains(err.Error(), "DUPLICATE_STORE_ID") || cmdutil.ExitCode(err) != cmdutil.ExitError {
		t.Errorf("err = %v", err)
	}
}

func TestNewCmdCreateDefaultsAndBadInput(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var got *CreateOptions
	cmd := NewCmdCreate(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *CreateOptions) error { got = o; return nil })
	if err := cmdtest.Execute(cmd, ios, "--id", "b2"); err != nil {
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
