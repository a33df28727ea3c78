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
