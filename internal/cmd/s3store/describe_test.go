package s3store

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const oplogPath = "/admin/backup/oplog/s3Configs"

func TestNewCmdDescribe(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		usage   bool // the error is a *cmdutil.FlagError (exit 2)
		check   func(*DescribeOptions) bool
	}{
		{[]string{"oplog-1"}, "", false, func(o *DescribeOptions) bool {
			return o.StoreID == "oplog-1" && o.Kind == rules.SnapshotStore && o.Endpoint == api.GetSnapshotStore
		}},
		{[]string{"a b/c"}, "", false, func(o *DescribeOptions) bool { return o.StoreID == "a b/c" }},
		{[]string{}, "missing STORE_ID: usage: describe STORE_ID", true, nil},
		{[]string{"s1", "s2"}, `too many arguments ["s2"]`, true, nil},
		{[]string{"s1", "--id", "x"}, "unknown flag: --id", false, nil},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *DescribeOptions
		cmd := NewCmdDescribe(&cmdutil.Factory{IOStreams: ios}, api.GetSnapshotStore, rules.SnapshotStore, "long", "example",
			func(_ context.Context, o *DescribeOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			var fe *cmdutil.FlagError
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || errors.As(err, &fe) != tt.usage || got != nil {
				t.Errorf("%v: error %v, want %q (usage error %v)", tt.args, err, tt.wantErr, tt.usage)
			}
			continue
		}
		if err != nil || !tt.check(got) {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
		if got.Client == nil || got.Printer == nil {
			t.Errorf("%v: the factory's Client and Printer were not passed on", tt.args)
		}
	}
	cmd := NewCmdDescribe(&cmdutil.Factory{}, api.GetOplogStore, rules.OplogStore, "the long text", "  the example", nil)
	if cmd.Long != "the long text" || cmd.Example != "  the example" || cmd.Name() != "describe" {
		t.Errorf("command = %q %q %q", cmd.Name(), cmd.Long, cmd.Example)
	}
}

const fullStore = `{"id":"oplog-1","s3BucketName":"oplogs","s3BucketEndpoint":"https://s3.example.com","s3RegionOverride":"eu-west-1",` +
	`"pathStyleAccessEnabled":true,"cloudAccessKey":"AKIA1","cloudSecretKey":"secret!","s3MaxConnections":50,"loadFactor":2,` +
	`"sseEnabled":false,"ssl":true,"assignmentEnabled":true,"labels":["l1","l2"],"uri":"mongodb://meta:27017","writeConcern":"W2",` +
	`"customCertificates":[{"filename":"ca.pem","certString":"-----BEGIN CERTIFICATE-----"},{"filename":"ca2.pem","certString":"x"}]}`

func describe(t *testing.T, kind rules.StoreKind, format string, tty bool) (string, error) {
	t.Helper()
	srv := stubapi.New(t)
	e := map[rules.StoreKind]api.Endpoint{rules.OplogStore: api.GetOplogStore, rules.SnapshotStore: api.GetSnapshotStore}[kind]
	path := e.Path("oplog-1")
	srv.Reply("GET", path, 200, fullStore)
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(tty)
	err := DescribeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, format, ""), Endpoint: e, Kind: kind, StoreID: "oplog-1"})
	if r := srv.Only(); r.Method != "GET" || r.Path != "/api/public/v1.0"+path || len(r.Query) != 0 || len(r.Body) != 0 {
		t.Errorf("sent %s %s?%s %q", r.Method, r.Path, r.Query.Encode(), r.Body)
	}
	return out.String(), err
}

// The secret key is said to be set, masked as a diff masks it.
func TestDescribeOnATerminalShowsEveryFieldTheSecretMasked(t *testing.T) {
	out, err := describe(t, rules.OplogStore, "table", true)
	if err != nil {
		t.Fatal(err)
	}
	want := `ID:                     oplog-1
Bucket:                 oplogs
Endpoint:               https://s3.example.com
Region override:        eu-west-1
Path-style access:      true
Auth method:            KEYS
Access key:             AKIA1
Secret key:             ********
Max connections:        50
Load factor:            2
Server-side encryption: false
TLS only:               true
Assignment enabled:     true
Labels:                 l1
                        l2
Metadata URI:           mongodb://meta:27017
Write concern:          W2
Custom certificates:    ca.pem
                        ca2.pem
`
	if out != want {
		t.Errorf("output =\n%s\nwant\n%s", out, want)
	}
	if strings.Contains(out, "secret!") {
		t.Error("the secret key is shown")
	}
}

// At a terminal -o yaml masks the secret key, which -o json shows as the
// server sent it, terminal or not.
func TestDescribeYAMLAtATerminalMasksTheSecret(t *testing.T) {
	out, err := describe(t, rules.OplogStore, "yaml", true)
	if err != nil || strings.Contains(out, "secret!") || !strings.Contains(out, "cloudSecretKey: '********'") {
		t.Errorf("err %v, yaml at a terminal:\n%s", err, out)
	}
	out, err = describe(t, rules.OplogStore, "json", true)
	if err != nil || !strings.Contains(out, "secret!") {
		t.Errorf("err %v, json at a terminal:\n%s", err, out)
	}
}

func TestDescribeOnATerminalLeavesOutEmptyFields(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", oplogPath+"/s2", 200, `{"id":"s2","s3AuthMethod":"IAM_ROLE","awsAccessKey":"AKIA2"}`)
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	err := DescribeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "table", ""), Endpoint: api.GetOplogStore, StoreID: "s2"})
	if want := "ID:          s2\nAuth method: IAM_ROLE\nAccess key:  AKIA2\n"; err != nil || out.String() != want {
		t.Errorf("err = %v, output = %q, want %q", err, out.String(), want)
	}
}

func TestDescribePipedIsOneRowPerKind(t *testing.T) {
	out, err := describe(t, rules.OplogStore, "table", false)
	if want := "oplog-1\toplogs\thttps://s3.example.com\tKEYS\t50\ttrue\tl1,l2\n"; err != nil || out != want {
		t.Errorf("oplog: err = %v, output = %q, want %q", err, out, want)
	}
	out, err = describe(t, rules.SnapshotStore, "table", false)
	if want := "oplog-1\toplogs\thttps://s3.example.com\tKEYS\t50\ttrue\tl1,l2\t2\n"; err != nil || out != want {
		t.Errorf("snapshot: err = %v, output = %q, want %q", err, out, want)
	}
}

func TestDescribeJSONAndYAMLAreTheAnswer(t *testing.T) {
	out, err := describe(t, rules.OplogStore, "json", false)
	if err != nil || out != fullStore+"\n" {
		t.Errorf("json: err = %v, output = %q", err, out)
	}
	out, err = describe(t, rules.OplogStore, "json", true)
	if err != nil || !strings.HasPrefix(out, "{\n  \"id\": \"oplog-1\",\n") || !strings.Contains(out, `"cloudSecretKey": "secret!"`) {
		t.Errorf("json on a terminal: err = %v, output = %q", err, out)
	}
	out, err = describe(t, rules.OplogStore, "yaml", false)
	if err != nil || !strings.HasPrefix(out, "id: oplog-1\ns3BucketName: oplogs\n") || !strings.Contains(out, "cloudSecretKey: secret!\n") ||
		!strings.Contains(out, "labels:\n  - l1\n  - l2\n") || !strings.Contains(out, "s3MaxConnections: 50\n") {
		t.Errorf("yaml: err = %v, output =\n%s", err, out)
	}
}

func TestDescribeEscapesTheStoreID(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", oplogPath+"/a b", 200, `{"id":"a b"}`)
	ios, _, out, _ := iostreams.Test()
	err := DescribeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "json", ""), Endpoint: api.GetOplogStore, StoreID: "a b"})
	if err != nil || out.String() != `{"id":"a b"}`+"\n" {
		t.Errorf("err = %v, output = %q", err, out.String())
	}
}

func TestDescribeServerErrors(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		code   int
		want   string
	}{
		{404, `{"detail":"No oplog store with ID oplog-1 exists.","error":404,"errorCode":"STORE_NOT_FOUND","reason":"Not Found"}`, cmdutil.ExitNotFound, "STORE_NOT_FOUND"},
		{401, `{"detail":"You are not authorized for this resource.","error":401,"reason":"Unauthorized"}`, cmdutil.ExitAuth, "401"},
		{403, `{"detail":"Global backup admin needed.","error":403,"errorCode":"USER_CANNOT_ACCESS_ORGANIZATION","reason":"Forbidden"}`, cmdutil.ExitAuth, "USER_CANNOT_ACCESS_ORGANIZATION"},
		{500, `{"detail":"boom","error":500,"reason":"Internal Server Error"}`, cmdutil.ExitError, "boom"},
	} {
		srv := stubapi.New(t)
		srv.Reply("GET", oplogPath+"/oplog-1", tc.status, tc.body)
		ios, _, out, _ := iostreams.Test()
		err := DescribeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "table", ""), Endpoint: api.GetOplogStore, StoreID: "oplog-1"})
		var apiErr *client.APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != tc.status || cmdutil.ExitCode(err) != tc.code || !strings.Contains(err.Error(), tc.want) || out.Len() != 0 {
			t.Errorf("%d: err = %v (exit %d), output %q; want exit %d and %q", tc.status, err, cmdutil.ExitCode(err), out.String(), tc.code, tc.want)
		}
	}
}

func TestDescribeAnswerThatIsNotAStore(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", oplogPath+"/oplog-1", 200, `["not","a","store"]`)
	ios, _, _, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	err := DescribeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "table", ""), Endpoint: api.GetOplogStore, StoreID: "oplog-1"})
	if err == nil || !strings.Contains(err.Error(), "not a store") || cmdutil.ExitCode(err) != cmdutil.ExitError {
		t.Errorf("err = %v", err)
	}
}

func TestDescribeFailsBeforeSending(t *testing.T) {
	boom := errors.New("no client")
	ios, _, _, _ := iostreams.Test()
	for _, tc := range []struct {
		name string
		opts DescribeOptions
		want string
		code int
	}{
		{"empty store ID", DescribeOptions{}, "STORE_ID must not be empty", cmdutil.ExitUsage},
		{"bad output format", DescribeOptions{Deps: cmdutil.Deps{Printer: stubapi.Printer(ios, "xml", "")}, StoreID: "s1"}, "invalid output format", cmdutil.ExitUsage},
		{"no client", DescribeOptions{Deps: cmdutil.Deps{Printer: stubapi.Printer(ios, "json", ""), Client: func() (*client.Client, error) { return nil, boom }}, StoreID: "s1"}, "no client", cmdutil.ExitError},
	} {
		err := DescribeRun(context.Background(), &tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) || cmdutil.ExitCode(err) != tc.code {
			t.Errorf("%s: err = %v, want %q (exit %d)", tc.name, err, tc.want, tc.code)
		}
	}
}
