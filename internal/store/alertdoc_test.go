package store

import (
	"strings"
	"testing"
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
