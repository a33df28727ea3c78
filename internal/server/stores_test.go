package server

import (
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
