package alert

import (
	"fmt"
	"testing"

	"github.com/omctl/omctl/internal/api"
)

// An alert a fixture may hold, however it is written, once read and then
// closed by the engine's patch, says what decoding it, closing it and
// encoding it again says: patching never leaves another copy of a member
// for a reader to find.
func FuzzReadAndCloseAnAlert(f *testing.F) {
	const head = `{"id":"5f1a00000000000000000009","groupId":"5e2b00000000000000000001","eventTypeName":"HOST_DOWN","created":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z",`
	f.Add([]byte(head + `"status":"OPEN"}`))
	f.Add([]byte(head + `"status":"OPEN","status":"OPEN"}`))
	f.Add([]byte(head + `"STATUS":"OPEN","status":"TRACKING","lastNotified":"2026-01-01T00:00:00Z"}`))
	f.Add([]byte(head + `"status":"OPEN","x":{"status":"a\"status\":"},"resolved":null}`))
	f.Add([]byte(head + `"status":"OPEN","st\u0061tus":"CLOSED"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, err := parseAlert(raw, &arena{})
		if err != nil {
			return
		}
		const at = "2026-01-02T00:00:00Z"
		got := a.WithTimes("status", api.StatusClosed, "updated", at, "resolved", at, "lastNotified", at)
		want := a.With(func(d doc) {
			d["status"], d["updated"], d["resolved"], d["lastNotified"] = api.StatusClosed, at, at, at
		})
		if fmt.Sprint(got.Doc()) != fmt.Sprint(want.Doc()) || got.alertFields != want.alertFields {
			t.Fatalf("read %s\npatched %s\nwant    %s", raw, got.Raw, want.Raw)
		}
	})
}
