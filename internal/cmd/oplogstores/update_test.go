package oplogstores

import (
	"context"
	"encoding/json"
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
		check   func(*UpdateOptions) bool
	}{
		{[]string{"oplog-1", "--file", "s.json", "--max-connections", "9"}, "", func(o *UpdateOptions) bool {
			return o.StoreID == "oplog-1" && o.Store.File == "s.json" && *o.Store.Store.S3MaxConnections == 9
		}},
		{[]string{"--file", "s.json"}, "STORE_ID", nil},
		{[]string{"oplog-1", "--id", "x"}, "unknown flag: --id", nil},
		{[]string{"oplog-1", "--load-factor", "2"}, "unknown flag: --load-factor", nil},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *UpdateOptions
		cmd := NewCmdUpdate(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *UpdateOptions) error { got = o; return nil })
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

func storeFile(t *testing.T, change map[string]any) string {
	f := validFlags()
	raw, _ := json.Marshal(f.Store)
	var m map[string]any
	json.Unmarshal(raw, &m)
	for k, v := range change {
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
	}
	raw, _ = json.Marshal(m)
	return string(raw)
}

func TestUpdatePutsToTheStoresPath(t *testing.T) {
	answer := `{"id":"oplog-1","s3BucketName":"oplogs","s3MaxConnections":50}`
	for _, change := range []map[string]any{{"id": nil}, {}} { // with or without its own id
		srv := stubapi.New(t)
		srv.Reply("PUT", "/admin/backup/oplog/s3Configs/oplog-1", 200, answer)
		ios, stdin, out, _ := iostreams.Test()
		stdin.WriteString(storeFile(t, change))
		opts := &UpdateOptions{Deps: srv.Deps(ios, "json", ""), StoreID: "oplog-1"}
		opts.Store.File = "-"
		if err := updateRun(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		r := srv.Only()
		if body := r.JSON(t); r.Method != "PUT" || body["s3BucketName"] != "oplogs" || body["loadFactor"] != nil {
			t.Errorf("sent %s %v", r.Method, body)
		}
		if out.String() != answer+"\n" {
			t.Errorf("output = %q", out.String())
		}
	}
}

func TestUpdateChecksBeforeSending(t *testing.T) {
	for _, tc := range []struct {
		change map[string]any
		want   string
	}{
		{map[string]any{"id": "other"}, `the file's id "other" differs from STORE_ID "oplog-1"`},
		{map[string]any{"loadFactor": 2}, "loadFactor applies to snapshot stores only"},
		{map[string]any{"s3MaxConnections": nil}, "missing required store field(s): s3MaxConnections"},
		{map[string]any{"acceptedTos": false}, "acceptedTos must be true"},
	} {
		srv := stubapi.New(t)
		ios, stdin, _, _ := iostreams.Test()
		stdin.WriteString(storeFile(t, tc.change))
		opts := &UpdateOptions{Deps: srv.Deps(ios, "json", ""), StoreID: "oplog-1"}
		opts.Store.File = "-"
		err := updateRun(context.Background(), opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage || len(srv.Requests()) != 0 {
			t.Errorf("want %q, err = %v", tc.want, err)
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
	if err := cmdtest.Execute(cmd, ios, "oplog-1", "--accepted-tos", "--sse=false"); err != nil {
		t.Fatal(err)
	}
	if s := got.Store.Store; got.StoreID != "oplog-1" || !*s.AcceptedTos || *s.SSEEnabled || s.S3MaxConnections != nil || s.PathStyleAccessEnabled != nil || got.Store.File != "" {
		t.Errorf("options = %+v", got)
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
