package s3store

import (
	"encoding/json"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/output"
	"github.com/omctl/omctl/internal/rules"
)

func ptr[T any](v T) *T { return &v }

// valid is a store body that every kind and operation accepts.
func valid() map[string]any {
	return map[string]any{"id": "store-1", "acceptedTos": true, "pathStyleAccessEnabled": false, "s3BucketEndpoint": "https://s3.example.com",
		"s3BucketName": "bucket", "s3MaxConnections": 10.0, "sseEnabled": true, "uri": "mongodb://meta:27017", "s3AuthMethod": "IAM_ROLE"}
}

// validFlags is valid() given as flags.
func validFlags() Flags {
	var f Flags
	s := &f.Store
	s.ID, s.AcceptedTos, s.PathStyleAccessEnabled = "store-1", ptr(true), ptr(false)
	s.S3BucketEndpoint, s.S3BucketName, s.S3MaxConnections = "https://s3.example.com", "bucket", ptr(int64(10))
	s.SSEEnabled, s.URI, s.S3AuthMethod = ptr(true), "mongodb://meta:27017", "IAM_ROLE"
	return f
}

func isUsageError(err error) bool {
	var fe *cmdutil.FlagError
	return errors.As(err, &fe) && cmdutil.ExitCode(err) == cmdutil.ExitUsage
}

func TestAddFlagsParsesEveryField(t *testing.T) {
	var f Flags
	cmd := &cobra.Command{Use: "create", RunE: func(*cobra.Command, []string) error { return nil }}
	AddFlags(cmd, rules.SnapshotStore, rules.Create, &f)
	cmd.SetArgs([]string{"--file", "s.json", "--id", "b1", "--accepted-tos", "--assignment-enabled=false",
		"--access-key", "AK", "--secret-key", "SK", "--auth-method", "KEYS", "--custom-cert", "a.pem", "--custom-cert", "b.pem",
		"--disable-proxy-s3", "--encrypted-credentials=false", "--label", "l1", "--label", "l2", "--load-factor", "3",
		"--path-style-access=false", "--bucket-endpoint", "https://e", "--bucket-name", "bn", "--max-connections", "20",
		"--region-override", "eu-west-1", "--sse", "--ssl=true", "--uri", "mongodb://m", "--write-concern", "W2"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	s := f.Store
	if f.File != "s.json" || s.ID != "b1" || !*s.AcceptedTos || *s.AssignmentEnabled || s.CloudAccessKey != "AK" || s.CloudSecretKey != "SK" ||
		s.S3AuthMethod != "KEYS" || strings.Join(f.CertFiles, ",") != "a.pem,b.pem" || !*s.DisableProxyS3 || *s.EncryptedCredentials ||
		strings.Join(s.Labels, ",") != "l1,l2" || *s.LoadFactor != 3 || *s.PathStyleAccessEnabled || s.S3BucketEndpoint != "https://e" ||
		s.S3BucketName != "bn" || *s.S3MaxConnections != 20 || s.S3RegionOverride != "eu-west-1" || !*s.SSEEnabled || !*s.SSL ||
		s.URI != "mongodb://m" || s.WriteConcern != "W2" {
		t.Errorf("flags = %+v, store = %+v", f, s)
	}
}

func TestAddFlagsLeavesUnsetFieldsOut(t *testing.T) {
	var f Flags
	cmd := &cobra.Command{Use: "create", RunE: func(*cobra.Command, []string) error { return nil }}
	AddFlags(cmd, rules.OplogStore, rules.Create, &f)
	cmd.SetArgs([]string{"-f", "-"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	s := f.Store
	if f.File != "-" || s.AcceptedTos != nil || s.SSEEnabled != nil || s.S3MaxConnections != nil || s.LoadFactor != nil || s.Labels != nil || f.CertFiles != nil {
		t.Errorf("unset flags gave values: %+v", f)
	}
}

func TestAddFlagsByKindAndOp(t *testing.T) {
	for _, tc := range []struct {
		kind                   rules.StoreKind
		op                     rules.StoreOp
		hasID, hasLoadFactor   bool
		maxConnectionsOptional bool
	}{
		{rules.OplogStore, rules.Create, true, false, false},
		{rules.OplogStore, rules.Replace, false, false, false},
		{rules.SnapshotStore, rules.Create, true, true, true},
		{rules.SnapshotStore, rules.Replace, false, true, false},
	} {
		var f Flags
		cmd := &cobra.Command{Use: "x"}
		AddFlags(cmd, tc.kind, tc.op, &f)
		fs := cmd.Flags()
		if (fs.Lookup("id") != nil) != tc.hasID || (fs.Lookup("load-factor") != nil) != tc.hasLoadFactor {
			t.Errorf("kind %d op %d: --id %v, --load-factor %v", tc.kind, tc.op, fs.Lookup("id") != nil, fs.Lookup("load-factor") != nil)
		}
		usage := fs.Lookup("max-connections").Usage
		if strings.Contains(usage, "(required)") == tc.maxConnectionsOptional || strings.Contains(usage, "default: 50") != tc.maxConnectionsOptional {
			t.Errorf("kind %d op %d: --max-connections usage %q", tc.kind, tc.op, usage)
		}
		if fs.Lookup("file").Shorthand != "f" || fs.Lookup("sse").NoOptDefVal != "true" {
			t.Errorf("kind %d op %d: --file or --sse defined wrongly", tc.kind, tc.op)
		}
	}
}

func TestAddFlagsRejectsBadValues(t *testing.T) {
	for _, args := range [][]string{
		{"--max-connections", "many"},
		{"--load-factor", "1.5"},
		{"--sse=maybe"},
	} {
		var f Flags
		cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
		cmd.SetOut(&strings.Builder{})
		cmd.SetErr(&strings.Builder{})
		AddFlags(cmd, rules.SnapshotStore, rules.Create, &f)
		cmd.SetArgs(args)
		if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), "invalid argument") {
			t.Errorf("%v: err = %v", args, err)
		}
	}
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func certPEM() string {
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("not parsed, only framed")}))
}

func TestBodyMergesFileAndFlags(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	file := writeFile(t, "store.json", `{"id":"store-1","acceptedTos":true,"pathStyleAccessEnabled":true,"s3BucketEndpoint":"https://file",
		"s3BucketName":"from-file","s3MaxConnections":5,"sseEnabled":false,"uri":"mongodb://file","s3AuthMethod":"IAM_ROLE","futureField":{"x":1}}`)
	ca := writeFile(t, "ca.pem", certPEM())
	f := Flags{File: file, CertFiles: []string{ca}}
	f.Store.S3BucketName, f.Store.S3MaxConnections, f.Store.Labels = "from-flag", ptr(int64(7)), []string{"a"}
	body, err := f.Body(ios, rules.OplogStore, rules.Create)
	if err != nil {
		t.Fatal(err)
	}
	certs, _ := body["customCertificates"].([]any)
	cert, _ := certs[0].(map[string]any)
	if body["s3BucketName"] != "from-flag" || body["s3MaxConnections"] != 7.0 || body["s3BucketEndpoint"] != "https://file" ||
		body["pathStyleAccessEnabled"] != true || body["futureField"] == nil || len(certs) != 1 ||
		cert["filename"] != "ca.pem" || cert["certString"] != certPEM() {
		t.Errorf("body = %v", body)
	}
	if labels, _ := body["labels"].([]any); len(labels) != 1 || labels[0] != "a" {
		t.Errorf("labels = %v", body["labels"])
	}
	// A flag that was not given does not blank the file's field.
	if body["sseEnabled"] != false || body["uri"] != "mongodb://file" {
		t.Errorf("file fields lost: %v", body)
	}
}

func TestBodyFromStandardInput(t *testing.T) {
	ios, stdin, _, _ := iostreams.Test()
	stdin.WriteString(`{"acceptedTos":true,"pathStyleAccessEnabled":true,"s3BucketEndpoint":"e","s3BucketName":"b","s3MaxConnections":1,"sseEnabled":true,"uri":"u","s3AuthMethod":"IAM_ROLE"}`)
	body, err := (&Flags{File: "-"}).Body(ios, rules.SnapshotStore, rules.Replace)
	if err != nil || body["s3BucketName"] != "b" || body["id"] != nil {
		t.Errorf("body = %v, err = %v", body, err)
	}
}

func TestBodyRefusesBadInput(t *testing.T) {
	ca := writeFile(t, "ca.pem", certPEM())
	for _, tc := range []struct {
		name  string
		flags func(t *testing.T) Flags
		want  string
	}{
		{"file is an array", func(t *testing.T) Flags { return Flags{File: writeFile(t, "s.json", `[1,2]`)} }, "a store must be a JSON object"},
		{"file is not JSON", func(t *testing.T) Flags { return Flags{File: writeFile(t, "s.json", `{"id":`)} }, "is not valid JSON"},
		{"file is missing", func(t *testing.T) Flags { return Flags{File: filepath.Join(t.TempDir(), "none.json")} }, "no such file"},
		{"cert is missing", func(t *testing.T) Flags {
			f := validFlags()
			f.CertFiles = []string{ca, filepath.Join(t.TempDir(), "none.pem")}
			return f
		}, "cannot read --custom-cert"},
		{"cert is not PEM", func(t *testing.T) Flags {
			f := validFlags()
			f.CertFiles = []string{writeFile(t, "ca.txt", "hello")}
			return f
		}, "is not a PEM certificate"},
		{"cert is a key", func(t *testing.T) Flags {
			f := validFlags()
			f.CertFiles = []string{writeFile(t, "key.pem", string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("k")})))}
			return f
		}, "is not a PEM certificate"},
		{"field of the wrong type", func(t *testing.T) Flags {
			return Flags{File: writeFile(t, "s.json", `{"id":"x","acceptedTos":true,"pathStyleAccessEnabled":true,"s3BucketEndpoint":"e","s3BucketName":"b","s3MaxConnections":"ten","sseEnabled":true,"uri":"u"}`)}
		}, "invalid store field s3MaxConnections"},
	} {
		ios, _, _, _ := iostreams.Test()
		f := tc.flags(t)
		_, err := f.Body(ios, rules.OplogStore, rules.Create)
		if !isUsageError(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want a usage error with %q", tc.name, err, tc.want)
		}
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		kind   rules.StoreKind
		op     rules.StoreOp
		change map[string]any // nil values delete
		want   string         // "" for valid
	}{
		{"valid oplog creation", rules.OplogStore, rules.Create, nil, ""},
		{"valid snapshot update", rules.SnapshotStore, rules.Replace, map[string]any{"id": nil, "loadFactor": 2.0}, ""},
		{"snapshot creation without max connections", rules.SnapshotStore, rules.Create, map[string]any{"s3MaxConnections": nil}, ""},
		{"snapshot update needs max connections", rules.SnapshotStore, rules.Replace, map[string]any{"s3MaxConnections": nil}, "missing required store field(s): s3MaxConnections (flags: --max-connections)"},
		{"oplog creation needs max connections", rules.OplogStore, rules.Create, map[string]any{"s3MaxConnections": nil}, "missing required store field(s): s3MaxConnections"},
		{"update needs no id", rules.OplogStore, rules.Replace, map[string]any{"id": nil}, ""},
		{"creation needs an id", rules.SnapshotStore, rules.Create, map[string]any{"id": ""}, "missing required store field(s): id (flags: --id)"},
		{"every missing field named", rules.OplogStore, rules.Create, map[string]any{"id": nil, "acceptedTos": nil, "pathStyleAccessEnabled": nil, "s3BucketEndpoint": nil, "s3BucketName": nil, "s3MaxConnections": nil, "sseEnabled": nil, "uri": nil},
			"missing required store field(s): id, acceptedTos, pathStyleAccessEnabled, s3BucketEndpoint, s3BucketName, s3MaxConnections, sseEnabled, uri (flags: --id, --accepted-tos, --path-style-access, --bucket-endpoint, --bucket-name, --max-connections, --sse, --uri)"},
		{"null counts as missing", rules.OplogStore, rules.Replace, map[string]any{"uri": nil, "sseEnabled": nil}, "sseEnabled, uri"},
		{"acceptedTos false first", rules.OplogStore, rules.Create, map[string]any{"acceptedTos": false, "uri": nil}, "acceptedTos must be true"},
		{"acceptedTos not a bool", rules.OplogStore, rules.Create, map[string]any{"acceptedTos": "yes"}, "invalid store field acceptedTos"},
		{"zero max connections", rules.SnapshotStore, rules.Create, map[string]any{"s3MaxConnections": 0.0}, "s3MaxConnections must be a positive integer (--max-connections)"},
		{"negative max connections", rules.OplogStore, rules.Replace, map[string]any{"s3MaxConnections": -3.0}, "s3MaxConnections must be a positive integer"},
		{"fractional max connections", rules.OplogStore, rules.Replace, map[string]any{"s3MaxConnections": 1.5}, "invalid store field s3MaxConnections"},
		{"zero load factor", rules.SnapshotStore, rules.Replace, map[string]any{"loadFactor": 0.0}, "loadFactor must be a positive integer (--load-factor)"},
		{"load factor on an oplog store", rules.OplogStore, rules.Create, map[string]any{"loadFactor": 1.0}, "loadFactor applies to snapshot stores only"},
		{"unknown auth method", rules.OplogStore, rules.Create, map[string]any{"s3AuthMethod": "TOKEN"}, `invalid s3AuthMethod "TOKEN": valid values are KEYS, IAM_ROLE`},
		{"KEYS without keys", rules.OplogStore, rules.Create, map[string]any{"s3AuthMethod": "KEYS"}, "s3AuthMethod KEYS needs the bucket's keys"},
		{"implied KEYS without keys", rules.OplogStore, rules.Create, map[string]any{"s3AuthMethod": nil}, "s3AuthMethod KEYS needs the bucket's keys"},
		{"KEYS with only an access key", rules.OplogStore, rules.Create, map[string]any{"s3AuthMethod": "KEYS", "cloudAccessKey": "AK"}, "needs the bucket's keys"},
		{"KEYS with mixed names", rules.OplogStore, rules.Create, map[string]any{"s3AuthMethod": "KEYS", "cloudAccessKey": "AK", "awsSecretKey": "SK"}, "needs the bucket's keys"},
		{"KEYS with cloud keys", rules.OplogStore, rules.Create, map[string]any{"s3AuthMethod": "KEYS", "cloudAccessKey": "AK", "cloudSecretKey": "SK"}, ""},
		{"implied KEYS with aws keys", rules.SnapshotStore, rules.Create, map[string]any{"s3AuthMethod": nil, "awsAccessKey": "AK", "awsSecretKey": "SK"}, ""},
		{"unknown write concern", rules.SnapshotStore, rules.Create, map[string]any{"writeConcern": "ALL"}, `invalid writeConcern "ALL": valid values are ACKNOWLEDGED, W2, JOURNALED, MAJORITY`},
		{"known write concern", rules.SnapshotStore, rules.Create, map[string]any{"writeConcern": "MAJORITY"}, ""},
		// The server's rules, checked before sending.
		{"labels not strings", rules.OplogStore, rules.Create, map[string]any{"labels": []any{"a", 2.0}}, "invalid store field labels: got a number, want a string"},
		{"an update's id not a string", rules.OplogStore, rules.Replace, map[string]any{"id": 5.0}, "invalid store field id: got a number, want a string"},
		{"an update's own id", rules.OplogStore, rules.Replace, map[string]any{"id": "another"}, ""},
		{"custom certificates not a list", rules.OplogStore, rules.Replace, map[string]any{"customCertificates": "x"}, "invalid store field customCertificates"},
		{"a field omctl does not know is left to the server", rules.OplogStore, rules.Create, map[string]any{"newerField": true}, ""},
	} {
		body := valid()
		for k, v := range tc.change {
			if v == nil {
				delete(body, k)
			} else {
				body[k] = v
			}
		}
		err := Validate(body, tc.kind, tc.op)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if !isUsageError(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want a usage error with %q", tc.name, err, tc.want)
		}
	}
}

func TestValidateNullValueIsMissing(t *testing.T) {
	body := valid()
	body["uri"] = nil
	if err := Validate(body, rules.OplogStore, rules.Create); err == nil || !strings.Contains(err.Error(), "missing required store field(s): uri (flags: --uri)") {
		t.Errorf("err = %v", err)
	}
}

func TestCheckStoreID(t *testing.T) {
	for _, tc := range []struct {
		body    map[string]any
		storeID string
		want    string
	}{
		{map[string]any{}, "s1", ""},
		{map[string]any{"id": "s1"}, "s1", ""},
		{map[string]any{"id": "s2"}, "s1", `the file's id "s2" differs from STORE_ID "s1": a store's name cannot be changed`},
		{map[string]any{"id": 7.0}, "7", `the file's id 7 differs from STORE_ID "7"`},
		{map[string]any{}, "", "STORE_ID must not be empty"},
	} {
		err := CheckStoreID(tc.body, tc.storeID)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%v %q: %v", tc.body, tc.storeID, err)
			}
		} else if !isUsageError(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v %q: err = %v, want %q", tc.body, tc.storeID, err, tc.want)
		}
	}
}

func row(t *testing.T, def output.TableDef, s api.S3Store) string {
	t.Helper()
	raw, _ := json.Marshal(s)
	cells, err := def.Row(raw)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(cells, "|")
}

func TestTables(t *testing.T) {
	s := api.S3Store{ID: "s1", S3BucketName: "b", S3BucketEndpoint: "https://e", S3MaxConnections: ptr(int64(9)),
		AssignmentEnabled: ptr(false), Labels: []string{"x", "y"}, LoadFactor: ptr(int64(4))}
	if got := row(t, Table, s); got != "s1|b|https://e|KEYS|9|false|x,y" {
		t.Errorf("oplog row = %q", got)
	}
	if got := row(t, SnapshotTable, s); got != "s1|b|https://e|KEYS|9|false|x,y|4" {
		t.Errorf("snapshot row = %q", got)
	}
	if got := row(t, Table, api.S3Store{ID: "s2", S3AuthMethod: "IAM_ROLE"}); got != "s2|||IAM_ROLE|||" {
		t.Errorf("sparse row = %q", got)
	}
	if h := TableFor(rules.SnapshotStore).Headers; h[len(h)-1] != "LOAD FACTOR" {
		t.Errorf("snapshot headers = %v", h)
	}
	if h := TableFor(rules.OplogStore).Headers; len(h) != 7 || h[len(h)-1] != "LABELS" {
		t.Errorf("oplog headers = %v", h)
	}
}
