package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func oplogBody(m map[string]any) map[string]any {
	b := map[string]any{"id": "oplog2", "acceptedTos": true, "pathStyleAccessEnabled": false, "s3BucketEndpoint": "https://s3.example.com",
		"s3BucketName": "logs", "s3MaxConnections": 10, "sseEnabled": true, "uri": "mongodb://meta:27017",
		"awsAccessKey": "AKIA", "awsSecretKey": "secret"}
	for k, v := range m {
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
	}
	return b
}

func TestCreateOplogStoreAndReadItBack(t *testing.T) {
	e := newEnv(t)
	r := e.do("owner", "POST", "/admin/backup/oplog/s3Configs", oplogBody(nil))
	e.expect(r, 200, "")
	if r.str("awsSecretKey") != "secret" || r.body["cloudSecretKey"] != nil || r.body["s3RegionOverride"] != nil {
		t.Errorf("created = %s", r.raw)
	}
	r = e.do("owner", "GET", "/admin/backup/oplog/s3Configs/oplog2", nil)
	if r.str("awsAccessKey") != "AKIA" || r.get("s3MaxConnections") != 10.0 || !strings.HasSuffix(r.str("links", "0", "href"), "/admin/backup/oplog/s3Configs/oplog2") {
		t.Errorf("read back = %s", r.raw)
	}
	e.expect(e.do("owner", "POST", "/admin/backup/oplog/s3Configs", oplogBody(nil)), 409, "")
	r = e.do("owner", "POST", "/admin/backup/oplog/s3Configs", oplogBody(map[string]any{"id": "oplog3", "s3AuthMethod": "IAM_ROLE", "s3RegionOverride": "eu-1"}))
	e.expect(r, 200, "")
	if r.body["awsAccessKey"] != nil || r.body["awsSecretKey"] != nil || r.str("s3RegionOverride") != "eu-1" {
		t.Errorf("IAM_ROLE store = %s", r.raw)
	}
	e.expect(e.do("owner", "GET", "/admin/backup/oplog/s3Configs/none", nil), 404, "RESOURCE_NOT_FOUND")
}

func TestStoreRules(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct {
		change map[string]any
		code   string
	}{
		{map[string]any{"acceptedTos": false}, "CANNOT_CREATE_STORE_WITHOUT_ACCEPTED_TOS"},
		{map[string]any{"acceptedTos": nil}, "MISSING_ATTRIBUTE"},
		{map[string]any{"uri": nil}, "MISSING_ATTRIBUTE"},
		{map[string]any{"id": nil}, "MISSING_ATTRIBUTE"},
		{map[string]any{"s3MaxConnections": 0}, "ATTRIBUTE_NEGATIVE_OR_ZERO"},
		{map[string]any{"s3MaxConnections": -3}, "ATTRIBUTE_NEGATIVE_OR_ZERO"},
		{map[string]any{"s3MaxConnections": "ten"}, "INVALID_JSON_ATTRIBUTE"},
		{map[string]any{"writeConcern": "ALL"}, "INVALID_ENUM_VALUE"},
		{map[string]any{"loadFactor": 2}, "INVALID_ATTRIBUTE"},
	} {
		e.expect(e.do("owner", "POST", "/admin/backup/oplog/s3Configs", oplogBody(c.change)), 400, c.code)
	}
}

func TestUpdateSnapshotStore(t *testing.T) {
	e := newEnv(t)
	body := oplogBody(map[string]any{"id": nil, "loadFactor": 3, "s3AuthMethod": "IAM_ROLE"})
	r := e.do("owner", "PUT", "/admin/backup/snapshot/s3Configs/blocks1", body)
	e.expect(r, 200, "")
	if r.get("loadFactor") != 3.0 || r.str("s3AuthMethod") != "IAM_ROLE" || r.get("s3MaxConnections") != 10.0 || r.body["awsSecretKey"] != nil {
		t.Errorf("updated = %s", r.raw)
	}
	if r := e.do("owner", "GET", "/admin/backup/snapshot/s3Configs/blocks1", nil); r.get("loadFactor") != 3.0 {
		t.Errorf("read back = %s", r.raw)
	}
	r = e.do("owner", "PUT", "/admin/backup/snapshot/s3Configs/blocks1", oplogBody(map[string]any{"id": nil}))
	if r.get("loadFactor") != 1.0 || r.str("s3AuthMethod") != "KEYS" {
		t.Errorf("defaults not stated: %s", r.raw)
	}
	e.expect(e.do("owner", "PUT", "/admin/backup/snapshot/s3Configs/blocks1", oplogBody(map[string]any{"id": nil, "loadFactor": 0})), 400, "ATTRIBUTE_NEGATIVE_OR_ZERO")
	e.expect(e.do("owner", "PUT", "/admin/backup/snapshot/s3Configs/blocks1", oplogBody(map[string]any{"id": "other"})), 400, "ATTRIBUTE_READ_ONLY")
	e.expect(e.do("owner", "PUT", "/admin/backup/snapshot/s3Configs/blocks1", oplogBody(map[string]any{"id": nil, "acceptedTos": false})), 400, "CANNOT_CREATE_STORE_WITHOUT_ACCEPTED_TOS")
	e.expect(e.do("owner", "PUT", "/admin/backup/snapshot/s3Configs/none", oplogBody(map[string]any{"id": nil})), 404, "RESOURCE_NOT_FOUND")
}

func TestAcceptedTosFalseIsTheAnswerEvenWithFieldsMissing(t *testing.T) {
	e := newEnv(t)
	e.expect(e.do("owner", "POST", "/admin/backup/oplog/s3Configs", map[string]any{"id": "x", "acceptedTos": false}), 400, "CANNOT_CREATE_STORE_WITHOUT_ACCEPTED_TOS")
	e.expect(e.do("owner", "PUT", "/admin/backup/snapshot/s3Configs/blocks1", map[string]any{"acceptedTos": false}), 400, "CANNOT_CREATE_STORE_WITHOUT_ACCEPTED_TOS")
	e.expect(e.do("owner", "POST", "/admin/backup/oplog/s3Configs", map[string]any{"id": "x", "acceptedTos": true}), 400, "MISSING_ATTRIBUTE")
	e.expect(e.do("owner", "POST", "/admin/backup/oplog/s3Configs", map[string]any{"id": "x", "acceptedTos": "no"}), 400, "INVALID_JSON_ATTRIBUTE")
}

// A store's answer is encoded once a record and kept (docs/performance.md):
// the list must still show each store as its last write left it, hide
// the keys of an IAM_ROLE store, and page before it renders.
func TestStoreListShowsEachStoreAsItIsNow(t *testing.T) {
	e := newEnv(t)
	const list = "/admin/backup/oplog/s3Configs?assignableOnly=false&itemsPerPage=500"
	e.expect(e.do("owner", "POST", "/admin/backup/oplog/s3Configs", oplogBody(nil)), 200, "")
	before := e.do("owner", "GET", list, nil)
	e.expect(before, 200, "")
	e.expect(e.do("owner", "PUT", "/admin/backup/oplog/s3Configs/oplog2", oplogBody(map[string]any{"id": nil, "s3MaxConnections": 77})), 200, "")
	e.expect(e.do("owner", "POST", "/admin/backup/oplog/s3Configs", oplogBody(map[string]any{"id": "oplog3", "s3AuthMethod": "IAM_ROLE"})), 200, "")
	after := e.do("owner", "GET", list, nil)
	byID := map[string]map[string]any{}
	for _, it := range after.get("results").([]any) {
		m := it.(map[string]any)
		byID[m["id"].(string)] = m
	}
	if byID["oplog2"]["s3MaxConnections"] != 77.0 || byID["oplog2"]["awsSecretKey"] != "secret" {
		t.Errorf("the list shows the store as before its update: %s (before: %s)", after.raw, before.raw)
	}
	if m := byID["oplog3"]; m == nil || m["awsAccessKey"] != nil || m["awsSecretKey"] != nil || m["s3AuthMethod"] != "IAM_ROLE" {
		t.Errorf("IAM_ROLE store in the list = %v", m)
	}
	if !strings.HasSuffix(after.str("results", "0", "links", "0", "href"), "/admin/backup/oplog/s3Configs/"+after.str("results", "0", "id")) {
		t.Errorf("self link = %s", after.raw)
	}
	total := int(after.get("totalCount").(float64))
	last := e.do("owner", "GET", fmt.Sprintf("/admin/backup/oplog/s3Configs?assignableOnly=false&itemsPerPage=1&pageNum=%d", total), nil)
	if got := last.get("results").([]any); len(got) != 1 || got[0].(map[string]any)["id"] != "oplog3" || last.get("totalCount") != float64(total) {
		t.Errorf("last page of one = %s", last.raw)
	}
	wrapped := e.do("owner", "GET", "/admin/backup/oplog/s3Configs/oplog2?envelope=true&pretty=true", nil)
	if wrapped.get("content", "s3MaxConnections") != 77.0 || wrapped.get("status") != 200.0 || !strings.Contains(string(wrapped.raw), "\n  ") {
		t.Errorf("envelope and pretty = %s", wrapped.raw)
	}
}

// A store pasted into a fixture from a GET answer keeps its links member;
// the answer shows the server's own links in its place, once.
func TestAStoreWithLinksInItsFixtureShowsOnlyTheServersLinks(t *testing.T) {
	var fx map[string]any
	if err := json.Unmarshal([]byte(fixtureJSON), &fx); err != nil {
		t.Fatal(err)
	}
	fx["oplogStores"] = []any{map[string]any{"id": "pasted", "acceptedTos": true, "s3BucketName": "b", "s3MaxConnections": 5, "uri": "mongodb://m:27017",
		"s3BucketEndpoint": "https://s3", "pathStyleAccessEnabled": false, "sseEnabled": false,
		"links": []any{map[string]any{"href": "https://prod.example.com/api/public/v1.0/admin/backup/oplog/s3Configs/pasted", "rel": "self"}}}}
	b, err := json.Marshal(fx)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnvWith(t, string(b))
	one := e.do("owner", "GET", "/admin/backup/oplog/s3Configs/pasted", nil)
	if n := strings.Count(string(one.raw), `"links"`); n != 1 || strings.Contains(string(one.raw), "prod.example.com") {
		t.Errorf("GET shows links %d times: %s", n, one.raw)
	}
	list := e.do("owner", "GET", "/admin/backup/oplog/s3Configs?assignableOnly=false", nil)
	items := len(list.get("results").([]any))
	if n := strings.Count(string(list.raw), `"links"`); n != items+1 || strings.Contains(string(list.raw), "prod.example.com") {
		t.Errorf("a list of %d shows links %d times: %s", items, n, list.raw)
	}
}
