package alert

import (
	"encoding/json"
	"time"
)

var start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// sampleAlert is an alert as a GET answers it, links included.
const sampleAlert = `{"id":"5f1a00000000000000000009","groupId":"5e2b0c2e8f9d4b0012340001","alertConfigId":"5f2a00000000000000000001",` +
	`"eventTypeName":"HOST_DOWN","status":"OPEN","created":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z",` +
	`"hostnameAndPort":"db1:27017","replicaSetName":"rs0","tags":["a"],"links":[{"href":"x","rel":"self"}]}`

// withMember is sampleAlert with one member set to a value (JSON), or
// left out when value is "".
func withMember(name, value string) string {
	var members map[string]json.RawMessage
	json.Unmarshal([]byte(sampleAlert), &members)
	delete(members, name)
	if value != "" {
		members[name] = json.RawMessage(value)
	}
	out, _ := json.Marshal(members)
	return string(out)
}
