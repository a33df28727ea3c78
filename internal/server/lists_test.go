package server

import (
	"fmt"
	"strings"
	"testing"
)

// The three-keys fixture of docs/api.md (Lists and reads): projects P1, P2
// in organization A, P3 in B, and clusters both listed and derived.
const (
	listOrgA = "6e1a00000000000000000001"
	listOrgB = "6e1a00000000000000000002"
	listOrgC = "6e1a00000000000000000003" // named only by P4
	listP1   = "6e2b00000000000000000001"
	listP2   = "6e2b00000000000000000002"
	listP3   = "6e2b00000000000000000003"
	listP4   = "6e2b00000000000000000004"
	listC1   = "6e3c00000000000000000001"
	listC2   = "6e3c00000000000000000002"
	listC3   = "6e3c00000000000000000003" // derived from a backup configuration
	listC4   = "6e3c00000000000000000004" // derived from snapshots only
	listKey1 = "6f4d00000000000000000001"
	listKey2 = "6f4d00000000000000000002"
	listKeyG = "6f4d00000000000000000009"
)

var listFixture = `{
 "orgs": [{"id": "` + listOrgB + `", "name": "Org1"}, {"id": "` + listOrgA + `", "name": "org1"}],
 "projects": [{"id": "` + listP2 + `", "name": "two", "orgId": "` + listOrgA + `", "tags": ["x"]},
              {"id": "` + listP1 + `", "name": "one", "orgId": "` + listOrgA + `"},
              {"id": "` + listP3 + `", "name": "three", "orgId": "` + listOrgB + `"},
              {"id": "` + listP4 + `", "name": "one", "orgId": "` + listOrgC + `"}],
 "clusters": [{"id": "` + listC2 + `", "groupId": "` + listP1 + `", "clusterName": "big", "typeName": "SHARDED_REPLICA_SET", "lastHeartbeat": "2025-12-31T10:00:00+01:00"},
              {"id": "` + listC1 + `", "groupId": "` + listP1 + `", "clusterName": "big", "typeName": "REPLICA_SET", "replicaSetName": "big-0", "shardName": "big-0"}],
 "apiKeys": [
  {"id": "` + listKey1 + `", "desc": "reader", "publicKey": "lreader", "privateKey": "lreader-secret-0123456789ab", "roles": [{"groupId": "` + listP1 + `", "roleName": "GROUP_READ_ONLY"}],
   "accessList": [{"cidrBlock": "127.0.0.0/8"}, {"ipAddress": "192.0.2.7"}, {"cidrBlock": "198.51.100.0/24"}]},
  {"id": "` + listKey2 + `", "desc": "orgowner", "publicKey": "lorgowner", "privateKey": "lorgowner-secret", "roles": [{"orgId": "` + listOrgA + `", "roleName": "ORG_OWNER"}]},
  {"id": "6f4d00000000000000000003", "desc": "greader", "publicKey": "greader", "privateKey": "greader-secret", "roles": [{"roleName": "GLOBAL_READ_ONLY"}]},
  {"id": "` + listKeyG + `", "desc": "owner", "publicKey": "owner", "privateKey": "owner-secret", "roles": [{"roleName": "GLOBAL_OWNER"}]}
 ],
 "backupConfigs": [{"clusterId": "` + listC3 + `", "groupId": "` + listP1 + `", "statusName": "STARTED", "password": "pw"},
                   {"clusterId": "` + listC1 + `", "groupId": "` + listP1 + `", "statusName": "STOPPED"}],
 "snapshots": [
  {"id": "6f3c00000000000000000001", "groupId": "` + listP1 + `", "clusterId": "` + listC4 + `", "clusterName": "solo", "complete": true,
   "parts": [{"replicaSetName": "solo-rs", "typeName": "REPLICA_SET"}]},
  {"id": "6f3c00000000000000000002", "groupId": "` + listP1 + `", "clusterId": "` + listC3 + `", "complete": true,
   "parts": [{"replicaSetName": "s0", "typeName": "REPLICA_SET"}, {"replicaSetName": "cfg", "typeName": "CONFIG_SERVER_REPLICA_SET"}]}
 ],
 "oplogStores": [{"id": "oplog1", "uri": "mongodb://m", "assignmentEnabled": false}, {"id": "oplog2", "uri": "mongodb://m"}],
 "snapshotStores": [{"id": "blocks1", "uri": "h1:27017", "s3AuthMethod": "IAM_ROLE"}, {"id": "blocks2", "uri": "h2:27017", "assignmentEnabled": false, "awsAccessKey": "AK", "awsSecretKey": "SK"}]
}`

func init() {
	for k, v := range map[string]string{"lreader": "lreader-secret-0123456789ab", "lorgowner": "lorgowner-secret", "greader": "greader-secret"} {
		secrets[k] = v
	}
}

func newListEnv(t *testing.T) *env { return newEnvWith(t, listFixture) }

// ids are the ids of a list answer's results.
func ids(r response, field string) string {
	var out []string
	list, _ := r.body["results"].([]any)
	for _, it := range list {
		m, _ := it.(map[string]any)
		out = append(out, fmt.Sprint(m[field]))
	}
	return strings.Join(out, ",")
}

func TestListsThreeKeysSeeWhatTheirRolesRead(t *testing.T) {
	e := newListEnv(t)
	for _, c := range []struct {
		path             string
		reader, oo, glob string // ids listed, or "401 CODE"
	}{
		{"/groups", listP1, "", strings.Join([]string{listP2, listP1, listP3, listP4}, ",")},
		{"/groups/" + listP2, "401 NOT_IN_GROUP", "401 NOT_IN_GROUP", "200"},
		{"/orgs", listOrgA, listOrgA, strings.Join([]string{listOrgB, listOrgA, listOrgC}, ",")},
		{"/orgs/" + listOrgB, "401 USER_UNAUTHORIZED", "401 USER_UNAUTHORIZED", "200"},
		{"/orgs/" + listOrgA + "/groups", listP1, "", listP2 + "," + listP1},
		{"/groups/" + listP1 + "/clusters", "200", "401 NOT_IN_GROUP", "200"},
		{"/admin/backup/snapshot/s3Configs", "401 USER_UNAUTHORIZED", "401 USER_UNAUTHORIZED", "200"},
		{"/orgs/" + listOrgA + "/apiKeys", "401 USER_UNAUTHORIZED", listKey1 + "," + listKey2, "401 USER_UNAUTHORIZED"},
	} {
		for user, want := range map[string]string{"lreader": c.reader, "lorgowner": c.oo, "greader": c.glob} {
			r := e.do(user, "GET", c.path, nil)
			var got string
			switch {
			case r.status != 200:
				got = fmt.Sprintf("%d %s", r.status, r.str("errorCode"))
			case want == "200":
				got = "200"
			default:
				got = ids(r, "id")
			}
			if got != want {
				t.Errorf("%s as %s: %q, want %q (%s)", c.path, user, got, want, r.raw)
			}
		}
	}
}

func TestListProjectsShowsDefaultsAndPages(t *testing.T) {
	e := newListEnv(t)
	r := e.do("greader", "GET", "/groups?itemsPerPage=1&pageNum=2", nil)
	e.expect(r, 200, "")
	if ids(r, "id") != listP1 || r.get("totalCount") != 4.0 {
		t.Fatalf("page 2 of 1: %s", r.raw)
	}
	one := r.get("results", "0").(map[string]any)
	for k, want := range map[string]any{"name": "one", "orgId": listOrgA, "activeAgentCount": 0.0, "publicApiEnabled": true,
		"replicaSetCount": 0.0, "shardCount": 0.0} {
		if one[k] != want {
			t.Errorf("%s = %v, want %v", k, one[k], want)
		}
	}
	if hc, _ := one["hostCounts"].(map[string]any); len(hc) != 7 || hc["primary"] != 0.0 {
		t.Errorf("hostCounts: %v", one["hostCounts"])
	}
	if tags, ok := one["tags"].([]any); !ok || len(tags) != 0 {
		t.Errorf("tags: %v", one["tags"])
	}
	if r.str("results", "0", "links", "0", "href") != e.base+"/groups/"+listP1 {
		t.Errorf("self: %s", r.raw)
	}
	var rels []string
	for _, l := range r.body["links"].([]any) {
		rels = append(rels, l.(map[string]any)["rel"].(string))
	}
	if strings.Join(rels, ",") != "self,previous,next" {
		t.Errorf("links: %v", rels)
	}
	// The query is checked after the path: a project's 404 comes first.
	e.expect(e.do("greader", "GET", "/groups/6e2b0000000000000000ffff/clusters?itemsPerPage=0", nil), 404, "GROUP_NOT_FOUND")
	e.expect(e.do("greader", "GET", "/groups/nothex/clusters", nil), 404, "INVALID_GROUP_ID")
	e.expect(e.do("greader", "GET", "/groups?itemsPerPage=0", nil), 400, "INVALID_QUERY_PARAMETER")
	e.expect(e.do("greader", "GET", "/groups?includeCount=1", nil), 400, "INVALID_QUERY_PARAMETER")
	e.expect(e.do("greader", "GET", "/groups?includeCount=false", nil), 200, "")
	if r := e.do("greader", "GET", "/groups?includeCount=false", nil); r.get("totalCount") != 4.0 {
		t.Errorf("totalCount with includeCount=false: %s", r.raw)
	}
}

func TestProjectByName(t *testing.T) {
	e := newListEnv(t)
	// Two projects named "one": the first in list order.
	r := e.do("greader", "GET", "/groups/byName/one", nil)
	e.expect(r, 200, "")
	if r.str("id") != listP1 || r.str("links", "0", "href") != e.base+"/groups/"+listP1 {
		t.Errorf("byName/one: %s", r.raw)
	}
	e.expect(e.do("greader", "GET", "/groups/byName/ONE", nil), 404, "GROUP_NAME_NOT_FOUND")
	// Whatever the caller's roles: the name's 404 first, then the right to it.
	e.expect(e.do("lorgowner", "GET", "/groups/byName/nope", nil), 404, "GROUP_NAME_NOT_FOUND")
	e.expect(e.do("lreader", "GET", "/groups/byName/two", nil), 401, "NOT_IN_GROUP")
	e.expect(e.do("greader", "GET", "/groups/byName/", nil), 404, "RESOURCE_NOT_FOUND")
	// The ids beside byName keep their routes.
	e.expect(e.do("lreader", "GET", "/groups/"+listP1+"/clusters", nil), 200, "")
	r = e.do("greader", "GET", "/groups/byName/a%2Fb", nil)
	if r.status != 404 || r.str("errorCode") != "GROUP_NAME_NOT_FOUND" || r.get("parameters", "0") != "a/b" {
		t.Errorf("escaped slash: %s", r.raw)
	}
}

func TestListOrgsFiltersByNameWithoutCase(t *testing.T) {
	e := newListEnv(t)
	r := e.do("greader", "GET", "/orgs?name=ORG1", nil)
	if ids(r, "id") != listOrgB+","+listOrgA || r.get("totalCount") != 2.0 {
		t.Errorf("name=ORG1: %s", r.raw)
	}
	if r := e.do("greader", "GET", "/orgs?name=org", nil); ids(r, "id") != "" || r.get("totalCount") != 0.0 {
		t.Errorf("name=org is not a whole name: %s", r.raw)
	}
	if r := e.do("greader", "GET", "/orgs?name=", nil); r.get("totalCount") != 3.0 {
		t.Errorf("empty name: %s", r.raw)
	}
	// An organization named only by a project: name "".
	r = e.do("greader", "GET", "/orgs/"+listOrgC, nil)
	e.expect(r, 200, "")
	if v, ok := r.body["name"]; !ok || v != "" || r.str("links", "0", "href") != e.base+"/orgs/"+listOrgC {
		t.Errorf("derived org: %s", r.raw)
	}
	e.expect(e.do("greader", "GET", "/orgs/nothex", nil), 404, "ORG_NOT_FOUND")
	e.expect(e.do("greader", "GET", "/orgs/6e1a0000000000000000ffff/groups", nil), 404, "ORG_NOT_FOUND")
	e.expect(e.do("greader", "GET", "/orgs?includeDeletedOrgs=yes", nil), 400, "INVALID_QUERY_PARAMETER")
	e.expect(e.do("greader", "GET", "/orgs/"+listOrgA+"?includeDeletedOrgs=false", nil), 200, "")
	if r := e.do("greader", "GET", "/orgs/"+listOrgA+"/groups?name=TWO", nil); ids(r, "id") != listP2 {
		t.Errorf("org's projects by name: %s", r.raw)
	}
}

func TestClustersListedThenDerived(t *testing.T) {
	e := newListEnv(t)
	r := e.do("lreader", "GET", "/groups/"+listP1+"/clusters", nil)
	e.expect(r, 200, "")
	if got := ids(r, "id"); got != strings.Join([]string{listC2, listC1, listC3, listC4}, ",") {
		t.Fatalf("order: %s", got)
	}
	if got := ids(r, "typeName"); got != "SHARDED_REPLICA_SET,REPLICA_SET,SHARDED_REPLICA_SET,REPLICA_SET" {
		t.Errorf("typeName: %s", got)
	}
	if got := ids(r, "clusterName"); got != "big,big,<nil>,solo" {
		t.Errorf("clusterName: %s", got)
	}
	if got := ids(r, "replicaSetName"); got != "<nil>,big-0,<nil>,solo-rs" {
		t.Errorf("replicaSetName: %s", got)
	}
	if r.str("results", "0", "lastHeartbeat") != "2025-12-31T09:00:00Z" {
		t.Errorf("lastHeartbeat: %s", r.raw)
	}
	r = e.do("lreader", "GET", "/groups/"+listP1+"/clusters/"+listC4, nil)
	e.expect(r, 200, "")
	if r.str("links", "0", "href") != e.base+"/groups/"+listP1+"/clusters/"+listC4 || r.get("shardName") != nil || r.get("lastHeartbeat") != nil {
		t.Errorf("derived cluster: %s", r.raw)
	}
	e.expect(e.do("lreader", "GET", "/groups/"+listP1+"/clusters/nothex", nil), 404, "CLUSTER_NOT_FOUND")
	r = e.do("lreader", "GET", "/groups/"+listP1+"/clusters/6e3c0000000000000000ffff", nil)
	e.expect(r, 404, "CLUSTER_NOT_FOUND")
	if r.str("detail") != "No cluster with ID 6e3c0000000000000000ffff exists in group "+listP1+"." {
		t.Errorf("detail: %s", r.raw)
	}
	// No rights in the project: 401 whether or not the cluster exists.
	e.expect(e.do("lorgowner", "GET", "/groups/"+listP1+"/clusters/6e3c0000000000000000ffff", nil), 401, "NOT_IN_GROUP")
	// A listed cluster without snapshots has an empty snapshot list.
	r = e.do("lreader", "GET", "/groups/"+listP1+"/clusters/"+listC2+"/snapshots", nil)
	e.expect(r, 200, "")
	if r.get("totalCount") != 0.0 {
		t.Errorf("snapshots of a listed cluster: %s", r.raw)
	}
	e.expect(e.do("lreader", "GET", "/groups/"+listP1+"/clusters?backupJobsEnabledOnly=maybe", nil), 400, "INVALID_QUERY_PARAMETER")
}

func TestListBackupConfigsAndStores(t *testing.T) {
	e := newListEnv(t)
	r := e.do("lreader", "GET", "/groups/"+listP1+"/backupConfigs?backupJobsEnabledOnly=false", nil)
	e.expect(r, 200, "")
	if ids(r, "clusterId") != listC3+","+listC1 || strings.Contains(string(r.raw), "pw") {
		t.Errorf("backup configs: %s", r.raw)
	}
	if r.str("results", "1", "links", "0", "href") != e.base+"/groups/"+listP1+"/backupConfigs/"+listC1 {
		t.Errorf("self: %s", r.raw)
	}
	if r := e.do("greader", "GET", "/groups/"+listP3+"/backupConfigs", nil); r.status != 200 || r.get("totalCount") != 0.0 {
		t.Errorf("no configurations: %s", r.raw)
	}
	for path, want := range map[string]string{
		"/admin/backup/oplog/s3Configs":                                                  "oplog2",
		"/admin/backup/oplog/s3Configs?assignableOnly=false":                             "oplog1,oplog2",
		"/admin/backup/snapshot/s3Configs":                                               "blocks1",
		"/admin/backup/snapshot/s3Configs?assignableOnly=false":                          "blocks1,blocks2",
		"/admin/backup/snapshot/s3Configs?assignableOnly=false&itemsPerPage=1&pageNum=2": "blocks2",
	} {
		r := e.do("greader", "GET", path, nil)
		if ids(r, "id") != want {
			t.Errorf("%s: %s", path, r.raw)
		}
	}
	r = e.do("greader", "GET", "/admin/backup/snapshot/s3Configs?assignableOnly=false", nil)
	if r.get("totalCount") != 2.0 || r.get("results", "0", "loadFactor") == nil || r.get("results", "0", "awsAccessKey") != nil ||
		r.str("results", "1", "awsAccessKey") != "AK" || r.str("results", "1", "links", "0", "href") != e.base+"/admin/backup/snapshot/s3Configs/blocks2" {
		t.Errorf("stores as GET shows them: %s", r.raw)
	}
	if r := e.do("greader", "GET", "/admin/backup/oplog/s3Configs", nil); r.get("totalCount") != 1.0 {
		t.Errorf("totalCount counts after the filter: %s", r.raw)
	}
	e.expect(e.do("greader", "GET", "/admin/backup/oplog/s3Configs?assignableOnly=1", nil), 400, "INVALID_QUERY_PARAMETER")
}

func TestOrgAPIKeysAndAccessListEntries(t *testing.T) {
	e := newListEnv(t)
	base := "/orgs/" + listOrgA + "/apiKeys"
	r := e.do("lorgowner", "GET", base+"/"+listKey1, nil)
	e.expect(r, 200, "")
	pk := r.str("privateKey")
	if strings.Contains(pk, "lreader-secret") || len(pk) < 12 || r.str("links", "0", "href") != e.base+base+"/"+listKey1 {
		t.Errorf("key: %s", r.raw)
	}
	e.expect(e.do("lorgowner", "GET", base+"/"+listKeyG, nil), 404, "API_KEY_NOT_FOUND")
	e.expect(e.do("lorgowner", "GET", base+"/nothex", nil), 404, "API_KEY_NOT_FOUND")
	e.expect(e.do("lorgowner", "GET", "/orgs/"+listOrgB+"/apiKeys", nil), 401, "USER_UNAUTHORIZED")
	e.expect(e.do("owner", "GET", "/orgs/nothex/apiKeys", nil), 404, "ORG_NOT_FOUND")
	if r := e.do("owner", "GET", "/orgs/"+listOrgB+"/apiKeys", nil); r.status != 200 || r.get("totalCount") != 0.0 {
		t.Errorf("a global key is in no organization: %s", r.raw)
	}

	entries := base + "/" + listKey1 + "/accessList"
	r = e.do("lorgowner", "GET", entries+"/192.0.2.7", nil)
	e.expect(r, 200, "")
	if r.str("ipAddress") != "192.0.2.7" || r.str("cidrBlock") != "192.0.2.7/32" || r.str("links", "0", "href") != e.base+entries+"/192.0.2.7" {
		t.Errorf("address entry: %s", r.raw)
	}
	if r := e.do("lorgowner", "GET", entries+"/192.0.2.7%2F32", nil); r.str("ipAddress") != "192.0.2.7" {
		t.Errorf("the address's block names it: %s", r.raw)
	}
	r = e.do("lorgowner", "GET", entries+"/198.51.100.9%2f24", nil)
	if r.str("cidrBlock") != "198.51.100.0/24" || r.str("links", "0", "href") != e.base+entries+"/198.51.100.0%2F24" {
		t.Errorf("block entry: %s", r.raw)
	}
	e.expect(e.do("lorgowner", "GET", entries+"/198.51.100.0/24", nil), 404, "RESOURCE_NOT_FOUND")
	e.expect(e.do("lorgowner", "GET", entries+"/not-an-ip", nil), 400, "INVALID_IP_ADDRESS_OR_CIDR_NOTATION")
	r = e.do("lorgowner", "GET", entries+"/203.0.113.1", nil)
	e.expect(r, 404, "ACCESS_LIST_ENTRY_NOT_FOUND")
	if r.str("detail") != "No access list entry 203.0.113.1 exists for API key "+listKey1+"." {
		t.Errorf("detail: %s", r.raw)
	}
	e.expect(e.do("lreader", "DELETE", entries+"/192.0.2.7", nil), 401, "USER_UNAUTHORIZED")

	r = e.do("lorgowner", "DELETE", entries+"/192.0.2.7", nil)
	e.expect(r, 200, "")
	if strings.TrimSpace(string(r.raw)) != "{}" {
		t.Errorf("DELETE answers {}: %s", r.raw)
	}
	if r := e.do("lorgowner", "GET", entries, nil); ids(r, "cidrBlock") != "127.0.0.0/8,198.51.100.0/24" {
		t.Errorf("order kept: %s", r.raw)
	}
	e.expect(e.do("lorgowner", "DELETE", entries+"/192.0.2.7", nil), 404, "ACCESS_LIST_ENTRY_NOT_FOUND")
	// A key may remove the entry that admits it; an empty list admits all.
	e.expect(e.do("lorgowner", "DELETE", entries+"/127.0.0.0%2F8", nil), 200, "")
	e.expect(e.do("lreader", "GET", "/groups", nil), 403, "IP_ADDRESS_NOT_ON_ACCESS_LIST")
	e.expect(e.do("lorgowner", "DELETE", entries+"/198.51.100.0%2F24", nil), 200, "")
	e.expect(e.do("lreader", "GET", "/groups", nil), 200, "")
}

func TestClustersSurviveResetInOrder(t *testing.T) {
	e := newListEnv(t)
	before := ids(e.do("lreader", "GET", "/groups/"+listP1+"/clusters", nil), "id")
	if err := e.s.Reset(); err != nil {
		t.Fatal(err)
	}
	if after := ids(e.do("lreader", "GET", "/groups/"+listP1+"/clusters", nil), "id"); after != before {
		t.Errorf("after reset %s, before %s", after, before)
	}
}

// What the vendor's Go client reads and sends (docs/api.md).
func TestAnswersAsTheVendorClientReadsThem(t *testing.T) {
	e := newListEnv(t)
	r := e.do("owner", "POST", "/groups/"+listP1+"/apiKeys", map[string]any{"desc": "ci", "roles": []string{"GROUP_READ_ONLY"}})
	e.expect(r, 200, "")
	member := `{"orgId":"` + listOrgA + `","roleName":"ORG_MEMBER"}`
	if !strings.Contains(string(r.raw), member) {
		t.Errorf("creation answer lacks ORG_MEMBER: %s", r.raw)
	}
	if r := e.do("owner", "GET", "/orgs/"+listOrgA+"/apiKeys/"+r.str("id"), nil); !strings.Contains(string(r.raw), member) {
		t.Errorf("later answer lacks ORG_MEMBER: %s", r.raw)
	}

	cfg := map[string]any{"eventTypeName": "HOST_DOWN", "enabled": true, "notifications": []any{map[string]any{"typeName": "GROUP", "delayMin": 0, "intervalMin": 5}}}
	r = e.do("owner", "POST", "/groups/"+listP1+"/alertConfigs", cfg)
	e.expect(r, 200, "")
	if m, ok := r.body["matchers"].([]any); !ok || len(m) != 0 {
		t.Errorf("created configuration's matchers: %s", r.raw)
	}
	if r := e.do("owner", "GET", "/groups/"+listP1+"/alertConfigs", nil); !strings.Contains(string(r.raw), `"matchers":[]`) {
		t.Errorf("listed configuration's matchers: %s", r.raw)
	}

	entries := "/orgs/" + listOrgA + "/apiKeys/" + listKey2 + "/accessList"
	r = e.do("owner", "POST", entries, []any{map[string]any{"ipAddress": "203.0.113.5", "cidrBlock": "203.0.113.5/32"}})
	e.expect(r, 200, "")
	if r := e.do("owner", "GET", entries+"/203.0.113.5", nil); r.str("ipAddress") != "203.0.113.5" {
		t.Errorf("address entry sent with its block: %s", r.raw)
	}
	r = e.do("owner", "POST", entries, []any{map[string]any{"ipAddress": "203.0.113.6", "cidrBlock": "203.0.113.0/24"}})
	e.expect(r, 400, "INVALID_ATTRIBUTE")
	if r.get("parameters", "0") != "cidrBlock" {
		t.Errorf("names cidrBlock: %s", r.raw)
	}
}

func TestSnapshotExpiryAsADateIsMidnightUTC(t *testing.T) {
	e := newEnv(t)
	path := "/groups/" + projA + "/clusters/" + clusterA + "/snapshots/" + snapOK
	r := e.do("owner", "PATCH", path, map[string]any{"expires": "2026-03-01"})
	e.expect(r, 200, "")
	if r.str("expires") != "2026-03-01T00:00:00Z" {
		t.Errorf("expires: %s", r.raw)
	}
}
