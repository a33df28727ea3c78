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
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const snapshotPath = "/admin/backup/snapshot/s3Configs"

type writeCase struct {
	kind     rules.StoreKind
	endpoint api.Endpoint
	method   string
	path     string // under the base path; "" for the base path itself
	storeID  string
	answer   string
	wantTTY  string
	wantPipe string
}

var writeCases = []writeCase{
	{rules.OplogStore, api.CreateOplogStore, "POST", oplogPath, "", `{"id":"store-1","s3BucketName":"bucket","s3MaxConnections":10,"s3AuthMethod":"IAM_ROLE"}`,
		"✓ Oplog store store-1 created\n", "store-1\tbucket\t\tIAM_ROLE\t10\t\t\n"},
	{rules.SnapshotStore, api.CreateSnapshotStore, "POST", snapshotPath, "", `{"id":"store-1","s3BucketName":"bucket","s3MaxConnections":10,"s3AuthMethod":"IAM_ROLE","loadFactor":1}`,
		"✓ Snapshot store store-1 created\n", "store-1\tbucket\t\tIAM_ROLE\t10\t\t\t1\n"},
	{rules.OplogStore, api.PutOplogStore, "PUT", oplogPath + "/store-1", "store-1", `{"id":"store-1","s3BucketName":"bucket","s3MaxConnections":10}`,
		"✓ Oplog store store-1 updated\n", "store-1\tbucket\t\tKEYS\t10\t\t\n"},
	// An update's confirmation names the store addressed, even if the answer does not.
	{rules.SnapshotStore, api.PutSnapshotStore, "PUT", snapshotPath + "/store-1", "store-1", `{"s3BucketName":"bucket","loadFactor":3}`,
		"✓ Snapshot store store-1 updated\n", "\tbucket\t\tKEYS\t\t\t\t3\n"},
}

func basePathOf(k rules.StoreKind) string {
	if k == rules.SnapshotStore {
		return snapshotPath
	}
	return oplogPath
}

func TestWriteSendsTheStoreAndConfirms(t *testing.T) {
	for _, tc := range writeCases {
		for _, format := range []struct {
			name string
			tty  bool
			want string
		}{
			{"table", true, tc.wantTTY},
			{"table", false, tc.wantPipe},
			{"json", false, tc.answer + "\n"},
		} {
			srv := stubapi.New(t)
			srv.Reply(tc.method, tc.path, 200, tc.answer)
			ios, _, out, errOut := iostreams.Test()
			ios.SetStdoutTTY(format.tty)
			ios.SetNoColor(true)
			flags := validFlags()
			if tc.endpoint.Method == "PUT" {
				flags.Store.ID = ""
			}
			err := Write(context.Background(), &WriteOptions{Deps: srv.Deps(ios, format.name, ""), Replace: true, Store: flags, StoreID: tc.storeID},
				tc.endpoint, tc.kind)
			if err != nil {
				t.Fatalf("%s %s: %v", tc.method, tc.path, err)
			}
			r := srv.Only()
			body := r.JSON(t)
			want := valid()
			if tc.endpoint.Method == "PUT" {
				delete(want, "id")
			}
			if r.Method != tc.method || r.Path != "/api/public/v1.0"+tc.path || len(r.Query) != 0 || len(body) != len(want) ||
				r.Header.Get("Content-Type") != "application/json" {
				t.Errorf("%s %s: sent %s %s?%s %v", tc.method, tc.path, r.Method, r.Path, r.Query.Encode(), body)
			}
			for k, v := range want {
				if body[k] != v {
					t.Errorf("%s %s: body[%s] = %v, want %v", tc.method, tc.path, k, body[k], v)
				}
			}
			if out.String() != format.want || errOut.Len() != 0 {
				t.Errorf("%s %s -o %s (tty %v): output %q, stderr %q; want %q", tc.method, tc.path, format.name, format.tty, out.String(), errOut.String(), format.want)
			}
		}
	}
}

func TestWriteYAMLIsTheAnswer(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("PUT", snapshotPath+"/store-1", 200, `{"id":"store-1","labels":["a"],"loadFactor":2,"sseEnabled":true}`)
	ios, _, out, _ := iostreams.Test()
	flags := validFlags()
	flags.Store.LoadFactor = ptr(int64(2))
	err := Write(context.Background(), &WriteOptions{Deps: srv.Deps(ios, "yaml", ""), Replace: true, Store: flags, StoreID: "store-1"},
		api.PutSnapshotStore, rules.SnapshotStore)
	if want := "id: store-1\nlabels:\n  - a\nloadFactor: 2\nsseEnabled: true\n"; err != nil || out.String() != want {
		t.Errorf("err = %v, output %q, want %q", err, out.String(), want)
	}
	if body := srv.Only().JSON(t); body["loadFactor"] != 2.0 || body["id"] != "store-1" {
		t.Errorf("body = %v", body)
	}
}

func TestWriteUpdateRefusesAnotherStoresID(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	flags := validFlags() // names store-1
	err := Write(context.Background(), &WriteOptions{Deps: srv.Deps(ios, "json", ""), Replace: true, Store: flags, StoreID: "store-2"},
		api.PutOplogStore, rules.OplogStore)
	if !isUsageError(err) || !strings.Contains(err.Error(), `the file's id "store-1" differs from STORE_ID "store-2"`) {
		t.Errorf("err = %v", err)
	}
	err = Write(context.Background(), &WriteOptions{Deps: srv.Deps(ios, "json", ""), Replace: true, Store: flags},
		api.PutOplogStore, rules.OplogStore)
	if !isUsageError(err) || !strings.Contains(err.Error(), "STORE_ID must not be empty") {
		t.Errorf("empty STORE_ID: err = %v", err)
	}
}

func TestWriteFailsBeforeSending(t *testing.T) {
	boom := errors.New("no client")
	for _, tc := range []struct {
		name   string
		change func(*Flags)
		format string
		client func() (*client.Client, error)
		want   string
		code   int
	}{
		{"invalid store", func(f *Flags) { f.Store.URI = "" }, "json", nil, "missing required store field(s): uri", cmdutil.ExitUsage},
		{"bad output format", func(*Flags) {}, "xml", nil, "invalid output format", cmdutil.ExitUsage},
		{"no client", func(*Flags) {}, "json", func() (*client.Client, error) { return nil, boom }, "no client", cmdutil.ExitError},
	} {
		ios, _, out, _ := iostreams.Test()
		flags := validFlags()
		tc.change(&flags)
		err := Write(context.Background(), &WriteOptions{Deps: cmdutil.Deps{IO: ios, Printer: stubapi.Printer(ios, tc.format, ""), Client: tc.client}, Replace: true, Store: flags},
			api.CreateOplogStore, rules.OplogStore)
		if err == nil || !strings.Contains(err.Error(), tc.want) || cmdutil.ExitCode(err) != tc.code || out.Len() != 0 {
			t.Errorf("%s: err = %v (exit %d), want %q (exit %d)", tc.name, err, cmdutil.ExitCode(err), tc.want, tc.code)
		}
	}
}

func TestWriteServerErrors(t *testing.T) {
	for _, tc := range []struct {
		endpoint api.Endpoint
		status   int
		body     string
		code     int
		want     string
	}{
		{api.CreateOplogStore, 409, `{"detail":"An oplog store with ID store-1 already exists.","error":409,"errorCode":"DUPLICATE_STORE_ID","reason":"Conflict"}`, cmdutil.ExitError, "DUPLICATE_STORE_ID"},
		{api.CreateOplogStore, 400, `{"detail":"Invalid attribute s3BucketEndpoint.","error":400,"errorCode":"INVALID_ATTRIBUTE","reason":"Bad Request"}`, cmdutil.ExitError, "INVALID_ATTRIBUTE"},
		{api.PutOplogStore, 404, `{"detail":"No oplog store with ID store-1 exists.","error":404,"errorCode":"STORE_NOT_FOUND","reason":"Not Found"}`, cmdutil.ExitNotFound, "STORE_NOT_FOUND"},
		{api.PutOplogStore, 401, `{"detail":"You are not authorized for this resource.","error":401,"reason":"Unauthorized"}`, cmdutil.ExitAuth, "401"},
		{api.PutOplogStore, 403, `{"detail":"Forbidden.","error":403,"errorCode":"USER_CANNOT_ACCESS_ORGANIZATION","reason":"Forbidden"}`, cmdutil.ExitAuth, "USER_CANNOT_ACCESS_ORGANIZATION"},
		{api.PutOplogStore, 503, `{"detail":"down","error":503,"reason":"Service Unavailable"}`, cmdutil.ExitError, "503"},
	} {
		srv := stubapi.New(t)
		method, path, storeID := "POST", oplogPath, ""
		flags := validFlags()
		if tc.endpoint.Method == "PUT" {
			method, path, storeID = "PUT", oplogPath+"/store-1", "store-1"
		}
		srv.Reply(method, path, tc.status, tc.body)
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(true)
		err := Write(context.Background(), &WriteOptions{Deps: srv.Deps(ios, "table", ""), Replace: true, Store: flags, StoreID: storeID},
			tc.endpoint, rules.OplogStore)
		var apiErr *client.APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != tc.status || cmdutil.ExitCode(err) != tc.code || !strings.Contains(err.Error(), tc.want) || out.Len() != 0 {
			t.Errorf("%s %d: err = %v (exit %d), output %q; want exit %d and %q", method, tc.status, err, cmdutil.ExitCode(err), out.String(), tc.code, tc.want)
		}
	}
}

func TestWriteAnswerThatIsNotAStore(t *testing.T) {
	for kind, e := range map[rules.StoreKind]api.Endpoint{rules.OplogStore: api.CreateOplogStore, rules.SnapshotStore: api.CreateSnapshotStore} {
		srv := stubapi.New(t)
		srv.Reply("POST", basePathOf(kind), 200, `"created"`)
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(true)
		err := Write(context.Background(), &WriteOptions{Deps: srv.Deps(ios, "table", ""), Store: validFlags()},
			e, kind)
		want := map[rules.StoreKind]string{rules.OplogStore: "the server's answer is not an oplog store", rules.SnapshotStore: "the server's answer is not a snapshot store"}[kind]
		if err == nil || err.Error() != want || out.Len() != 0 {
			t.Errorf("kind %d: err = %v, output %q", kind, err, out.String())
		}
	}
}

func TestWriteUnwrapsAnEnvelope(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("POST", oplogPath, 200, `{"status":200,"content":{"id":"store-1"}}`)
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	err := Write(context.Background(), &WriteOptions{Deps: cmdutil.Deps{IO: ios, Printer: stubapi.Printer(ios, "table", ""), Client: srv.Client(func(o *client.Options) { o.Envelope = true })}, Store: validFlags()}, api.CreateOplogStore, rules.OplogStore)
	// On a colour terminal the mark is green.
	if err != nil || out.String() != "\x1b[32m✓\x1b[0m Oplog store store-1 created\n" {
		t.Errorf("err = %v, output %q", err, out.String())
	}
	if r := srv.Only(); r.Query.Get("envelope") != "true" {
		t.Errorf("query = %v", r.Query)
	}
}

func TestWriteUpdateEscapesTheStoreID(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("PUT", oplogPath+"/a/b", 200, `{"id":"a/b"}`)
	ios, _, _, _ := iostreams.Test()
	flags := validFlags()
	flags.Store.ID = ""
	err := Write(context.Background(), &WriteOptions{Deps: srv.Deps(ios, "json", ""), Replace: true, Store: flags, StoreID: "a/b"},
		api.PutOplogStore, rules.OplogStore)
	if err != nil {
		t.Error(err)
	}
}

// storeAsRead is an oplog store as GET shows it, with fields no flag of
// the update below names.
const storeAsRead = `{"id":"store-1","acceptedTos":true,"assignmentEnabled":true,"cloudAccessKey":"AKIA1","cloudSecretKey":"secret-1",` +
	`"labels":["us"],"pathStyleAccessEnabled":false,"s3BucketEndpoint":"https://s3.example.com","s3BucketName":"bucket",` +
	`"s3MaxConnections":50,"sseEnabled":true,"uri":"mongodb://meta:27017","writeConcern":"MAJORITY","links":[{"href":"x","rel":"self"}]}`

func TestWriteUpdateFromFlagsChangesOnlyWhatTheyName(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", oplogPath+"/store-1", 200, storeAsRead)
	srv.Reply("PUT", oplogPath+"/store-1", 200, strings.Replace(storeAsRead, `"s3MaxConnections":50`, `"s3MaxConnections":80`, 1))
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetNoColor(true)
	var flags Flags
	flags.Store.S3MaxConnections = ptr(int64(80))
	if err := Write(context.Background(), &WriteOptions{Deps: srv.Deps(ios, "table", ""), Store: flags, StoreID: "store-1"}, api.PutOplogStore, rules.OplogStore); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Method != "GET" {
		t.Fatalf("requests %v", reqs)
	}
	want := `{"acceptedTos":true,"assignmentEnabled":true,"cloudAccessKey":"AKIA1","cloudSecretKey":"secret-1","id":"store-1","labels":["us"],` +
		`"pathStyleAccessEnabled":false,"s3BucketEndpoint":"https://s3.example.com","s3BucketName":"bucket","s3MaxConnections":80,` +
		`"sseEnabled":true,"uri":"mongodb://meta:27017","writeConcern":"MAJORITY"}`
	if string(reqs[1].Body) != want {
		t.Errorf("PUT body\n%s\nwant\n%s", reqs[1].Body, want)
	}
	if want := "✓ Oplog store store-1 updated: changed s3MaxConnections\n"; out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}
}

func TestWriteUpdateFromFlagsNeverSendsARedactedKey(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", oplogPath+"/store-1", 200, strings.Replace(storeAsRead, `"secret-1"`, `"************"`, 1))
	ios, _, _, _ := iostreams.Test()
	var flags Flags
	flags.Store.Labels = []string{"eu"}
	err := Write(context.Background(), &WriteOptions{Deps: srv.Deps(ios, "table", ""), Store: flags, StoreID: "store-1"}, api.PutOplogStore, rules.OplogStore)
	if !isUsageError(err) || !strings.Contains(err.Error(), "cloudSecretKey only redacted") || !strings.Contains(err.Error(), "give --secret-key") {
		t.Errorf("err = %v", err)
	}
	if r := srv.Only(); r.Method != "GET" {
		t.Errorf("sent %s", r.Method)
	}
}

func TestWriteDryRunSendsNothingAndMasksTheKey(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", oplogPath+"/store-1", 200, storeAsRead)
	ios, _, out, _ := iostreams.Test()
	var flags Flags
	t.Setenv("STORE_SECRET", "secret-2")
	flags.Store.CloudSecretKey = "${env:STORE_SECRET}"
	err := Write(context.Background(), &WriteOptions{Deps: srv.Deps(ios, "table", ""), Store: flags, StoreID: "store-1", DryRun: true}, api.PutOplogStore, rules.OplogStore)
	if err != nil {
		t.Fatal(err)
	}
	if r := srv.Only(); r.Method != "GET" {
		t.Errorf("sent %s", r.Method)
	}
	got := out.String()
	for _, want := range []string{"PUT " + "/admin/backup/oplog/s3Configs/store-1", `-  "cloudSecretKey": "********",`, `+  "cloudSecretKey": "******** (changed)",`} {
		if !strings.Contains(got, want) {
			t.Errorf("preview has no %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "secret-1") || strings.Contains(got, "secret-2") {
		t.Errorf("preview shows a secret:\n%s", got)
	}
}

// An update from flags checks their values before it reads the store.
func TestWriteUpdateFromFlagsChecksValuesBeforeReading(t *testing.T) {
	for _, tc := range []struct {
		flags func(*Flags)
		want  string
	}{
		{func(f *Flags) { f.Store.S3MaxConnections = ptr(int64(0)) }, "s3MaxConnections must be a positive integer (--max-connections)"},
		{func(f *Flags) { f.Store.AcceptedTos = ptr(false) }, "acceptedTos must be true"},
		{func(f *Flags) { f.Store.WriteConcern = "SOME" }, `invalid writeConcern "SOME"`},
		{func(f *Flags) {}, "nothing to change"},
	} {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		var flags Flags
		tc.flags(&flags)
		err := Write(context.Background(), &WriteOptions{Deps: srv.Deps(ios, "table", ""), Store: flags, StoreID: "store-1"}, api.PutOplogStore, rules.OplogStore)
		if !isUsageError(err) || !strings.Contains(err.Error(), tc.want) || len(srv.Requests()) != 0 {
			t.Errorf("want %q: err = %v, %d requests", tc.want, err, len(srv.Requests()))
		}
	}
}

// The secret key is never taken on the command line: - reads it from
// standard input, a reference from the environment; anything else is
// refused before a request.
func TestWriteSecretKeyNeverFromTheCommandLine(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	var flags Flags
	flags.Store.CloudSecretKey = "literal-secret"
	err := Write(context.Background(), &WriteOptions{Deps: srv.Deps(ios, "table", ""), Store: flags, StoreID: "store-1"}, api.PutOplogStore, rules.OplogStore)
	if !isUsageError(err) || !strings.Contains(err.Error(), "--secret-key takes no key on the command line") || strings.Contains(err.Error(), "literal-secret") || len(srv.Requests()) != 0 {
		t.Errorf("a key as argument: %v, %d requests", err, len(srv.Requests()))
	}
	flags.Store.CloudSecretKey = "${env:OMCTL_TEST_UNSET_SECRET}"
	err = Write(context.Background(), &WriteOptions{Deps: srv.Deps(ios, "table", ""), Store: flags, StoreID: "store-1"}, api.PutOplogStore, rules.OplogStore)
	if !isUsageError(err) || !strings.Contains(err.Error(), "OMCTL_TEST_UNSET_SECRET is not set") || len(srv.Requests()) != 0 {
		t.Errorf("an unset variable: %v", err)
	}

	srv.Reply("GET", oplogPath+"/store-1", 200, storeAsRead)
	srv.Reply("PUT", oplogPath+"/store-1", 200, storeAsRead)
	ios, stdin, _, _ := iostreams.Test()
	stdin.WriteString("piped-secret\n")
	flags.Store.CloudSecretKey = "-"
	if err := Write(context.Background(), &WriteOptions{Deps: srv.Deps(ios, "json", ""), Store: flags, StoreID: "store-1"}, api.PutOplogStore, rules.OplogStore); err != nil {
		t.Fatal(err)
	}
	if body := srv.Requests()[1].JSON(t); body["cloudSecretKey"] != "piped-secret" {
		t.Errorf("PUT body %v", body)
	}
}
