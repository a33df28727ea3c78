package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/engine"
)

func TestCreateAPIKeyThenUseIt(t *testing.T) {
	e := newEnv(t)
	r := e.do("owner", "POST", "/groups/"+projA+"/apiKeys", map[string]any{"desc": "ci job", "roles": []any{"GROUP_READ_ONLY"}})
	e.expect(r, 200, "")
	pub, priv := r.str("publicKey"), r.str("privateKey")
	if len(priv) != 36 || strings.Contains(priv, "*") || r.str("roles", "0", "roleName") != "GROUP_READ_ONLY" || r.str("roles", "0", "groupId") != projA {
		t.Fatalf("created = %s", r.raw)
	}
	c := &http.Client{Transport: client.DigestTransport(pub, priv, nil)}
	res, err := c.Get(e.base + "/groups/" + projA + "/alerts")
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("new key: %v %v", err, res.StatusCode)
	}
	res.Body.Close()
	req, _ := http.NewRequest("PATCH", e.base+"/groups/"+projA+"/alerts/"+alertHost, strings.NewReader(`{}`))
	res, _ = c.Do(req)
	if res.StatusCode != 401 {
		t.Errorf("read-only key could write: %d", res.StatusCode)
	}
	res.Body.Close()
}

func TestAPIKeyRules(t *testing.T) {
	e := newEnv(t)
	path := "/groups/" + projA + "/apiKeys"
	for _, c := range []struct {
		body any
		code string
	}{
		{map[string]any{"desc": "", "roles": []any{"GROUP_OWNER"}}, "INVALID_API_KEY_DESC"},
		{map[string]any{"roles": []any{"GROUP_OWNER"}}, "INVALID_API_KEY_DESC"},
		{map[string]any{"desc": strings.Repeat("ü", 251), "roles": []any{"GROUP_OWNER"}}, "INVALID_API_KEY_DESC"},
		{map[string]any{"desc": "x"}, "MISSING_API_KEY_ROLES"},
		{map[string]any{"desc": "x", "roles": []any{"BOSS"}}, "MISSING_API_KEY_ROLES"},
		{map[string]any{"desc": "x", "roles": []any{"GROUP_OWNER", "BOSS"}}, "INVALID_ENUM_VALUE"},
		{map[string]any{"desc": "x", "roles": "GROUP_OWNER"}, "INVALID_JSON_ATTRIBUTE"},
	} {
		e.expect(e.do("owner", "POST", path, c.body), 400, c.code)
	}
	e.expect(e.do("owner", "POST", path, map[string]any{"desc": strings.Repeat("ü", 250), "roles": []any{"GROUP_OWNER"}}), 200, "")
}

func TestAtMost500KeysPerOrganization(t *testing.T) {
	e := newEnv(t)
	// The fixture's org A has 4 keys (reader, monitor, orgowner, listed).
	e.s.store.Update(func(st *engine.Tx) {
		for i := 0; i < rules.MaxAPIKeysPerOrg-4; i++ {
			if _, err := st.CreateAPIKey(projA, fmt.Sprintf("key %d", i), []string{"GROUP_READ_ONLY"}, start); err != nil {
				t.Fatalf("key %d: %v", i, err)
			}
		}
	})
	e.expect(e.do("owner", "POST", "/groups/"+projA+"/apiKeys", map[string]any{"desc": "one too many", "roles": []any{"GROUP_OWNER"}}), 409, "TOO_MANY_API_KEYS")
	e.expect(e.do("owner", "POST", "/groups/"+projB+"/apiKeys", map[string]any{"desc": "other org", "roles": []any{"GROUP_OWNER"}}), 200, "")
}

func TestAccessListMergesAndChecks(t *testing.T) {
	e := newEnv(t)
	path := "/orgs/" + orgA + "/apiKeys/" + keyListed + "/accessList"
	r := e.do("owner", "POST", path, []any{map[string]any{"ipAddress": "192.0.2.7"}, map[string]any{"cidrBlock": "10.0.0.0/8"}, map[string]any{"cidrBlock": "198.51.100.9/24"}})
	e.expect(r, 200, "")
	if r.get("totalCount") != 3.0 {
		t.Errorf("merged list = %s", r.raw)
	}
	got := []string{}
	for _, it := range r.get("results").([]any) {
		m := it.(map[string]any)
		got = append(got, fmt.Sprint(m["ipAddress"], " ", m["cidrBlock"], " ", m["count"]))
	}
	if strings.Join(got, "|") != "<nil> 10.0.0.0/8 0|192.0.2.7 192.0.2.7/32 0|<nil> 198.51.100.0/24 0" {
		t.Errorf("entries = %v", got)
	}
	for _, c := range []struct {
		body any
		code string
	}{
		{map[string]any{"ipAddress": "192.0.2.8"}, "INVALID_JSON"},
		{[]any{map[string]any{}}, "MISSING_ONE_OF_ATTRIBUTES"},
		{[]any{map[string]any{"ipAddress": "192.0.2.8", "cidrBlock": "192.0.2.0/24"}}, "INVALID_ATTRIBUTE"},
		{[]any{map[string]any{"ipAddress": "192.0.2.8", "cidrBlock": "192.0.2.9/32"}}, "INVALID_ATTRIBUTE"},
		{[]any{map[string]any{"ipAddress": "999.1.1.1"}}, "INVALID_IP_ADDRESS_OR_CIDR_NOTATION"},
		{[]any{map[string]any{"cidrBlock": "10.0.0.0/40"}}, "INVALID_IP_ADDRESS_OR_CIDR_NOTATION"},
		{[]any{map[string]any{"ipAddress": 7}}, "INVALID_JSON_ATTRIBUTE"},
		{[]any{map[string]any{"ip": "1.1.1.1"}}, "INVALID_ATTRIBUTE"},
		{[]any{}, "MISSING_ONE_OF_ATTRIBUTES"},
	} {
		e.expect(e.do("owner", "POST", path, c.body), 400, c.code)
	}
	// A refused request adds nothing, even its valid entries.
	e.expect(e.do("owner", "POST", path, []any{map[string]any{"ipAddress": "203.0.113.1"}, map[string]any{"ipAddress": "bad"}}), 400, "INVALID_IP_ADDRESS_OR_CIDR_NOTATION")
	if r := e.do("owner", "GET", path, nil); r.get("totalCount") != 3.0 {
		t.Errorf("partial add kept: %s", r.raw)
	}
	e.expect(e.do("owner", "POST", "/orgs/"+orgB+"/apiKeys/"+keyListed+"/accessList", []any{map[string]any{"ipAddress": "1.1.1.1"}}), 404, "API_KEY_NOT_FOUND")
	e.expect(e.do("owner", "POST", "/orgs/5e1a0000000000000000ffff/apiKeys/"+keyListed+"/accessList", []any{map[string]any{"ipAddress": "1.1.1.1"}}), 404, "ORG_NOT_FOUND")
}
