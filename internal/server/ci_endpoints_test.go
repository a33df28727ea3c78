package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/fixture"
)

func TestCreateSnapshotStoreDefaultsAndReadBack(t *testing.T) {
	e := newEnv(t)
	body := oplogBody(map[string]any{"id": "blocks2", "s3MaxConnections": nil})
	r := e.do("owner", "POST", "/admin/backup/snapshot/s3Configs", body)
	e.expect(r, 200, "")
	if r.get("s3MaxConnections") != 50.0 || r.get("loadFactor") != 1.0 || r.str("s3AuthMethod") != "KEYS" || r.str("id") != "blocks2" {
		t.Errorf("created = %s", r.raw)
	}
	if !strings.HasSuffix(r.str("links", "0", "href"), "/admin/backup/snapshot/s3Configs/blocks2") {
		t.Errorf("self link = %s", r.raw)
	}
	if !strings.Contains(string(r.raw), `"s3MaxConnections":50,`) {
		t.Errorf("s3MaxConnections not an integer: %s", r.raw)
	}
	r = e.do("reader", "GET", "/admin/backup/snapshot/s3Configs/blocks2", nil)
	e.expect(r, 401, "USER_UNAUTHORIZED")
	r = e.do("admin@example.com", "GET", "/admin/backup/snapshot/s3Configs/blocks2", nil)
	e.expect(r, 200, "")
	if r.get("loadFactor") != 1.0 || r.get("s3MaxConnections") != 50.0 || r.str("awsSecretKey") != "secret" {
		t.Errorf("read back = %s", r.raw)
	}
	// Values given are kept.
	r = e.do("owner", "POST", "/admin/backup/snapshot/s3Configs", oplogBody(map[string]any{"id": "blocks3", "s3MaxConnections": 7, "loadFactor": 4, "s3AuthMethod": "IAM_ROLE"}))
	e.expect(r, 200, "")
	if r.get("s3MaxConnections") != 7.0 || r.get("loadFactor") != 4.0 || r.body["awsAccessKey"] != nil {
		t.Errorf("created with values = %s", r.raw)
	}
	// An oplog store's id does not clash with a snapshot store's.
	e.expect(e.do("owner", "POST", "/admin/backup/snapshot/s3Configs", oplogBody(map[string]any{"id": "oplog1"})), 200, "")
	e.expect(e.do("owner", "POST", "/admin/backup/snapshot/s3Configs", oplogBody(map[string]any{"id": "blocks1"})), 409, "DUPLICATE_STORE_ID")
	e.expect(e.do("owner", "POST", "/admin/backup/snapshot/s3Configs", oplogBody(map[string]any{"id": "blocks2", "acceptedTos": false})), 400, "CANNOT_CREATE_STORE_WITHOUT_ACCEPTED_TOS")
}

func TestCreateSnapshotStoreRules(t *testing.T) {
	e := newEnv(t)
	path := "/admin/backup/snapshot/s3Configs"
	for _, c := range []struct {
		body any
		code string
	}{
		{map[string]any{"acceptedTos": false}, "CANNOT_CREATE_STORE_WITHOUT_ACCEPTED_TOS"},
		{oplogBody(map[string]any{"id": "n", "acceptedTos": false}), "CANNOT_CREATE_STORE_WITHOUT_ACCEPTED_TOS"},
		{oplogBody(map[string]any{"id": nil}), "MISSING_ATTRIBUTE"},
		{oplogBody(map[string]any{"id": ""}), "MISSING_ATTRIBUTE"},
		{oplogBody(map[string]any{"id": "n", "acceptedTos": nil}), "MISSING_ATTRIBUTE"},
		{oplogBody(map[string]any{"id": "n", "uri": nil}), "MISSING_ATTRIBUTE"},
		{oplogBody(map[string]any{"id": "n", "s3BucketName": nil}), "MISSING_ATTRIBUTE"},
		{oplogBody(map[string]any{"id": "n", "s3MaxConnections": 0}), "ATTRIBUTE_NEGATIVE_OR_ZERO"},
		{oplogBody(map[string]any{"id": "n", "loadFactor": 0}), "ATTRIBUTE_NEGATIVE_OR_ZERO"},
		{oplogBody(map[string]any{"id": "n", "loadFactor": -1}), "ATTRIBUTE_NEGATIVE_OR_ZERO"},
		{oplogBody(map[string]any{"id": "n", "loadFactor": 1.5}), "INVALID_JSON_ATTRIBUTE"},
		{oplogBody(map[string]any{"id": 5}), "INVALID_JSON_ATTRIBUTE"},
		{oplogBody(map[string]any{"id": "n", "colour": "red"}), "INVALID_ATTRIBUTE"},
		{oplogBody(map[string]any{"id": "n", "s3AuthMethod": "PASSWORD"}), "INVALID_ENUM_VALUE"},
		{"[]", "INVALID_JSON"},
	} {
		e.expect(e.do("owner", "POST", path, c.body), 400, c.code)
	}
	e.expect(e.do("monitor", "POST", path, oplogBody(map[string]any{"id": "n"})), 401, "USER_UNAUTHORIZED")
	e.expect(e.do("admin@example.com", "POST", path, oplogBody(map[string]any{"id": "n"})), 401, "USER_UNAUTHORIZED")
	e.expect(e.do("", "POST", path, oplogBody(map[string]any{"id": "n"})), 401, "")
	e.expect(e.do("owner", "GET", path+"/n", nil), 404, "RESOURCE_NOT_FOUND")
}

func TestUpdateOplogStore(t *testing.T) {
	e := newEnv(t)
	path := "/admin/backup/oplog/s3Configs/oplog1"
	r := e.do("owner", "PUT", path, oplogBody(map[string]any{"id": nil, "s3BucketName": "renamed", "s3MaxConnections": 9}))
	e.expect(r, 200, "")
	if r.str("id") != "oplog1" || r.str("s3BucketName") != "renamed" || r.get("s3MaxConnections") != 9.0 || r.body["cloudSecretKey"] != nil || r.body["loadFactor"] != nil {
		t.Errorf("updated = %s", r.raw)
	}
	if r := e.do("owner", "GET", path, nil); r.str("s3BucketName") != "renamed" {
		t.Errorf("read back = %s", r.raw)
	}
	// Its own id in the body is fine; another is read-only.
	e.expect(e.do("owner", "PUT", path, oplogBody(map[string]any{"id": "oplog1"})), 200, "")
	for _, c := range []struct {
		change map[string]any
		code   string
	}{
		{map[string]any{"id": "other"}, "ATTRIBUTE_READ_ONLY"},
		{map[string]any{"id": nil, "acceptedTos": false}, "CANNOT_CREATE_STORE_WITHOUT_ACCEPTED_TOS"},
		{map[string]any{"id": nil, "loadFactor": 2}, "INVALID_ATTRIBUTE"},
		{map[string]any{"id": nil, "s3MaxConnections": nil}, "MISSING_ATTRIBUTE"},
		{map[string]any{"id": nil, "s3MaxConnections": 0}, "ATTRIBUTE_NEGATIVE_OR_ZERO"},
		{map[string]any{"id": nil, "sseEnabled": nil}, "MISSING_ATTRIBUTE"},
	} {
		e.expect(e.do("owner", "PUT", path, oplogBody(c.change)), 400, c.code)
	}
	e.expect(e.do("owner", "PUT", path, map[string]any{"acceptedTos": false}), 400, "CANNOT_CREATE_STORE_WITHOUT_ACCEPTED_TOS")
	e.expect(e.do("owner", "PUT", "/admin/backup/oplog/s3Configs/none", oplogBody(map[string]any{"id": nil})), 404, "RESOURCE_NOT_FOUND")
	e.expect(e.do("monitor", "PUT", path, oplogBody(map[string]any{"id": nil})), 401, "USER_UNAUTHORIZED")
	e.expect(e.do("admin@example.com", "PUT", path, oplogBody(map[string]any{"id": nil})), 401, "USER_UNAUTHORIZED")
	// IAM_ROLE drops the keys.
	r = e.do("owner", "PUT", path, oplogBody(map[string]any{"id": nil, "s3AuthMethod": "IAM_ROLE"}))
	e.expect(r, 200, "")
	if r.body["awsAccessKey"] != nil || r.body["awsSecretKey"] != nil {
		t.Errorf("IAM_ROLE store = %s", r.raw)
	}
}

func TestPutBackupJobConfig(t *testing.T) {
	e := newEnv(t)
	path := "/admin/backup/groups/" + projB
	e.expect(e.do("owner", "GET", path, nil), 404, "RESOURCE_NOT_FOUND")
	body := map[string]any{"labelFilter": []any{"eu"}, "oplogStoreFilter": []any{map[string]any{"id": "oplog1", "type": "oplogStore"}},
		"snapshotStoreFilter": []any{map[string]any{"id": "blocks1", "type": "s3blockstore"}}, "syncStoreFilter": []any{},
		"kmipClientCertPath": "/etc/kmip", "kmipClientCertPassword": "pw", "daemonFilter": []any{map[string]any{"machine": "d1", "headRootDirectory": "/h"}}}
	r := e.do("owner", "PUT", path, body)
	e.expect(r, 200, "")
	if r.str("id") != projB || r.str("snapshotStoreFilter", "0", "id") != "blocks1" || r.str("labelFilter", "0") != "eu" ||
		!strings.HasSuffix(r.str("links", "0", "href"), path) || !strings.HasSuffix(r.str("links", "1", "href"), "/groups/"+projB) {
		t.Errorf("created = %s", r.raw)
	}
	r = e.do("owner", "GET", path, nil)
	e.expect(r, 200, "")
	if r.str("kmipClientCertPath") != "/etc/kmip" || r.str("oplogStoreFilter", "0", "id") != "oplog1" {
		t.Errorf("read back = %s", r.raw)
	}
	// Replace: what is left out is gone; its own id is accepted.
	r = e.do("owner", "PUT", "/admin/backup/groups/"+projA, map[string]any{"id": projA, "labelFilter": []any{"x"}})
	e.expect(r, 200, "")
	if r.body["oplogStoreFilter"] != nil || r.str("labelFilter", "0") != "x" {
		t.Errorf("replaced = %s", r.raw)
	}
	for _, c := range []struct {
		body  map[string]any
		code  string
		named string
	}{
		{map[string]any{"oplogStoreFilter": []any{map[string]any{"id": "nope", "type": "oplogStore"}}}, "INVALID_ATTRIBUTE", "nope"},
		{map[string]any{"oplogStoreFilter": []any{map[string]any{"id": "blocks1", "type": "oplogStore"}}}, "INVALID_ATTRIBUTE", "blocks1"},
		{map[string]any{"snapshotStoreFilter": []any{map[string]any{"id": "blocks1"}, map[string]any{"id": "oplog1", "type": "s3blockstore"}}}, "INVALID_ATTRIBUTE", "oplog1"},
		{map[string]any{"snapshotStoreFilter": []any{map[string]any{"type": "s3blockstore"}}}, "MISSING_ATTRIBUTE", "snapshotStoreFilter[0].id"},
		{map[string]any{"oplogStoreFilter": []any{map[string]any{"id": "oplog1", "type": "blockstore"}}}, "INVALID_ENUM_VALUE", "blockstore"},
		{map[string]any{"id": projA}, "ATTRIBUTE_READ_ONLY", "id"},
		{map[string]any{"labelFilter": "eu"}, "INVALID_JSON_ATTRIBUTE", "labelFilter"},
		{map[string]any{"colour": "red"}, "INVALID_ATTRIBUTE", "colour"},
	} {
		r := e.do("owner", "PUT", path, c.body)
		e.expect(r, 400, c.code)
		if !strings.Contains(r.str("detail"), c.named) {
			t.Errorf("%v: detail does not name %s: %s", c.body, c.named, r.raw)
		}
	}
	// A refused body changed nothing.
	if r := e.do("owner", "GET", path, nil); r.str("labelFilter", "0") != "eu" {
		t.Errorf("after refusals = %s", r.raw)
	}
	e.expect(e.do("owner", "PUT", "/admin/backup/groups/5e2b0000000000000000ffff", map[string]any{}), 404, "GROUP_NOT_FOUND")
	e.expect(e.do("owner", "PUT", "/admin/backup/groups/nope", map[string]any{}), 404, "INVALID_GROUP_ID")
	e.expect(e.do("orgowner", "PUT", path, map[string]any{}), 401, "USER_UNAUTHORIZED")
	e.expect(e.do("admin@example.com", "PUT", path, map[string]any{}), 401, "USER_UNAUTHORIZED")
}

func configBody(m map[string]any) map[string]any {
	b := map[string]any{"eventTypeName": "HOST_DOWN", "notifications": []any{map[string]any{"typeName": "EMAIL", "emailAddress": "a@b", "delayMin": 0}}}
	for k, v := range m {
		b[k] = v
	}
	return b
}

func TestCreateAlertConfig(t *testing.T) {
	e := newEnv(t)
	path := "/groups/" + projA + "/alertConfigs"
	r := e.do("monitor", "POST", path, configBody(map[string]any{"groupId": projA, "links": []any{}, "created": "x"}))
	e.expect(r, 200, "")
	id := r.str("id")
	if len(id) != 24 || r.str("groupId") != projA || r.get("enabled") != false || r.str("created") != "2026-01-01T00:00:00Z" || r.str("updated") != r.str("created") {
		t.Errorf("created = %s", r.raw)
	}
	if !strings.HasSuffix(r.str("links", "0", "href"), path+"/"+id) {
		t.Errorf("self link = %s", r.raw)
	}
	got := e.do("reader", "GET", path+"/"+id, nil)
	e.expect(got, 200, "")
	if got.str("id") != id || got.str("notifications", "0", "emailAddress") != "a@b" {
		t.Errorf("read back = %s", got.raw)
	}
	if l := e.do("reader", "GET", path, nil); l.get("totalCount") != 3.0 || l.str("results", "2", "id") != id {
		t.Errorf("list = %s", l.raw)
	}
	r = e.do("owner", "POST", path, configBody(map[string]any{"enabled": true, "notifications": []any{
		map[string]any{"typeName": "WEBHOOK", "webhookUrl": "https://h.example.com/x/y", "webhookSecret": "topsecret"}}}))
	e.expect(r, 200, "")
	if r.get("enabled") != true || r.str("id") == id || strings.Contains(string(r.raw), "topsecret") {
		t.Errorf("second = %s", r.raw)
	}
	for _, c := range []struct {
		body map[string]any
		code string
	}{
		{configBody(map[string]any{"id": "5f2a0000000000000000ffff"}), "ATTRIBUTE_READ_ONLY"},
		{configBody(map[string]any{"groupId": projB}), "ATTRIBUTE_READ_ONLY"},
		{map[string]any{"eventTypeName": "HOST_DOWN"}, "MISSING_ATTRIBUTE"},
		{configBody(map[string]any{"eventTypeName": nil}), "MISSING_ATTRIBUTE"},
		{configBody(map[string]any{"eventTypeName": "host down"}), "INVALID_ENUM_VALUE"},
		{configBody(map[string]any{"eventTypeName": "OUTSIDE_METRIC_THRESHOLD"}), "MISSING_ATTRIBUTE"},
		{configBody(map[string]any{"notifications": []any{map[string]any{"typeName": "WEBHOOK", "webhookSecret": "x"}}}), "MISSING_ATTRIBUTE"},
		{configBody(map[string]any{"notifications": []any{map[string]any{"typeName": "CARRIER_PIGEON"}}}), "INVALID_ENUM_VALUE"},
		{configBody(map[string]any{"enabled": "yes"}), "INVALID_JSON_ATTRIBUTE"},
		{configBody(map[string]any{"colour": "red"}), "INVALID_ATTRIBUTE"},
	} {
		e.expect(e.do("monitor", "POST", path, c.body), 400, c.code)
	}
	if l := e.do("reader", "GET", path, nil); l.get("totalCount") != 4.0 {
		t.Errorf("a refused body created something: %s", l.raw)
	}
	e.expect(e.do("reader", "POST", path, configBody(nil)), 401, "USER_UNAUTHORIZED")
	e.expect(e.do("admin@example.com", "POST", path, configBody(nil)), 401, "USER_UNAUTHORIZED")
	e.expect(e.do("monitor", "POST", "/groups/"+projB+"/alertConfigs", configBody(nil)), 401, "NOT_IN_GROUP")
	e.expect(e.do("owner", "POST", "/groups/5e2b0000000000000000ffff/alertConfigs", configBody(nil)), 404, "GROUP_NOT_FOUND")
	// A project with no configuration yet gets its first.
	r = e.do("owner", "POST", "/groups/"+projB+"/alertConfigs", configBody(map[string]any{"groupId": projB}))
	e.expect(r, 200, "")
	if l := e.do("owner", "GET", "/groups/"+projB+"/alertConfigs", nil); l.get("totalCount") != 1.0 {
		t.Errorf("project B list = %s", l.raw)
	}
}

func TestDeleteAlertConfigCancelsItsAlerts(t *testing.T) {
	e := newEnv(t)
	path := "/groups/" + projA + "/alertConfigs/" + cfgTrk
	e.expect(e.do("reader", "DELETE", path, nil), 401, "USER_UNAUTHORIZED")
	r := e.do("monitor", "DELETE", path, nil)
	e.expect(r, 200, "")
	if strings.TrimSpace(string(r.raw)) != "{}" {
		t.Errorf("answer = %s", r.raw)
	}
	e.expect(e.do("monitor", "GET", path, nil), 404, "ALERT_CONFIG_NOT_FOUND")
	e.expect(e.do("monitor", "DELETE", path, nil), 404, "ALERT_CONFIG_NOT_FOUND")
	e.expect(e.do("monitor", "DELETE", "/groups/"+projA+"/alertConfigs/bad", nil), 404, "INVALID_ALERT_CONFIG_ID")
	a := e.do("monitor", "GET", "/groups/"+projA+"/alerts/"+alertTrk, nil)
	if a.str("status") != "CANCELLED" || a.str("updated") != "2026-01-01T00:00:00Z" {
		t.Errorf("alert of the deleted config = %s", a.raw)
	}
	if l := e.do("monitor", "GET", "/groups/"+projA+"/alertConfigs", nil); l.get("totalCount") != 1.0 || l.str("results", "0", "id") != cfgHost {
		t.Errorf("list after delete = %s", l.raw)
	}
	// The other configuration and its alert are untouched.
	if a := e.do("monitor", "GET", "/groups/"+projA+"/alerts/"+alertHost, nil); a.str("status") != "OPEN" {
		t.Errorf("other alert = %s", a.raw)
	}
	r = e.do("owner", "DELETE", "/groups/"+projA+"/alertConfigs/"+cfgHost+"?envelope=true", nil)
	e.expect(r, 200, "")
	if r.get("status") != 200.0 || r.get("content") == nil {
		t.Errorf("enveloped = %s", r.raw)
	}
}

func TestDeletedConfigRaisesNothing(t *testing.T) {
	e := newEnv(t)
	r := e.do("monitor", "POST", "/groups/"+projA+"/alertConfigs", configBody(map[string]any{"enabled": true, "eventTypeName": "REPLICA_SET"}))
	e.expect(r, 200, "")
	id := r.str("id")
	ev := `{"groupId": "` + projA + `", "eventTypeName": "REPLICA_SET", "target": {"hostnameAndPort": "db9:27017"}}`
	raised := e.doRaw("owner", "POST", "/_omctl/events", ev)
	e.expect(raised, 200, "")
	if !strings.Contains(string(raised.raw), id) {
		t.Fatalf("the new configuration raised nothing: %s", raised.raw)
	}
	alertID := ""
	for _, a := range raised.get("alerts").([]any) {
		if m := a.(map[string]any); m["alertConfigId"] == id {
			alertID = m["id"].(string)
		}
	}
	e.expect(e.do("monitor", "DELETE", "/groups/"+projA+"/alertConfigs/"+id, nil), 200, "")
	if a := e.do("monitor", "GET", "/groups/"+projA+"/alerts/"+alertID, nil); a.str("status") != "CANCELLED" {
		t.Errorf("alert after delete = %s", a.raw)
	}
	again := e.doRaw("owner", "POST", "/_omctl/events", strings.Replace(ev, "db9", "db8", 1))
	if strings.Contains(string(again.raw), id) {
		t.Errorf("a deleted configuration raised an alert: %s", again.raw)
	}
}

func TestStateFileKeepsCreatedAndDeletedConfigs(t *testing.T) {
	e, _, restart := newStateEnv(t)
	r := e.do("monitor", "POST", "/groups/"+projA+"/alertConfigs", configBody(map[string]any{"enabled": true}))
	e.expect(r, 200, "")
	created := r.str("id")
	e.expect(e.do("monitor", "DELETE", "/groups/"+projA+"/alertConfigs/"+cfgTrk, nil), 200, "")
	e.expect(e.do("owner", "POST", "/admin/backup/snapshot/s3Configs", oplogBody(map[string]any{"id": "blocks9"})), 200, "")
	e.expect(e.do("owner", "PUT", "/admin/backup/oplog/s3Configs/oplog1", oplogBody(map[string]any{"id": nil, "s3BucketName": "kept"})), 200, "")
	e.expect(e.do("owner", "PUT", "/admin/backup/groups/"+projB, map[string]any{"labelFilter": []any{"kept"}}), 200, "")
	restart()
	e.expect(e.do("monitor", "GET", "/groups/"+projA+"/alertConfigs/"+created, nil), 200, "")
	e.expect(e.do("monitor", "GET", "/groups/"+projA+"/alertConfigs/"+cfgTrk, nil), 404, "ALERT_CONFIG_NOT_FOUND")
	l := e.do("monitor", "GET", "/groups/"+projA+"/alertConfigs", nil)
	if l.get("totalCount") != 2.0 || l.str("results", "0", "id") != cfgHost || l.str("results", "1", "id") != created {
		t.Errorf("configs after restart = %s", l.raw)
	}
	if a := e.do("monitor", "GET", "/groups/"+projA+"/alerts/"+alertTrk, nil); a.str("status") != "CANCELLED" {
		t.Errorf("cancelled alert after restart = %s", a.raw)
	}
	if r := e.do("owner", "GET", "/admin/backup/snapshot/s3Configs/blocks9", nil); r.get("s3MaxConnections") != 10.0 || r.get("loadFactor") != 1.0 {
		t.Errorf("snapshot store after restart = %s", r.raw)
	}
	if r := e.do("owner", "GET", "/admin/backup/oplog/s3Configs/oplog1", nil); r.str("s3BucketName") != "kept" {
		t.Errorf("oplog store after restart = %s", r.raw)
	}
	if r := e.do("owner", "GET", "/admin/backup/groups/"+projB, nil); r.str("labelFilter", "0") != "kept" {
		t.Errorf("backup jobs after restart = %s", r.raw)
	}
}

// newEnvWithKeys is newEnv with more API keys, each {publicKey: role},
// the role global, or of project A when it starts with GROUP_.
func newEnvWithKeys(t *testing.T, keys map[string]string) *env {
	t.Helper()
	var fx map[string]any
	if err := json.Unmarshal([]byte(fixtureJSON), &fx); err != nil {
		t.Fatal(err)
	}
	list := fx["apiKeys"].([]any)
	n := 0
	for pub, role := range keys {
		n++
		r := map[string]any{"roleName": role}
		if strings.HasPrefix(role, "GROUP_") {
			r["groupId"] = projA
		}
		list = append(list, map[string]any{"id": fmt.Sprintf("5f4d0000000000000000010%d", n), "desc": pub, "publicKey": pub,
			"privateKey": pub + "-secret", "roles": []any{r}})
	}
	fx["apiKeys"] = list
	raw, _ := json.Marshal(fx)
	f, err := fixture.ParseFixtures("fixture", raw)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Fixtures: f, Clock: store.VirtualClock(start)})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	e.ts.Config.Handler = s
	e.s = s
	for pub := range keys {
		e.clients[pub] = &http.Client{Transport: client.DigestTransport(pub, pub+"-secret", nil)}
	}
	return e
}

func TestRolesOfTheNewEndpoints(t *testing.T) {
	e := newEnvWithKeys(t, map[string]string{"gbackup": "GLOBAL_BACKUP_ADMIN", "gmonitor": "GLOBAL_MONITORING_ADMIN",
		"pbackup": "GROUP_BACKUP_ADMIN", "powner": "GROUP_OWNER"})
	store := func(id string) map[string]any { return oplogBody(map[string]any{"id": id}) }
	for _, c := range []struct {
		user, method, path string
		body               any
		status             int
		code               string
	}{
		{"gbackup", "POST", "/admin/backup/snapshot/s3Configs", store("b-gbackup"), 200, ""},
		{"gbackup", "PUT", "/admin/backup/oplog/s3Configs/oplog1", oplogBody(map[string]any{"id": nil}), 200, ""},
		{"gbackup", "PUT", "/admin/backup/groups/" + projA, map[string]any{"labelFilter": []any{"x"}}, 200, ""},
		{"gbackup", "POST", "/groups/" + projA + "/alertConfigs", configBody(nil), 401, "USER_UNAUTHORIZED"},
		{"gbackup", "DELETE", "/groups/" + projA + "/alertConfigs/" + cfgHost, nil, 401, "USER_UNAUTHORIZED"},
		{"gmonitor", "POST", "/admin/backup/snapshot/s3Configs", store("b-gmonitor"), 401, "USER_UNAUTHORIZED"},
		{"gmonitor", "PUT", "/admin/backup/groups/" + projA, map[string]any{}, 401, "USER_UNAUTHORIZED"},
		{"gmonitor", "GET", "/admin/backup/snapshot/s3Configs/b-gbackup", nil, 200, ""},
		{"gmonitor", "POST", "/groups/" + projB + "/alertConfigs", configBody(map[string]any{"groupId": projB}), 200, ""},
		{"pbackup", "PUT", "/admin/backup/groups/" + projA, map[string]any{}, 401, "USER_UNAUTHORIZED"},
		{"pbackup", "POST", "/admin/backup/snapshot/s3Configs", store("b-pbackup"), 401, "USER_UNAUTHORIZED"},
		{"pbackup", "POST", "/groups/" + projA + "/alertConfigs", configBody(nil), 401, "USER_UNAUTHORIZED"},
		{"pbackup", "GET", "/groups/" + projA + "/alertConfigs/" + cfgHost, nil, 200, ""},
		{"pbackup", "GET", "/admin/backup/groups/" + projA, nil, 401, "USER_UNAUTHORIZED"},
		{"powner", "POST", "/groups/" + projA + "/alertConfigs", configBody(nil), 200, ""},
		{"powner", "PUT", "/admin/backup/oplog/s3Configs/oplog1", oplogBody(map[string]any{"id": nil}), 401, "USER_UNAUTHORIZED"},
		{"powner", "DELETE", "/groups/" + projB + "/alertConfigs/" + cfgHost, nil, 401, "NOT_IN_GROUP"},
		{"gmonitor", "DELETE", "/groups/" + projA + "/alertConfigs/" + cfgHost, nil, 200, ""},
	} {
		r := e.do(c.user, c.method, c.path, c.body)
		if r.status != c.status || (c.code != "" && r.str("errorCode") != c.code) {
			t.Errorf("%s %s %s: got %d %s, want %d %s", c.user, c.method, c.path, r.status, r.str("errorCode"), c.status, c.code)
		}
	}
}
