package oplogstores

import (
	"context"
	"encoding/json"
	"errors"
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

func TestCommandsCheckBeforeSending(t *testing.T) {
	srv := stubapi.New(t)
	f := cmdtest.FormatFactory(t, srv.URL, "json")
	err := execute(t, f, "create", "--id", "oplog-1", "--accepted-tos=false")
	var fe *cmdutil.FlagError
	if !errors.As(err, &fe) || cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "acceptedTos must be true") {
		t.Errorf("err = %v", err)
	}
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
