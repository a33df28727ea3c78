package apply

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const (
	org     = "5e1a0c2e8f9d4b0012340001"
	cluster = "5e3c0c2e8f9d4b0012340001"
	apiKey  = "5f4d0c2e8f9d4b0012340005"
)

func TestApplyBackupJobsConfig(t *testing.T) {
	path := "/admin/backup/groups/" + project
	cur := `{"id":"` + project + `","labelFilter":["a"],"syncStoreFilter":["s"],"links":[]}`

	t.Run("created by a PUT when missing", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("GET", path, 404, `{"error":404,"errorCode":"RESOURCE_NOT_FOUND"}`)
		srv.Reply("PUT", path, 200, `{}`)
		out, _, err := runApply(t, srv, "kind: BackupJobsConfig\nlabelFilter: [x]\n", false)
		if err != nil || out != "created BackupJobsConfig "+project+"\n1 created, 0 updated, 0 unchanged.\n" {
			t.Fatalf("%v %q", err, out)
		}
		if body := srv.Requests()[1].JSON(t); !reflect.DeepEqual(body, map[string]any{"labelFilter": []any{"x"}}) {
			t.Errorf("PUT body %v", body)
		}
	})
	t.Run("updated keeping what the document leaves out", func(t *testing.T) {
		other := "5e2b0c2e8f9d4b0012340009"
		p := "/admin/backup/groups/" + other
		srv := stubapi.New(t)
		srv.Reply("GET", p, 200, strings.Replace(cur, project, other, 1))
		srv.Reply("PUT", p, 200, `{}`)
		out, _, err := runApply(t, srv, "kind: BackupJobsConfig\nid: "+other+"\nlabelFilter: [b]\n", false)
		if err != nil || !strings.Contains(out, "updated BackupJobsConfig "+other+"\n") {
			t.Fatalf("%v %q", err, out)
		}
		want := map[string]any{"labelFilter": []any{"b"}, "syncStoreFilter": []any{"s"}}
		if body := srv.Requests()[1].JSON(t); !reflect.DeepEqual(body, want) {
			t.Errorf("PUT body %v, want %v", body, want)
		}
	})
	t.Run("unchanged sends nothing", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("GET", path, 200, cur)
		out, _, err := runApply(t, srv, "kind: BackupJobsConfig\nlabelFilter: [a]\nlinks: [{rel: self}]\n", false)
		if err != nil || out != "unchanged BackupJobsConfig "+project+"\nNo changes: 1 resource(s) already as the documents say.\n" {
			t.Fatalf("%v %q", err, out)
		}
	})
}

func TestApplyBackupConfig(t *testing.T) {
	path := "/groups/" + project + "/backupConfigs/" + cluster
	cur := `{"groupId":"` + project + `","clusterId":"` + cluster + `","statusName":"STARTED","sslEnabled":false,"excludedNamespaces":["a.b"],
		"multiRegionBackupEnabled":false,"deploymentConfigs":[],"availableMembers":[{"x":1}],"links":[]}`

	t.Run("patches only what differs, with syncSource", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("GET", path, 200, cur)
		srv.Reply("PATCH", path, 200, `{}`)
		out, _, err := runApply(t, srv, "kind: BackupConfig\nclusterId: "+cluster+"\nstatusName: STARTED\nsslEnabled: true\nsyncSource: PRIMARY\n", false)
		if err != nil || !strings.Contains(out, "updated BackupConfig "+cluster+"\n") {
			t.Fatalf("%v %q", err, out)
		}
		want := map[string]any{"sslEnabled": true, "syncSource": "PRIMARY"}
		if body := srv.Requests()[1].JSON(t); !reflect.DeepEqual(body, want) {
			t.Errorf("PATCH body %v, want %v", body, want)
		}
	})
	t.Run("multi-region and deployment configs go together", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("GET", path, 200, cur)
		srv.Reply("PATCH", path, 200, `{}`)
		_, _, err := runApply(t, srv, "kind: BackupConfig\nclusterId: "+cluster+"\nmultiRegionBackupEnabled: true\n", false)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"multiRegionBackupEnabled": true, "deploymentConfigs": []any{}}
		if body := srv.Requests()[1].JSON(t); !reflect.DeepEqual(body, want) {
			t.Errorf("PATCH body %v, want %v", body, want)
		}
	})
	t.Run("syncSource alone is no change", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("GET", path, 200, cur)
		out, _, err := runApply(t, srv, "kind: BackupConfig\ngroupId: "+project+"\nclusterId: "+cluster+"\nsslEnabled: false\nsyncSource: PRIMARY\n", false)
		if err != nil || !strings.HasPrefix(out, "unchanged BackupConfig "+cluster+"\nNo changes") {
			t.Fatalf("%v %q", err, out)
		}
	})
	t.Run("a missing one cannot be created", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("GET", path, 404, `{"error":404,"errorCode":"RESOURCE_NOT_FOUND"}`)
		out, errOut, err := runApply(t, srv, "kind: BackupConfig\nclusterId: "+cluster+"\nsslEnabled: true\n", false)
		if cmdutil.ExitCode(err) != 1 || !strings.Contains(errOut, "clusterId "+cluster+": no backup configuration in project "+project+", and the API cannot create one") ||
			out != "Nothing was sent: 1 of 1 document(s) cannot be applied.\n" {
			t.Fatalf("%v %q %q", err, out, errOut)
		}
	})
}

func TestApplyAccessList(t *testing.T) {
	path := "/orgs/" + org + "/apiKeys/" + apiKey + "/accessList"
	cur := `{"results":[{"ipAddress":"10.0.0.1","cidrBlock":"10.0.0.1/32","count":3},{"cidrBlock":"192.168.0.0/24"}],"totalCount":2}`

	t.Run("adds what the server lacks", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("GET", path, 200, cur)
		srv.Reply("POST", path, 200, `{}`)
		doc := "kind: AccessList\napiKeyId: " + apiKey + "\nresults: [{ipAddress: 10.0.0.1}, {cidrBlock: 192.168.0.7/24}, {ipAddress: '::ffff:1.2.3.4'}, {cidrBlock: 172.16.0.0/12}, {cidrBlock: 172.16.0.0/12}]\n"
		out, _, err := runApply(t, srv, doc, false)
		if err != nil || out != "updated AccessList "+apiKey+" (2 entries added)\n0 created, 1 updated, 0 unchanged.\n" {
			t.Fatalf("%v %q", err, out)
		}
		body := srv.Requests()[1].Body
		if want := `[{"ipAddress":"::ffff:1.2.3.4"},{"cidrBlock":"172.16.0.0/12"}]`; strings.TrimSpace(string(body)) != want {
			t.Errorf("POST body %s, want %s", body, want)
		}
	})
	t.Run("unchanged when every entry is there", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("GET", "/orgs/5e1a0c2e8f9d4b0012340002/apiKeys/"+apiKey+"/accessList", 200, cur)
		doc := "kind: AccessList\norgId: 5e1a0c2e8f9d4b0012340002\napiKeyId: " + apiKey + "\nresults: [{cidrBlock: 10.0.0.1/32}, {cidrBlock: 192.168.0.0/24}]\n"
		out, _, err := runApply(t, srv, doc, false)
		if err != nil || out != "unchanged AccessList "+apiKey+"\nNo changes: 1 resource(s) already as the documents say.\n" {
			t.Fatalf("%v %q", err, out)
		}
	})
	t.Run("an entry left out is refused and nothing is added", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("GET", path, 200, cur)
		doc := "kind: AccessList\napiKeyId: " + apiKey + "\nresults: [{ipAddress: 10.0.0.1}, {ipAddress: 10.9.9.9}]\n"
		_, errOut, err := runApply(t, srv, doc, false)
		if cmdutil.ExitCode(err) != 1 || !strings.Contains(errOut, "entry 192.168.0.0/24 is on the server and not in the document: the API cannot remove access-list entries") {
			t.Fatalf("%v %q", err, errOut)
		}
	})
}

func TestApplyGlobalAlertConfig(t *testing.T) {
	const id = "5f2b0c2e8f9d4b0012340001"
	path := "/globalAlertConfigs/" + id
	t.Run("enabled is switched and only it is sent", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("GET", path, 200, `{"id":"`+id+`","eventTypeName":"HOST_DOWN","enabled":true,"forAllGroups":true,"typeName":"HOST"}`)
		srv.Reply("PUT", path, 200, `{}`)
		out, _, err := runApply(t, srv, "kind: GlobalAlertConfig\nid: "+id+"\nenabled: false\neventTypeName: HOST_DOWN\ntypeName: OTHER\n", false)
		if err != nil || !strings.Contains(out, "updated GlobalAlertConfig "+id+"\n") {
			t.Fatalf("%v %q", err, out)
		}
		if body := srv.Requests()[1].JSON(t); !reflect.DeepEqual(body, map[string]any{"enabled": false}) {
			t.Errorf("PUT body %v", body)
		}
	})
	t.Run("a missing one cannot be created", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("GET", path, 404, `{"error":404,"errorCode":"RESOURCE_NOT_FOUND"}`)
		_, errOut, err := runApply(t, srv, "kind: GlobalAlertConfig\nid: "+id+"\nenabled: false\n", false)
		if cmdutil.ExitCode(err) != 1 || !strings.Contains(errOut, "id "+id+": no such global alert configuration, and the API cannot create one") {
			t.Fatalf("%v %q", err, errOut)
		}
	})
}

func TestApplyAlertConfigs(t *testing.T) {
	base := "/groups/" + project + "/alertConfigs"
	const id = "5f2a0c2e8f9d4b0000000007"

	t.Run("a new name is created with its tag", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("GET", base, 200, `{"results":[{"id":"x","tags":["omctl:name=other"]}],"totalCount":1}`)
		srv.Reply("POST", base, 201, `{"id":"`+id+`"}`)
		out, _, err := runApply(t, srv, "kind: AlertConfig\nname: down\neventTypeName: HOST_DOWN\ntags: [team-a]\nnotifications: []\n", false)
		if err != nil || out != "created AlertConfig down (id "+id+")\n1 created, 0 updated, 0 unchanged.\n" {
			t.Fatalf("%v %q", err, out)
		}
		want := map[string]any{"eventTypeName": "HOST_DOWN", "tags": []any{"team-a", "omctl:name=down"}, "notifications": []any{}}
		if body := srv.Requests()[1].JSON(t); !reflect.DeepEqual(body, want) {
			t.Errorf("POST body %v, want %v", body, want)
		}
	})
	t.Run("a new name without an event type is refused", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("GET", base, 200, `{"results":[],"totalCount":0}`)
		_, errOut, err := runApply(t, srv, "kind: AlertConfig\nname: down\nenabled: true\n", false)
		if cmdutil.ExitCode(err) != 1 || !strings.Contains(errOut, "field eventTypeName is missing: no configuration carries the tag omctl:name=down, and a new one needs it") {
			t.Fatalf("%v %q", err, errOut)
		}
	})
	t.Run("two carrying the name are refused", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("GET", base, 200, `{"results":[{"id":"a1","tags":["omctl:name=down"]},{"id":"a2","tags":["omctl:name=down"]}],"totalCount":2}`)
		_, errOut, err := runApply(t, srv, "kind: AlertConfig\nname: down\neventTypeName: HOST_DOWN\n", false)
		if cmdutil.ExitCode(err) != 1 || !strings.Contains(errOut, "name down: 2 configurations carry the tag omctl:name=down (a1, a2); keep it on one, or give the document an id") {
			t.Fatalf("%v %q", err, errOut)
		}
	})
	t.Run("an id that does not exist is refused", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("GET", base+"/"+id, 404, `{"error":404,"errorCode":"RESOURCE_NOT_FOUND"}`)
		_, errOut, err := runApply(t, srv, "kind: AlertConfig\nid: "+id+"\nenabled: true\n", false)
		if cmdutil.ExitCode(err) != 1 || !strings.Contains(errOut, "AlertConfig "+id+" (") ||
			!strings.Contains(errOut, "id "+id+": no such alert configuration in project "+project+"; leave id out and give a name to create one") {
			t.Fatalf("%v %q", err, errOut)
		}
	})
	t.Run("by id and name adopts and names it, keeping its tags", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("GET", base+"/"+id, 200, `{"id":"`+id+`","groupId":"`+project+`","eventTypeName":"HOST_DOWN","enabled":true,"tags":["team-a"],"notifications":[]}`)
		srv.Reply("PUT", base+"/"+id, 200, `{}`)
		out, _, err := runApply(t, srv, "kind: AlertConfig\nid: "+id+"\nname: down\n", false)
		if err != nil || !strings.Contains(out, "updated AlertConfig down (id "+id+")\n") {
			t.Fatalf("%v %q", err, out)
		}
		want := map[string]any{"eventTypeName": "HOST_DOWN", "enabled": true, "tags": []any{"team-a", "omctl:name=down"}, "notifications": []any{}}
		if body := srv.Requests()[1].JSON(t); !reflect.DeepEqual(body, want) {
			t.Errorf("PUT body %v, want %v", body, want)
		}
	})
	t.Run("a redacted secret cannot be sent back with another change", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("GET", base+"/"+id, 200, `{"id":"`+id+`","eventTypeName":"HOST_DOWN","enabled":true,
			"notifications":[{"typeName":"PAGER_DUTY","serviceKey":"****1234","delayMin":0}]}`)
		_, errOut, err := runApply(t, srv, "kind: AlertConfig\nid: "+id+"\nenabled: false\nnotifications: [{typeName: PAGER_DUTY, serviceKey: '****1234', delayMin: 0}]\n", false)
		if cmdutil.ExitCode(err) != 1 || !strings.Contains(errOut, "notifications[0].serviceKey is redacted: the server does not show it and the document does not give it; to update this resource, give the secret as a reference") {
			t.Fatalf("%v %q", err, errOut)
		}
	})
	t.Run("a redacted secret alone is no change", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("GET", base+"/"+id, 200, `{"id":"`+id+`","eventTypeName":"HOST_DOWN","enabled":true,
			"notifications":[{"typeName":"PAGER_DUTY","serviceKey":"****1234","delayMin":0}]}`)
		out, _, err := runApply(t, srv, "kind: AlertConfig\nid: "+id+"\nnotifications: [{typeName: PAGER_DUTY, serviceKey: '****1234', delayMin: 0}]\n", false)
		if err != nil || !strings.HasPrefix(out, "unchanged AlertConfig "+id+"\n") {
			t.Fatalf("%v %q", err, out)
		}
	})
}

func TestApplyStopsAtAServerError(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/oplog/s3Configs/o1", 500, `{"error":500,"errorCode":"UNEXPECTED_ERROR","detail":"boom"}`)
	_, _, err := runApply(t, srv, "kind: OplogStore\nid: o1\n", false)
	if err == nil || !strings.Contains(err.Error(), "#1 (OplogStore)") {
		t.Fatalf("error %v should name the document", err)
	}
}

func TestApplyReportsAFailedWrite(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/oplog/s3Configs/o1", 200, store)
	srv.Reply("PUT", "/admin/backup/oplog/s3Configs/o1", 400, `{"error":400,"errorCode":"INVALID_ATTRIBUTE","detail":"bad"}`)
	out, errOut, err := runApply(t, srv, "kind: OplogStore\nid: o1\ns3MaxConnections: 20\n", false)
	if cmdutil.ExitCode(err) != 1 || !strings.Contains(errOut, "Error: OplogStore o1 (") || !strings.Contains(errOut, "INVALID_ATTRIBUTE") ||
		out != "Stopped at a failure: 0 created, 0 updated, 0 unchanged, 1 failed, 0 not sent.\n" {
		t.Fatalf("%v %q %q", err, out, errOut)
	}
}

func TestApplyReadsStandardInput(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/admin/backup/oplog/s3Configs/o1", 200, store)
	ios, in, out, _ := iostreams.Test()
	in.WriteString("kind: OplogStore\nid: o1\n")
	opts := &Options{Deps: cmdutil.Deps{IO: ios, ProjectID: stubapi.Project(project), OrgID: stubapi.Project(org), Client: srv.Client()}, Files: []string{"-"}}
	if err := applyRun(context.Background(), opts); err != nil || !strings.HasPrefix(out.String(), "unchanged OplogStore o1\n") {
		t.Fatalf("%v %q", err, out)
	}
}
