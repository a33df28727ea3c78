package alert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/api"
)

const projA = "5e2b00000000000000000001"

func TestCanonicalAlertsDropWhatTheyDoNotShow(t *testing.T) {
	raw := `{"id":"5f1a00000000000000000009","groupId":"` + projA + `","eventTypeName":"BACKUP","status":"OPEN",` +
		`"created":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z","resolved":"2026-01-01T00:00:00Z",` +
		`"hostnameAndPort":"db1:27017","replicaSetName":"rs0","futureField":{"kept":[1,2]}}`
	a, err := parseAlert([]byte(raw), &arena{})
	if err != nil {
		t.Fatal(err)
	}
	d := a.Doc()
	if _, has := d["hostnameAndPort"]; has {
		t.Errorf("a BACKUP alert shows hostnameAndPort: %s", a.Raw)
	}
	if _, has := d["resolved"]; has {
		t.Errorf("an OPEN alert shows resolved: %s", a.Raw)
	}
	if d["replicaSetName"] != "rs0" || !strings.Contains(string(a.Raw), `"futureField":{"kept":[1,2]}`) {
		t.Errorf("lost a field: %s", a.Raw)
	}
}

// The engine finds an active alert by its target's identity, read once:
// however the alert was read, it is the one its stored members give.
func TestAnAlertKnowsItsTargetHoweverItWasRead(t *testing.T) {
	const head = `{"id":"5f1a00000000000000000009","groupId":"` + projA + `","alertConfigId":"5f2a00000000000000000001",` +
		`"created":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z",`
	for _, c := range []struct{ rest, identity string }{
		{`"eventTypeName":"HOST_DOWN","status":"OPEN","hostId":"h1","hostnameAndPort":"db1:27017"}`, "h1"},
		{`"eventTypeName":"HOST_DOWN","status":"TRACKING","hostnameAndPort":"db1:27017","replicaSetName":"rs0"}`, "db1:27017"},
		// BACKUP does not show hostnameAndPort: the replica set names it.
		{`"eventTypeName":"BACKUP","status":"OPEN","hostnameAndPort":"db1:27017","replicaSetName":"rs0"}`, "rs0"},
		{`"eventTypeName":"HOST_DOWN","status":"OPEN","hostId":7,"hostnameAndPort":"db1:27017"}`, "db1:27017"},
		{`"eventTypeName":"HOST_DOWN","status":"OPEN"}`, ""},
		// One that can no longer be active needs none.
		{`"eventTypeName":"HOST_DOWN","status":"CLOSED","hostnameAndPort":"db1:27017"}`, ""},
	} {
		a, err := parseAlert([]byte(head+c.rest), &arena{})
		if err != nil {
			t.Fatalf("%s: %v", c.rest, err.Rule())
		}
		if a.identity != c.identity {
			t.Errorf("%s: read as %q, want %q", c.rest, a.identity, c.identity)
		}
		if again := NewDoc(a.Doc()); again.identity != c.identity {
			t.Errorf("%s: made as %q, want %q", c.rest, again.identity, c.identity)
		}
	}
}

// Setting the status and times by patching the JSON gives the alert that
// decoding, setting and encoding gives, and touches only top-level members.
func TestStatusAndTimesAreSetAsMembersOfTheAlert(t *testing.T) {
	for _, raw := range []string{
		`{"id":"5f1a00000000000000000009","groupId":"` + projA + `","alertConfigId":"5f2a00000000000000000001","eventTypeName":"HOST_DOWN","status":"OPEN","created":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z","hostnameAndPort":"db1:1","futureField":{"lastNotified":"kept","status":"kept"}}`,
		`{"id":"5f1a00000000000000000009","groupId":"` + projA + `","eventTypeName":"HOST_DOWN","status":"OPEN","created":"2026-01-01T00:00:00Z","lastNotified":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z","tags":["lastNotified"]}`,
	} {
		a, err := parseAlert([]byte(raw), &arena{})
		if err != nil {
			t.Fatal(err.Rule())
		}
		before := string(a.Raw)
		got := a.WithTimes("status", "CLOSED", "updated", "2026-01-01T00:05:00Z", "resolved", "2026-01-01T00:05:00Z", "lastNotified", "2026-01-01T00:05:00Z")
		want := a.With(func(d doc) {
			d["status"], d["updated"], d["resolved"], d["lastNotified"] = "CLOSED", "2026-01-01T00:05:00Z", "2026-01-01T00:05:00Z", "2026-01-01T00:05:00Z"
		})
		if fmt.Sprint(got.Doc()) != fmt.Sprint(want.Doc()) || got.alertFields != want.alertFields {
			t.Errorf("patched %s\nwant    %s", got.Raw, want.Raw)
		}
		if string(a.Raw) != before {
			t.Errorf("the alert it came from changed: %s", a.Raw)
		}
	}
}

// An alert whose status is written twice is written anew when it is read,
// so that patching its status later cannot leave another copy behind; a
// member in other letter case is a member the API does not name, kept.
func TestAlertsWithARepeatedStatusAreWrittenAnew(t *testing.T) {
	const head = `{"id":"5f1a00000000000000000009","groupId":"` + projA + `","eventTypeName":"HOST_DOWN","created":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z",`
	for _, raw := range []string{
		head + `"status":"OPEN","status":"OPEN"}`,
		head + `"STATUS":"OPEN","status":"OPEN"}`,
	} {
		a, err := parseAlert([]byte(raw), &arena{})
		if err != nil {
			continue // refused, which is as good
		}
		closed := a.WithTimes("status", api.StatusClosed)
		if n := strings.Count(string(closed.Raw), `"status":`); n != 1 || closed.Doc()["status"] != api.StatusClosed {
			t.Errorf("%s: closed as %s", raw, closed.Raw)
		}
	}
}

// Members an alert does not show are cut out of its JSON where they are
// written, first, between others or last, the rest kept as written.
func TestMembersCutOutWhereTheyAreWritten(t *testing.T) {
	const times = `"created":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z"`
	for _, c := range []struct{ raw, want string }{
		{`{"hostId":"h1","id":"5f1a00000000000000000009","status":"OPEN","eventTypeName":"BACKUP",` + times + `}`,
			`{"id":"5f1a00000000000000000009","status":"OPEN","eventTypeName":"BACKUP",` + times + `}`},
		{`{"id":"5f1a00000000000000000009","status":"OPEN","resolved":"2026-01-01T00:00:00Z","eventTypeName":"BACKUP","z":[1,{"hostId":2}],` + times + `}`,
			`{"id":"5f1a00000000000000000009","status":"OPEN","eventTypeName":"BACKUP","z":[1,{"hostId":2}],` + times + `}`},
		{` { "id" : "5f1a00000000000000000009", "status":"OPEN","eventTypeName":"BACKUP",` + times + ` , "metricName" : "CONNECTIONS" ,"hostId":"h"} `,
			`{"id":"5f1a00000000000000000009","status":"OPEN","eventTypeName":"BACKUP",` + times + `}`},
	} {
		a, err := parseAlert([]byte(c.raw), &arena{})
		if err != nil {
			t.Fatalf("%s: %s", c.raw, err.Rule())
		}
		if string(a.Raw) != c.want {
			t.Errorf("%s\nstored as %s\nwant      %s", c.raw, a.Raw, c.want)
		}
	}
}

// FuzzAppendCompactAgreesWithEncodingJSON: valid JSON is compacted as
// json.Compact compacts it.
func FuzzAppendCompactAgreesWithEncodingJSON(f *testing.F) {
	for _, seed := range []string{sampleAlert, " {\n  \"a\" : [ 1 , \"x \\\" y\" ,{ } ] ,\t\"b\\\\\" : \"\\\\\" }\r\n", `"  "`, ` 1 `, `[]`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if !json.Valid(src) {
			return
		}
		var want bytes.Buffer
		if err := json.Compact(&want, src); err != nil {
			t.Fatal(err)
		}
		if got := appendCompact([]byte("x"), src); string(got) != "x"+want.String() {
			t.Errorf("%q compacted to %q, want %q", src, got[1:], want.String())
		}
	})
}
