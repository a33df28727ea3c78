package rules

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

func body(t *testing.T, s string) Doc {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var d Doc
	if err := dec.Decode(&d); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestCheckStoreOrder(t *testing.T) {
	const full = `"pathStyleAccessEnabled": true, "s3BucketEndpoint": "https://s3", "s3BucketName": "b", "sseEnabled": false, "uri": "mongodb://m"`
	cases := []struct {
		name string
		kind StoreKind
		op   StoreOp
		body string
		code string // "" for none
		on   string // the attribute named
	}{
		{"complete oplog store", OplogStore, Create, `{"id": "s", "acceptedTos": true, "s3MaxConnections": 5, ` + full + `}`, "", ""},
		{"unknown attribute before anything", OplogStore, Create, `{"bogus": 1, "acceptedTos": false}`, "INVALID_ATTRIBUTE", "bogus"},
		{"wrong type before acceptedTos", OplogStore, Create, `{"s3BucketName": 3, "acceptedTos": false}`, "INVALID_JSON_ATTRIBUTE", "s3BucketName"},
		{"acceptedTos false before missing fields", OplogStore, Create, `{"acceptedTos": false}`, "CANNOT_CREATE_STORE_WITHOUT_ACCEPTED_TOS", "acceptedTos"},
		{"a null required field is a wrong value, before acceptedTos", OplogStore, Create, `{"acceptedTos": false, "uri": null}`, "INVALID_JSON_ATTRIBUTE", "uri"},
		{"missing fields in name order", OplogStore, Create, `{"acceptedTos": true}`, "MISSING_ATTRIBUTE", "id"},
		{"empty id", OplogStore, Create, `{"id": "", "acceptedTos": true, "s3MaxConnections": 5, ` + full + `}`, "MISSING_ATTRIBUTE", "id"},
		{"oplog store needs s3MaxConnections", OplogStore, Create, `{"id": "s", "acceptedTos": true, ` + full + `}`, "MISSING_ATTRIBUTE", "s3MaxConnections"},
		{"snapshot store created without s3MaxConnections", SnapshotStore, Create, `{"id": "s", "acceptedTos": true, ` + full + `}`, "", ""},
		{"snapshot store replaced without s3MaxConnections", SnapshotStore, Replace, `{"acceptedTos": true, ` + full + `}`, "MISSING_ATTRIBUTE", "s3MaxConnections"},
		{"replacement repeats its id", OplogStore, Replace, `{"id": "other", "acceptedTos": true, "s3MaxConnections": 5, ` + full + `}`, "ATTRIBUTE_READ_ONLY", "id"},
		{"loadFactor is a snapshot store's", OplogStore, Create, `{"id": "s", "loadFactor": 2, "acceptedTos": true, "s3MaxConnections": 5, ` + full + `}`, "INVALID_ATTRIBUTE", "loadFactor"},
		{"positive s3MaxConnections", OplogStore, Create, `{"id": "s", "acceptedTos": true, "s3MaxConnections": 0, ` + full + `}`, "ATTRIBUTE_NEGATIVE_OR_ZERO", "s3MaxConnections"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckStore(body(t, c.body), c.kind, c.op, "s")
			switch {
			case c.code == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.code != "" && err == nil:
				t.Fatalf("accepted; want %s", c.code)
			case c.code != "" && (err.Code != c.code || len(err.Params) == 0 || err.Params[0] != c.on):
				t.Fatalf("got %s %v; want %s on %s", err.Code, err.Params, c.code, c.on)
			}
		})
	}
}

func TestCheckStoreDropsKeysOfAnIAMRole(t *testing.T) {
	b := body(t, `{"id": "s", "acceptedTos": true, "s3MaxConnections": 5, "s3AuthMethod": "IAM_ROLE", "cloudAccessKey": "AK", "awsSecretKey": "SK",
		"pathStyleAccessEnabled": true, "s3BucketEndpoint": "https://s3", "s3BucketName": "b", "sseEnabled": false, "uri": "mongodb://m"}`)
	if err := CheckStore(b, OplogStore, Create, ""); err != nil {
		t.Fatal(err)
	}
	for _, k := range StoreKeyFields {
		if _, kept := b[k]; kept {
			t.Errorf("%s kept with IAM_ROLE", k)
		}
	}
}

func TestOptionalNeitherRequiresNorRefuses(t *testing.T) {
	s := StoreBody(OplogStore, Create)
	if got := s.Required(); !slices.Equal(got, []string{"acceptedTos", "id", "pathStyleAccessEnabled", "s3BucketEndpoint", "s3BucketName", "s3MaxConnections", "sseEnabled", "uri"}) {
		t.Errorf("Required() = %v", got)
	}
	o := s.Optional()
	if got := o.Required(); len(got) != 0 {
		t.Errorf("Optional().Required() = %v", got)
	}
	if err := o.CheckFixture(body(t, `{"acceptedTos": false, "custom": 1}`), ""); err != nil {
		t.Errorf("a fixture store with acceptedTos false was refused: %v", err)
	}
	if s.Required() == nil || len(s["acceptedTos"].refusals) != 1 {
		t.Error("Optional changed the schema it copied")
	}
}

func TestCheckNormalizes(t *testing.T) {
	b := body(t, `{"expires": "2026-01-02T03:04:05.678+01:00", "doNotDelete": true, "links": []}`)
	if err := snapshotExpiryBody(b, nil).Check(b, "", nil); err != nil {
		t.Fatal(err)
	}
	if b["expires"] != "2026-01-02T02:04:05Z" {
		t.Errorf("expires = %v", b["expires"])
	}
	if _, kept := b["links"]; kept {
		t.Error("links kept")
	}
}

func TestEchoedFieldsMustBeUnchanged(t *testing.T) {
	current := Doc{"id": "a", "status": "OPEN"}
	for _, c := range []struct {
		body string
		ok   bool
	}{
		{`{"acknowledgedUntil": null, "status": "OPEN"}`, true},
		{`{"acknowledgedUntil": null, "status": "CLOSED"}`, false},
		{`{"acknowledgedUntil": null, "unknown": 1}`, false},
	} {
		b := body(t, c.body)
		err := acknowledgeBody(b, current).Check(b, "", current)
		if (err == nil) != c.ok {
			t.Errorf("%s: err = %v", c.body, err)
		}
	}
}

func TestAPIKeyRules(t *testing.T) {
	if CheckAPIKeyDesc("") == nil || CheckAPIKeyDesc(strings.Repeat("é", 251)) == nil {
		t.Error("a description of 0 or 251 characters was taken")
	}
	if err := CheckAPIKeyDesc(strings.Repeat("é", 250)); err != nil {
		t.Errorf("250 characters refused: %v", err)
	}
	valid, invalid := SplitAPIKeyRoles([]string{"GROUP_OWNER", "ORG_OWNER", "GROUP_READ_ONLY"})
	if !slices.Equal(valid, []string{"GROUP_OWNER", "GROUP_READ_ONLY"}) || !slices.Equal(invalid, []string{"ORG_OWNER"}) {
		t.Errorf("split: %v %v", valid, invalid)
	}
}

func TestAccessListEntry(t *testing.T) {
	for in, want := range map[string]string{
		`{"ipAddress": "10.0.0.1"}`:                            "10.0.0.1/32",
		`{"ipAddress": "::ffff:10.0.0.1"}`:                     "10.0.0.1/32",
		`{"cidrBlock": "10.1.2.3/16"}`:                         "10.1.0.0/16",
		`{"cidrBlock": "::ffff:10.0.0.0/104"}`:                 "10.0.0.0/8",
		`{"ipAddress": "10.0.0.1", "cidrBlock": "10.0.0.0/8"}`: "",
		`{}`:                     "",
		`{"ipAddress": "host"}`:  "",
		`{"cidrBlock": "10/99"}`: "",
	} {
		got, err := AccessListEntry(body(t, in))
		if got != want || (err == nil) != (want != "") {
			t.Errorf("%s: %q %v; want %q", in, got, err, want)
		}
	}
}

func TestAccessListKeyReadsEntriesAsTheAPIShowsThem(t *testing.T) {
	for in, want := range map[string]string{
		`{"ipAddress": "10.0.0.1", "cidrBlock": "10.0.0.1/32"}`: "10.0.0.1/32",
		`{"ipAddress": "10.0.0.1", "cidrBlock": ""}`:            "10.0.0.1/32",
		`{"cidrBlock": "::ffff:10.0.0.0/104", "count": 2}`:      "10.0.0.0/8",
		`{"count": 2}`: "",
	} {
		got, err := AccessListKey(body(t, in))
		if got != want || (err == nil) != (want != "") {
			t.Errorf("%s: %q %v; want %q", in, got, err, want)
		}
	}
	// The vendor's client sends an address with its own /32 block: the
	// address entry; a block that is not the address's own is refused.
	for in, want := range map[string]string{
		`{"ipAddress": "10.0.0.1", "cidrBlock": "10.0.0.1/32"}`:                "10.0.0.1/32",
		`{"ipAddress": "::ffff:10.0.0.1", "cidrBlock": "::ffff:10.0.0.1/128"}`: "10.0.0.1/32",
		`{"ipAddress": "2001:db8::1", "cidrBlock": "2001:db8::1/128"}`:         "2001:db8::1/128",
		`{"ipAddress": "10.0.0.1", "cidrBlock": "10.0.0.0/24"}`:                "INVALID_ATTRIBUTE",
		`{"ipAddress": "10.0.0.1", "cidrBlock": "10.0.0.2/32"}`:                "INVALID_ATTRIBUTE",
	} {
		got, err := AccessListEntry(body(t, in))
		if err != nil {
			got = err.Code
		}
		if got != want {
			t.Errorf("request entry %s: %q, want %q", in, got, want)
		}
	}
}

func TestFieldsDescribeThemselves(t *testing.T) {
	s := AlertConfigBody()
	if s["enabled"].Kind() != KindBool || !s["links"].Managed() || !s["id"].Managed() || s["eventTypeName"].Managed() {
		t.Error("kinds or managed flags of AlertConfigBody")
	}
	n := s["notifications"]
	if n.Kind() != KindArray || n.Elem().Kind() != KindObject || n.Elem().Attributes()["typeName"].Kind() != KindString {
		t.Error("notifications do not describe their elements")
	}
}

func TestBackupConfigChangesThatNeedAResync(t *testing.T) {
	current := Doc{"excludedNamespaces": []any{"db.a"}, "encryptionEnabled": false}
	for _, c := range []struct {
		body string
		code string
	}{
		{`{}`, "MISSING_ATTRIBUTE"},
		{`{"multiRegionBackupEnabled": true}`, "MISSING_ATTRIBUTE"},
		{`{"excludedNamespaces": ["db.a", "db.b"]}`, ""},
		{`{"excludedNamespaces": []}`, "SYNC_SOURCE_REQUIRED"},
		{`{"excludedNamespaces": [], "syncSource": "PRIMARY"}`, ""},
		{`{"includedNamespaces": ["db.c"]}`, "INVALID_ATTRIBUTE"},
		{`{"includedNamespaces": ["db.c"], "excludedNamespaces": [], "syncSource": "PRIMARY"}`, ""},
		{`{"encryptionEnabled": true}`, "SYNC_SOURCE_REQUIRED"},
		{`{"encryptionEnabled": true, "syncSource": ""}`, "SYNC_SOURCE_REQUIRED"},
	} {
		err := CheckBackupConfigChange(body(t, c.body), current)
		if got := ""; err != nil {
			got = err.Code
			if got != c.code {
				t.Errorf("%s: %s (%s), want %q", c.body, got, err.Detail, c.code)
			}
		} else if c.code != "" {
			t.Errorf("%s: accepted, want %s", c.body, c.code)
		}
	}
}

func TestAlertConfigRulesAcrossFields(t *testing.T) {
	for _, c := range []struct{ body, code string }{
		{`{"eventTypeName": "HOST_DOWN", "notifications": []}`, ""},
		{`{"eventTypeName": "host down", "notifications": []}`, "INVALID_ENUM_VALUE"},
		{`{"eventTypeName": "OUTSIDE_METRIC_THRESHOLD", "notifications": []}`, "MISSING_ATTRIBUTE"},
		{`{"eventTypeName": "HOST_DOWN", "matchers": [{"fieldName": "COLOR", "operator": "EQUALS", "value": "x"}], "notifications": []}`, "INVALID_ENUM_VALUE"},
		{`{"eventTypeName": "HOST_DOWN", "notifications": [{"typeName": "WEBHOOK", "webhookSecret": "s"}]}`, "MISSING_ATTRIBUTE"},
	} {
		err := CheckAlertConfig(body(t, c.body), nil)
		if (err == nil) != (c.code == "") || (err != nil && err.Code != c.code) {
			t.Errorf("%s: %v, want %q", c.body, err, c.code)
		}
	}
}

func TestKeepRedactedSecrets(t *testing.T) {
	current := Doc{"notifications": []any{map[string]any{"typeName": "SLACK", "apiToken": "xoxb-123456789"}}}
	b := body(t, `{"notifications": [{"typeName": "SLACK", "apiToken": "**********6789"}]}`)
	KeepRedactedSecrets(b, current)
	if got := b["notifications"].([]any)[0].(map[string]any)["apiToken"]; got != "xoxb-123456789" {
		t.Errorf("a redacted token sent back became %v", got)
	}
	b = body(t, `{"notifications": [{"typeName": "SLACK", "apiToken": "new-token"}]}`)
	KeepRedactedSecrets(b, current)
	if got := b["notifications"].([]any)[0].(map[string]any)["apiToken"]; got != "new-token" {
		t.Errorf("a new token became %v", got)
	}
}

func TestSchemaCheck(t *testing.T) {
	s := Schema{
		"name":  Str().Req(),
		"kind":  Str("A", "B"),
		"count": Integer().Pos(),
		"delay": Integer().Within(0, 10),
		"ratio": Number(),
		"at":    Timestamp(),
		"on":    Bool(),
		"tags":  Array(Str()),
		"items": Array(Object(Schema{"id": Str().Req()})),
		"note":  Str().OrNull(),
		"id":    ReadOnly(),
		"links": Ignored(),
	}
	for _, c := range []struct {
		in, code, param string
	}{
		{`{"name": "n"}`, "", ""},
		{`{"name": "n", "extra": 1}`, "INVALID_ATTRIBUTE", "extra"},
		{`{}`, "MISSING_ATTRIBUTE", "name"},
		{`{"name": null}`, "MISSING_ATTRIBUTE", "name"},
		{`{"name": 5}`, "INVALID_JSON_ATTRIBUTE", "name"},
		{`{"name": "n", "kind": "C"}`, "INVALID_ENUM_VALUE", "C"},
		{`{"name": "n", "count": 0}`, "ATTRIBUTE_NEGATIVE_OR_ZERO", "count"},
		{`{"name": "n", "count": 1.5}`, "INVALID_JSON_ATTRIBUTE", "count"},
		{`{"name": "n", "delay": 11}`, "INVALID_JSON_ATTRIBUTE", "delay"},
		{`{"name": "n", "at": "yesterday"}`, "INVALID_JSON_ATTRIBUTE", "at"},
		{`{"name": "n", "on": "true"}`, "INVALID_JSON_ATTRIBUTE", "on"},
		{`{"name": "n", "tags": ["a", 1]}`, "INVALID_JSON_ATTRIBUTE", "tags[1]"},
		{`{"name": "n", "items": [{"id": "a"}, {}]}`, "MISSING_ATTRIBUTE", "items[1].id"},
		{`{"name": "n", "note": null}`, "", ""},
		{`{"name": "n", "id": "same"}`, "", ""},
		{`{"name": "n", "id": "other"}`, "ATTRIBUTE_READ_ONLY", "id"},
		{`{"name": "n", "on": null}`, "INVALID_JSON_ATTRIBUTE", "on"},
	} {
		err := s.Check(body(t, c.in), "", Doc{"id": "same"})
		switch {
		case c.code == "" && err != nil:
			t.Errorf("%s: %v", c.in, err)
		case c.code != "" && (err == nil || err.Code != c.code || err.Params[0] != c.param):
			t.Errorf("%s: %v, want %s on %s", c.in, err, c.code, c.param)
		}
	}
}

func TestCheckNormalizesNumbersAndDropsIgnored(t *testing.T) {
	s := Schema{"count": Integer(), "ratio": Number(), "links": Ignored()}
	b := body(t, `{"count": 3.0, "ratio": 2.50, "links": [{"rel": "self"}]}`)
	if err := s.Check(b, "", nil); err != nil {
		t.Fatal(err)
	}
	if b["count"] != int64(3) || b["ratio"] != 2.5 {
		t.Errorf("numbers: %#v %#v", b["count"], b["ratio"])
	}
	if _, kept := b["links"]; kept {
		t.Error("an ignored attribute was kept")
	}
}

func TestCheckFixtureKeepsWhatTheAPIDoesNotName(t *testing.T) {
	s := Schema{"name": Str(), "id": ReadOnly(), "links": Ignored()}
	b := body(t, `{"name": "n", "id": "x", "links": [], "future": {"n": 1.0}}`)
	if err := s.CheckFixture(b, ""); err != nil {
		t.Fatal(err)
	}
	if b["id"] != "x" || b["links"] == nil || b["future"].(map[string]any)["n"] != int64(1) {
		t.Errorf("fixture members lost or not normalized: %v", b)
	}
	if err := s.CheckFixture(body(t, `{"name": 1}`), "orgs[0]."); err == nil || err.Params[0] != "orgs[0].name" {
		t.Errorf("a fixture's wrong type: %v", err)
	}
}

func TestErrorsCarryTheirProblem(t *testing.T) {
	if Invalidf("X", "x").Problem != Invalid || Conflictf("X", "x").Problem != Conflict {
		t.Error("problems")
	}
	if e := notInEnum("C", "kind", []string{"A", "B"}); e.Rule() != "An invalid enumeration value C was specified for kind; allowed values are A, B" || len(e.Allowed) != 2 {
		t.Errorf("NotInEnum: %q %v", e.Rule(), e.Allowed)
	}
}

func TestAnEmptyAddressIsAnInvalidOne(t *testing.T) {
	for _, in := range []string{`{"ipAddress": ""}`, `{"cidrBlock": ""}`, `{"ipAddress": "", "cidrBlock": null}`} {
		if _, err := AccessListEntry(body(t, in)); err == nil || err.Code != "INVALID_IP_ADDRESS_OR_CIDR_NOTATION" {
			t.Errorf("%s: %v", in, err)
		}
	}
}

func TestAcknowledgementsRunIntoTheFuture(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	current := Doc{"id": "a", "status": "OPEN"}
	for in, code := range map[string]string{
		`{"acknowledgedUntil": "2026-01-01T13:00:00Z", "acknowledgementComment": "swap"}`: "",
		`{"acknowledgedUntil": null}`:                   "",
		`{"acknowledgedUntil": "2026-01-01T12:00:00Z"}`: "INVALID_JSON_ATTRIBUTE",
		`{"acknowledgedUntil": "tomorrow"}`:             "INVALID_JSON_ATTRIBUTE",
		`{"status": "CLOSED"}`:                          "ATTRIBUTE_READ_ONLY",
	} {
		err := CheckAcknowledgement(body(t, in), current, now)
		if (err == nil) != (code == "") || (err != nil && err.Code != code) {
			t.Errorf("%s: %v, want %q", in, err, code)
		}
	}
}

func TestSnapshotExpiryRules(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	live := Doc{"id": "s", "expires": "2026-02-01T00:00:00Z"}
	gone := Doc{"id": "s", "expires": "2025-12-01T00:00:00Z"}
	for _, c := range []struct {
		in      string
		current Doc
		code    string
	}{
		{`{"expires": "2026-03-01T00:00:00Z"}`, live, ""},
		{`{"doNotDelete": true}`, gone, ""},
		{`{}`, live, "MISSING_ONE_OF_ATTRIBUTES"},
		{`{"expires": "2026-03-01T00:00:00Z"}`, gone, "SNAPSHOT_EXPIRY_IN_PAST"},
	} {
		err := CheckSnapshotExpiry(body(t, c.in), c.current, now)
		if (err == nil) != (c.code == "") || (err != nil && err.Code != c.code) {
			t.Errorf("%s on %v: %v, want %q", c.in, c.current, err, c.code)
		}
	}
}

func TestCheckAPIKeyAndAccessListBodies(t *testing.T) {
	desc, roles, err := CheckAPIKey(body(t, `{"desc": "ci", "roles": ["GROUP_READ_ONLY", "GROUP_OWNER"]}`))
	if err != nil || desc != "ci" || !slices.Equal(roles, []string{"GROUP_READ_ONLY", "GROUP_OWNER"}) {
		t.Errorf("a good key: %q %v %v", desc, roles, err)
	}
	for in, code := range map[string]string{
		`{"desc": "", "roles": ["GROUP_OWNER"]}`:           "INVALID_API_KEY_DESC",
		`{"desc": "ci", "roles": ["ORG_OWNER"]}`:           "MISSING_API_KEY_ROLES",
		`{"desc": "ci", "roles": ["GROUP_OWNER", "ROOT"]}`: "INVALID_ENUM_VALUE",
		`{"desc": "ci", "roles": "GROUP_OWNER"}`:           "INVALID_JSON_ATTRIBUTE",
	} {
		if _, _, err := CheckAPIKey(body(t, in)); err == nil || err.Code != code {
			t.Errorf("%s: %v, want %s", in, err, code)
		}
	}
	var list any
	json.Unmarshal([]byte(`[{"ipAddress": "10.0.0.1"}, {"cidrBlock": "10.1.0.0/16"}]`), &list)
	if entries, canon, err := AccessListEntries(list); err != nil || len(entries) != 2 || !slices.Equal(canon, []string{"10.0.0.1/32", "10.1.0.0/16"}) {
		t.Errorf("a good list: %v %v", canon, err)
	}
	for in, code := range map[string]string{
		`{"ipAddress": "10.0.0.1"}`: "INVALID_JSON",
		`[]`:                        "MISSING_ONE_OF_ATTRIBUTES",
		`["10.0.0.1"]`:              "INVALID_JSON",
		`[{"ipAddress": 5}]`:        "INVALID_JSON_ATTRIBUTE",
		`[{"ipAddress": "x"}]`:      "INVALID_IP_ADDRESS_OR_CIDR_NOTATION",
	} {
		var v any
		json.Unmarshal([]byte(in), &v)
		if _, _, err := AccessListEntries(v); err == nil || err.Code != code {
			t.Errorf("%s: %v, want %s", in, err, code)
		}
	}
}

func TestSameValueChangesNeitherValue(t *testing.T) {
	stored := map[string]any{"n": json.Number("3.0"), "list": []any{json.Number("1")}}
	if !SameValue(stored, map[string]any{"n": int64(3), "list": []any{1.0}}) {
		t.Fatal("3.0 and 3 are the same value")
	}
	if _, still := stored["n"].(json.Number); !still {
		t.Errorf("comparing rewrote the stored value: %#v", stored)
	}
	if _, still := stored["list"].([]any)[0].(json.Number); !still {
		t.Errorf("comparing rewrote the stored array: %#v", stored)
	}
	if SameValue(stored, map[string]any{"n": int64(4), "list": []any{1.0}}) {
		t.Error("3 and 4 are not the same value")
	}
}

// Every redacted form the server shows (RedactNotification), and the
// journal's, is found, by path; real values are not.
func TestRedactedSecretsFindsWhatTheServerShowsRedacted(t *testing.T) {
	shown := RedactNotification(Doc{"typeName": "WEBHOOK", "webhookUrl": "https://h.example.com/a/b", "webhookSecret": "s"})
	slack := RedactNotification(Doc{"typeName": "SLACK", "apiToken": "xoxb-1234567890", "channelName": "#ops"})
	body := map[string]any{"notifications": []any{map[string]any(shown), map[string]any(slack),
		map[string]any{"typeName": "PAGER_DUTY", "serviceKey": "real-key"}},
		"cloudSecretKey": JournalRedacted, "uri": "****"}
	got := RedactedSecrets(body)
	want := []string{"cloudSecretKey", "notifications[0].webhookSecret", "notifications[0].webhookUrl", "notifications[1].apiToken"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("RedactedSecrets = %v, want %v", got, want)
	}
}

// A fault's body is checked whole, as the server reads it: each broken
// rule names its attribute.
func TestCheckFaultNamesTheAttribute(t *testing.T) {
	for _, c := range []struct{ body, code, param string }{
		{`{"path": "/x", "status": 503, "errorCode": "X", "retryAfter": 1, "delay": "1s", "times": 2, "probability": 0.5}`, "", ""},
		{`{"path": "x"}`, "INVALID_JSON_ATTRIBUTE", "path"},
		{`{"path": "/a**"}`, "INVALID_JSON_ATTRIBUTE", "path"},
		{`{"path": "/x", "delay": "61s"}`, "INVALID_JSON_ATTRIBUTE", "delay"},
		{`{"path": "/x", "delay": "-1s"}`, "INVALID_JSON_ATTRIBUTE", "delay"},
		{`{"path": "/x", "status": 503, "errorCode": "lower"}`, "INVALID_JSON_ATTRIBUTE", "errorCode"},
		{`{"path": "/x", "errorCode": "X"}`, "MISSING_ATTRIBUTE", "status"},
		{`{"path": "/x", "retryAfter": 3}`, "MISSING_ATTRIBUTE", "status"},
		{`{"path": "/x", "status": 503, "reset": true}`, "INVALID_JSON_ATTRIBUTE", "reset"},
		{`{"path": "/x", "times": 0}`, "INVALID_JSON_ATTRIBUTE", "times"},
	} {
		err := CheckFault(body(t, c.body))
		switch {
		case c.code == "" && err != nil:
			t.Errorf("%s: %v", c.body, err)
		case c.code != "" && (err == nil || err.Code != c.code || len(err.Params) == 0 || err.Params[0] != c.param):
			t.Errorf("%s: %v, want %s naming %s", c.body, err, c.code, c.param)
		}
	}
}
