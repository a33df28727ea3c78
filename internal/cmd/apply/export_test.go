package apply

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func runExport(t *testing.T, srv *stubapi.Server, kinds ...string) (string, error) {
	t.Helper()
	ios, _, out, _ := iostreams.Test()
	opts := &ExportOptions{Deps: cmdutil.Deps{IO: ios, ProjectID: stubapi.Project(project), OrgID: stubapi.Project(org), Client: srv.Client()}, Kinds: kinds}
	err := exportRun(context.Background(), opts)
	return out.String(), err
}

func TestExportEachKind(t *testing.T) {
	for _, tt := range []struct {
		name, arg, path, answer, want string
	}{
		{"oplog store, key masked", "OplogStore/o1", "/admin/backup/oplog/s3Configs/o1", store,
			"kind: OplogStore\nid: o1\nacceptedTos: true\ncloudSecretKey: '********'\npathStyleAccessEnabled: false\ns3BucketEndpoint: https://s3.example.com\ns3BucketName: b\ns3MaxConnections: 10\nsseEnabled: true\nuri: mongodb://m\n"},
		{"snapshot store", "SnapshotStore/s1", "/admin/backup/snapshot/s3Configs/s1",
			`{"id":"s1","loadFactor":2,"awsSecretKey":"","links":[]}`,
			"kind: SnapshotStore\nid: s1\nawsSecretKey: \"\"\nloadFactor: 2\n"},
		{"backup jobs config without its id", "BackupJobsConfig", "/admin/backup/groups/" + project,
			`{"id":"` + project + `","labelFilter":["a"],"links":[]}`,
			"kind: BackupJobsConfig\nlabelFilter:\n  - a\n"},
		{"backup config without its project", "BackupConfig/" + cluster, "/groups/" + project + "/backupConfigs/" + cluster,
			`{"groupId":"` + project + `","clusterId":"` + cluster + `","statusName":"STARTED","availableMembers":[]}`,
			"kind: BackupConfig\nclusterId: " + cluster + "\nstatusName: STARTED\n"},
		{"every oplog store, from the list", "OplogStore", "/admin/backup/oplog/s3Configs",
			`{"results":[{"id":"o1","ssl":true,"links":[]},{"id":"o2","assignmentEnabled":false}],"totalCount":2}`,
			"kind: OplogStore\nid: o1\nssl: true\n---\nkind: OplogStore\nid: o2\nassignmentEnabled: false\n"},
		{"every snapshot store", "SnapshotStore", "/admin/backup/snapshot/s3Configs",
			`{"results":[{"id":"s1","loadFactor":2}],"totalCount":1}`,
			"kind: SnapshotStore\nid: s1\nloadFactor: 2\n"},
		{"every backup config of the project", "BackupConfig", "/groups/" + project + "/backupConfigs",
			`{"results":[{"groupId":"` + project + `","clusterId":"` + cluster + `","statusName":"STARTED"}],"totalCount":1}`,
			"kind: BackupConfig\nclusterId: " + cluster + "\nstatusName: STARTED\n"},
		{"global alert configs, secrets as the server shows them", "GlobalAlertConfig", "/globalAlertConfigs",
			`{"results":[{"id":"5f2b0c2e8f9d4b00123400a1","enabled":true,"typeName":"HOST","notifications":[{"typeName":"WEBHOOK","webhookSecret":"******"}]},{"id":"5f2b0c2e8f9d4b00123400a2","enabled":false}],"totalCount":2}`,
			"kind: GlobalAlertConfig\nid: 5f2b0c2e8f9d4b00123400a1\nenabled: true\nnotifications:\n  - typeName: WEBHOOK\n    webhookSecret: '******'\n---\nkind: GlobalAlertConfig\nid: 5f2b0c2e8f9d4b00123400a2\nenabled: false\n"},
		{"alert configs by name or id", "AlertConfig", "/groups/" + project + "/alertConfigs",
			`{"results":[{"id":"a1","groupId":"p","eventTypeName":"HOST_DOWN","tags":["omctl:name=down","team-a"]},
			{"id":"a2","groupId":"p","eventTypeName":"HOST_UP","tags":["omctl:name=up"]},
			{"id":"5f2a0c2e8f9d4b00000000a3","groupId":"p","eventTypeName":"X","tags":["team-b"],"created":"2026-01-01T00:00:00Z"}],"totalCount":3}`,
			"kind: AlertConfig\nname: down\neventTypeName: HOST_DOWN\ntags:\n  - team-a\n---\nkind: AlertConfig\nname: up\neventTypeName: HOST_UP\n---\nkind: AlertConfig\nid: 5f2a0c2e8f9d4b00000000a3\neventTypeName: X\ntags:\n  - team-b\n"},
		{"access list entries", "AccessList/" + apiKey, "/orgs/" + org + "/apiKeys/" + apiKey + "/accessList",
			`{"results":[{"ipAddress":"10.0.0.1","cidrBlock":"10.0.0.1/32","count":1},{"cidrBlock":"10.1.0.0/16"}],"totalCount":2}`,
			"kind: AccessList\napiKeyId: " + apiKey + "\nresults:\n  - ipAddress: 10.0.0.1\n  - cidrBlock: 10.1.0.0/16\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := stubapi.New(t)
			srv.Reply("GET", tt.path, 200, tt.answer)
			out, err := runExport(t, srv, tt.arg)
			if err != nil || out != tt.want {
				t.Fatalf("%v\n%s\nwant:\n%s", err, out, tt.want)
			}
			if q := srv.Requests()[0].Query; strings.Contains(tt.arg, "Store") && !strings.Contains(tt.arg, "/") && q.Get("assignableOnly") != "false" {
				t.Errorf("a store list without every store: %v", q)
			}
			// What export writes, apply reads back.
			ios, _, _, _ := iostreams.Test()
			if _, err := ReadDocuments(ios, []string{write(t, "e.yaml", out)}); err != nil {
				t.Errorf("apply refuses what export wrote: %v", err)
			}
		})
	}
}

func TestExportSeveralKindsInOneStream(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/oplog/s3Configs/o1", 200, `{"id":"o1","ssl":true}`)
	srv.Reply("GET", "/admin/backup/groups/"+project, 200, `{"id":"`+project+`","labelFilter":[]}`)
	out, err := runExport(t, srv, "OplogStore/o1", "BackupJobsConfig")
	if want := "kind: OplogStore\nid: o1\nssl: true\n---\nkind: BackupJobsConfig\nlabelFilter: []\n"; err != nil || out != want {
		t.Fatalf("%v %q, want %q", err, out, want)
	}
}

func TestExportRoundTripsThroughApply(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/oplog/s3Configs/o1", 200, store)
	out, err := runExport(t, srv, "OplogStore/o1")
	if err != nil {
		t.Fatal(err)
	}
	// Applying the export changes nothing: only the GET is registered.
	srv2 := stubapi.New(t)
	srv2.Reply("GET", "/admin/backup/oplog/s3Configs/o1", 200, store)
	got, _, err := runApply(t, srv2, out, false)
	if err != nil || !strings.HasPrefix(got, "unchanged OplogStore o1\n") {
		t.Fatalf("%v %q", err, got)
	}
}

func TestExportFailsOnAServerError(t *testing.T) {
	for _, tt := range []struct{ arg, path string }{
		{"OplogStore/o1", "/admin/backup/oplog/s3Configs/o1"},
		{"AlertConfig", "/groups/" + project + "/alertConfigs"},
	} {
		t.Run(tt.arg, func(t *testing.T) {
			srv := stubapi.New(t)
			srv.Reply("GET", tt.path, 404, `{"error":404,"errorCode":"RESOURCE_NOT_FOUND","detail":"none"}`)
			out, err := runExport(t, srv, tt.arg)
			if err == nil || out != "" {
				t.Fatalf("%v %q: a failed read should write nothing and fail", err, out)
			}
		})
	}
}

func TestExportRefusesANonObjectAnswer(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/oplog/s3Configs/o1", 200, `[1]`)
	_, err := runExport(t, srv, "OplogStore/o1")
	if err == nil || !strings.Contains(err.Error(), "GET /admin/backup/oplog/s3Configs/o1: the server's answer is not a JSON object") {
		t.Fatalf("%v", err)
	}
}

func TestExportedAlertConfigsApplyWithoutChange(t *testing.T) {
	base := "/groups/" + project + "/alertConfigs"
	answer := `{"results":[{"id":"5f2a0c2e8f9d4b0000000002","groupId":"` + project + `","eventTypeName":"HOST_DOWN","enabled":true,
		"tags":["omctl:name=down"],"created":"2026-01-01T00:00:00Z","typeName":"HOST",
		"notifications":[{"typeName":"WEBHOOK","webhookUrl":"https://h.example.com/****","webhookSecret":"******","delayMin":0}]}],"totalCount":1}`
	srv := stubapi.New(t)
	srv.Reply("GET", base, 200, answer)
	out, err := runExport(t, srv, "AlertConfig")
	if err != nil {
		t.Fatal(err)
	}
	// Only the list is registered: applying the export writes nothing.
	srv2 := stubapi.New(t)
	srv2.Reply("GET", base, 200, answer)
	got, _, err := runApply(t, srv2, out, false)
	if err != nil || got != "unchanged AlertConfig down\nNo changes: 1 resource(s) already as the documents say.\n" {
		t.Fatalf("%v %q\nexported:\n%s", err, got, out)
	}
}

// One alert configuration, or one global one, is exported by its id: a
// named configuration with its name and no id, as the whole export writes
// it, so that the document applies unchanged.
func TestExportOneAlertConfigByID(t *testing.T) {
	const id = "5f2a0c2e8f9d4b0000000002"
	one := `{"id":"` + id + `","groupId":"` + project + `","eventTypeName":"HOST_DOWN","enabled":true,"tags":["omctl:name=down"],"created":"2026-01-01T00:00:00Z",
		"notifications":[{"typeName":"EMAIL","emailAddress":"ops@example.com","delayMin":0}]}`
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alertConfigs/"+id, 200, one)
	out, err := runExport(t, srv, "AlertConfig/"+id)
	if err != nil || !strings.HasPrefix(out, "kind: AlertConfig\nname: down\n") || strings.Contains(out, id) || strings.Contains(out, "groupId") {
		t.Fatalf("%v\n%s", err, out)
	}
	const global = "5f2b0c2e8f9d4b0012340003"
	srv.Reply("GET", "/globalAlertConfigs/"+global, 200, `{"id":"`+global+`","enabled":true,"eventTypeName":"BACKUP_AGENT_DOWN","forAllGroups":true,"notifications":[]}`)
	out, err = runExport(t, srv, "GlobalAlertConfig/"+global)
	if err != nil || !strings.HasPrefix(out, "kind: GlobalAlertConfig\nid: "+global+"\n") {
		t.Fatalf("%v\n%s", err, out)
	}
}

func TestNewCmdExport(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var got *ExportOptions
	cmd := NewCmdExport(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *ExportOptions) error { got = o; return nil })
	if err := cmdtest.Execute(cmd, ios, "AlertConfig", "OplogStore/o1"); err != nil || strings.Join(got.Kinds, " ") != "AlertConfig OplogStore/o1" {
		t.Fatalf("%v %+v", err, got)
	}
	cmd = NewCmdExport(&cmdutil.Factory{IOStreams: ios}, nil)
	if err := cmdtest.Execute(cmd, ios); err == nil {
		t.Error("export without a kind ran")
	}
}

func TestExportRefusesBadKinds(t *testing.T) {
	for arg, want := range map[string]string{
		"Bucket":             `unknown kind "Bucket": valid kinds are OplogStore`,
		"AccessList":         "AccessList has no list to export: name one, as AccessList/ID",
		"AlertConfig/x":      `invalid AlertConfig ID "x": want 24 hexadecimal digits`,
		"BackupJobsConfig/x": "BackupJobsConfig is the project's (--project), without an ID",
		"BackupConfig/nope":  "BackupConfig ID",
	} {
		ios, _, _, _ := iostreams.Test()
		err := exportRun(context.Background(), &ExportOptions{Deps: cmdutil.Deps{IO: ios}, Kinds: []string{arg}})
		if err == nil || !strings.Contains(err.Error(), want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%s: %v, want usage error %q", arg, err, want)
		}
	}
}
