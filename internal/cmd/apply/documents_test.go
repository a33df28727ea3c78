package apply

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
)

func TestReadDocumentsNamesFileDocumentAndField(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"kind: OplogStore\nid: a\n---\nkind: Nope\n", `#2: unknown kind "Nope": valid kinds are OplogStore, SnapshotStore, BackupJobsConfig, AlertConfig, GlobalAlertConfig, BackupConfig, AccessList`},
		{"id: a\n", "#1: field kind is missing"},
		{"kind: OplogStore\nid: a\nbucket: b\n", "#1 (OplogStore): unknown field bucket: valid fields are acceptedTos"},
		{"kind: OplogStore\nid: a\ns3MaxConnections: 1.5\n", "field s3MaxConnections must be a whole number, not the number 1.5"},
		{"kind: OplogStore\nid: a\nlabels: [a, 2]\n", "field labels[1] must be a string, not the number 2"},
		{"kind: OplogStore\ns3BucketName: a\n", "field id is missing: it names the store's name"},
		{"kind: AlertConfig\neventTypeName: HOST_DOWN\nnotifications: [{typeName: EMAIL, delay: 5}]\n", "unknown field notifications[0].delay"},
		{"kind: AlertConfig\neventTypeName: HOST_DOWN\n", "field name or id is missing"},
		{"kind: AlertConfig\nname: a\ntags: [omctl:name=b]\n", `field tags[0] "omctl:name=b": tags starting with omctl:name= are apply's own`},
		{"kind: BackupConfig\nclusterId: short\n", "clusterId"},
		{"kind: AccessList\napiKeyId: 5f4d0c2e8f9d4b0012340005\nresults: [{ipAddress: 300.1.1.1}]\n", `field results[0]: ipAddress "300.1.1.1" is not an IP address`},
		{"- a list\n", "#1: a document must be a mapping of fields, with a kind"},
		{"kind: [unclosed\n", "#1: not YAML or JSON"},
		{`{"kind": "OplogStore", "id": "a"} {"kind": "OplogStore", "id": 1}`, `#2 (OplogStore): field id must be a string, not the number 1`},
		{`[{"kind": "OplogStore", "id": "a"}, {"kind"`, `#1: not JSON: the file ends inside a value`},
	} {
		path := write(t, "docs.yaml", tt.text)
		ios, _, _, _ := iostreams.Test()
		_, err := ReadDocuments(ios, []string{path})
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) || cmdutil.ExitCode(err) != 1 {
			t.Errorf("%q: %v, want a refusal (exit 1) naming %s and %q", tt.text, err, path, tt.want)
		}
	}
}

func TestReadDocumentsTakesAGetAnswerAndJSON(t *testing.T) {
	dir := t.TempDir()
	// The answer of GET /admin/backup/oplog/s3Configs/{id}, with a kind.
	answer := `{"kind": "OplogStore", "id": "o1", "links": [{"rel": "self", "href": "https://x/o1"}], "s3MaxConnections": 5}
{"kind": "SnapshotStore", "id": "s1", "loadFactor": 2}`
	_ = os.WriteFile(filepath.Join(dir, "b.json"), []byte(answer), 0o600)
	_ = os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("kind: BackupJobsConfig\nlabelFilter: [x]\n---\n"), 0o600)
	_ = os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a document"), 0o600)
	ios, _, _, _ := iostreams.Test()
	docs, err := ReadDocuments(ios, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		got = append(got, d.Source+" "+d.Kind.Name)
	}
	want := []string{filepath.Join(dir, "a.yaml") + "#1 BackupJobsConfig", filepath.Join(dir, "b.json") + "#1 OplogStore", filepath.Join(dir, "b.json") + "#2 SnapshotStore"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if docs[1].Fields["s3MaxConnections"] != float64(5) {
		t.Errorf("numbers should read as JSON's: %#v", docs[1].Fields)
	}
}

// Every wrong value is named by its path and described as the user wrote it.
func TestReadDocumentsValidationMessages(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"kind: OplogStore\nid: a\nssl: 'yes'\n", `field ssl must be true or false, not the string "yes"`},
		{"kind: OplogStore\nid: a\ns3BucketName: true\n", "field s3BucketName must be a string, not true"},
		{"kind: OplogStore\nid: a\nlabels: x\n", `field labels must be a list of strings, not the string "x"`},
		{"kind: OplogStore\nid: a\ns3MaxConnections: [1]\n", "field s3MaxConnections must be a whole number, not a list"},
		{"kind: OplogStore\nid: a\nuri: {a: 1}\n", "field uri must be a string, not a mapping"},
		{"kind: OplogStore\nid: a\ncustomCertificates: {filename: f}\n", "field customCertificates must be a list of mappings, not a mapping"},
		{"kind: OplogStore\nid: a\ncustomCertificates: [f]\n", `field customCertificates[0] must be a mapping, not the string "f"`},
		{"kind: OplogStore\nid: a\nlabels: [null]\n", "field labels[0] must be a string, not null"},
		{"kind: AlertConfig\nname: a\nthreshold: 5\n", "field threshold must be a mapping, not the number 5"},
		{"kind: AlertConfig\nname: a\nthreshold: {threshold: high}\n", `field threshold.threshold must be a number, not the string "high"`},
		{"kind: AlertConfig\nname: a\nthreshold: {limit: 1}\n", "unknown field threshold.limit: valid fields are operator, threshold, units"},
		{"kind: AlertConfig\nid: nope\n", "id"},
		{"kind: AlertConfig\nname: a\ngroupId: short\n", "groupId"},
		{"kind: AlertConfig\nid: 5f2a0c2e8f9d4b0000000001\ntags: [omctl:name=a]\n", `field tags[0] "omctl:name=a": tags starting with omctl:name= are apply's own`},
		{"kind: GlobalAlertConfig\nid: g\n", "id"},
		{"kind: GlobalAlertConfig\nenabled: true\n", "field id is missing: it names the configuration's id"},
		{"kind: GlobalAlertConfig\nid: 5f2b0c2e8f9d4b0012340001\nname: a\n", "unknown field name"},
		{"kind: BackupJobsConfig\nid: short\n", "id"},
		{"kind: BackupConfig\nsslEnabled: true\n", "field clusterId is missing: it names the cluster's id"},
		{"kind: BackupConfig\nclusterId: 5e3c0c2e8f9d4b0012340001\ngroupId: short\n", "groupId"},
		{"kind: AccessList\nresults: []\n", "field apiKeyId is missing: it names the API key whose access list this is"},
		{"kind: AccessList\napiKeyId: short\n", "apiKeyId"},
		{"kind: AccessList\napiKeyId: 5f4d0c2e8f9d4b0012340005\norgId: short\n", "orgId"},
		{"kind: AccessList\napiKeyId: 5f4d0c2e8f9d4b0012340005\nresults: [{cidrBlock: 10.0.0.0/33}]\n", `field results[0]: cidrBlock "10.0.0.0/33" is not a CIDR block such as 10.0.0.0/16`},
		{"kind: AccessList\napiKeyId: 5f4d0c2e8f9d4b0012340005\nresults: [{ipAddress: 10.0.0.1}, {count: 2}]\n", "field results[1]: an entry needs ipAddress or cidrBlock"},
		{"kind: AccessList\napiKeyId: 5f4d0c2e8f9d4b0012340005\nresults: [{ipAddress: 'fe80::1%eth0'}]\n", `ipAddress "fe80::1%eth0" is not an IP address`},
		{"kind: OplogStore\nid: a\n1: b\n", "unknown field 1"},
		{"{\"kind\": \"OplogStore\", \"id\": \"a\"} x", "#2: not JSON"},
	} {
		path := write(t, "docs.yaml", tt.text)
		ios, _, _, _ := iostreams.Test()
		_, err := ReadDocuments(ios, []string{path})
		if err == nil || !strings.Contains(err.Error(), tt.want) || cmdutil.ExitCode(err) != 1 {
			t.Errorf("%q: %v, want a refusal (exit 1) with %q", tt.text, err, tt.want)
		}
	}
}

// A YAML mistake is reported at the line of the file it is on, counted
// from 1, whether the YAML library's scanner or its parser finds it (the
// parser's lines it counts from 0, and its first line not at all).
func TestYAMLMistakesAreReportedAtTheirLine(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"kind: OplogStore\nid: [x\n", "#1: not YAML or JSON: line 2: did not find expected ',' or ']'"},
		{"kind: OplogStore\nid: x\n---\nkind: OplogStore\nid: {a: 1\n", "#2: not YAML or JSON: line 5: did not find expected ',' or '}'"},
		{"kind: OplogStore\n  id: x\n", "#1: not YAML or JSON: line 2: mapping values are not allowed in this context"},
		{"kind: OplogStore\nid: x\nid: y\n", `#1: line 3: mapping key "id" already defined at line 2`},
	} {
		path := write(t, "docs.yaml", tt.text)
		ios, _, _, _ := iostreams.Test()
		_, err := ReadDocuments(ios, []string{path})
		if err == nil || !strings.Contains(err.Error(), path+tt.want) {
			t.Errorf("%q: %v, want %q", tt.text, err, tt.want)
		}
	}
}

func TestReadDocumentsReportsEveryInvalidDocument(t *testing.T) {
	path := write(t, "docs.yaml", "kind: OplogStore\n---\nkind: OplogStore\nid: ok\n---\nkind: Nope\n")
	ios, _, _, _ := iostreams.Test()
	_, err := ReadDocuments(ios, []string{path})
	if err == nil || !strings.Contains(err.Error(), path+"#1 (OplogStore): field id is missing") || !strings.Contains(err.Error(), path+`#3: unknown kind "Nope"`) {
		t.Fatalf("%v", err)
	}
}

func TestReadDocumentsRefusesWhatIsNotThere(t *testing.T) {
	empty := t.TempDir()
	for _, tt := range []struct {
		files []string
		want  string
	}{
		{nil, "no documents: give -f FILE, -f DIR or -f - (standard input)"},
		{[]string{empty + "/missing.yaml"}, "cannot read -f " + empty + "/missing.yaml"},
		{[]string{empty}, "-f " + empty + ": the directory holds no .yaml, .yml or .json file"},
		{[]string{write(t, "e.yaml", "---\n---\n")}, "no documents in "},
	} {
		ios, _, _, _ := iostreams.Test()
		_, err := ReadDocuments(ios, tt.files)
		if err == nil || !strings.Contains(err.Error(), tt.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%v: %v, want a usage error with %q", tt.files, err, tt.want)
		}
	}
}

func TestReadDocumentsNamesStandardInput(t *testing.T) {
	ios, in, _, _ := iostreams.Test()
	in.WriteString("kind: OplogStore\n")
	_, err := ReadDocuments(ios, []string{"-"})
	if err == nil || !strings.Contains(err.Error(), "<stdin>#1 (OplogStore): field id is missing") {
		t.Fatalf("%v", err)
	}
}

// Each document says the line it begins on, and so does each problem.
func TestReadDocumentsTellTheLineEachDocumentBeginsOn(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		lines      []int
	}{
		{"a.yaml", "# stores\nkind: OplogStore\nid: a\n---\n\n---\n# the second\n\nkind: OplogStore\nid: b\n", []int{2, 9}},
		{"b.json", "{\"kind\": \"OplogStore\", \"id\": \"a\"}\n\n  {\"kind\": \"OplogStore\",\n \"id\": \"b\"}", []int{1, 3}},
		{"c.json", "\n[\n  {\"kind\": \"OplogStore\", \"id\": \"a\"},\n\n  {\"kind\": \"OplogStore\", \"id\": \"b\"}, {\"kind\": \"OplogStore\", \"id\": \"c\"}\n]\n{\"kind\": \"OplogStore\", \"id\": \"d\"}", []int{3, 5, 5, 7}},
	} {
		ios, _, _, _ := iostreams.Test()
		docs, err := ReadDocuments(ios, []string{write(t, tt.name, tt.text)})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var lines []int
		for _, d := range docs {
			lines = append(lines, d.Line)
		}
		if !reflect.DeepEqual(lines, tt.lines) {
			t.Errorf("%s: lines %v, want %v", tt.name, lines, tt.lines)
		}
	}
	path := write(t, "bad.json", "[{\"kind\": \"OplogStore\", \"id\": \"a\"},\n {\"kind\": \"OplogStore\", \"id\": 1}]")
	ios, _, _, _ := iostreams.Test()
	_, err := ReadDocuments(ios, []string{path})
	var invalid *DocumentsError
	if !errors.As(err, &invalid) || len(invalid.Problems) != 1 ||
		invalid.Problems[0] != path+"#2 (OplogStore): field id must be a string, not the number 1 (document at line 2)" {
		t.Errorf("%#v", err)
	}
}
