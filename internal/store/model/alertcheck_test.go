package model

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/fixture/fixturetest"
)

const checkedAlert = fixturetest.CheckedAlert

func withMember(name, value string) string { return fixturetest.WithMember(name, value) }

// checkAgreesWithTheLoader checks the items of a list with AlertCheck and
// with the fixture loader, and fails unless both refuse the same first
// item for the same rule, or both take them all. It returns the loader's
// error.
func checkAgreesWithTheLoader(t *testing.T, key string, items ...string) error {
	t.Helper()
	// The engine's rule of one active alert a configuration and target is
	// the caller's (CheckActive): the loader's own rules are compared.
	_, loaded := fixture.ParseStateData("f.json", []byte(fixturesWith(`"`+key+`": [`+strings.Join(items, ", ")+`]`)))
	c := fixture.NewAlertCheck(key, []string{testProject})
	var checked error
	for i, it := range items {
		if err := c.Check([]byte(it)); err != nil {
			checked = fmt.Errorf("f.json: %s[%d]: %v", key, i, err)
			break
		}
	}
	if fmt.Sprint(checked) != fmt.Sprint(loaded) {
		t.Errorf("%s %s:\nthe check says %v\nthe loader says %v", key, strings.Join(items, ", "), checked, loaded)
	}
	return loaded
}

// Whatever alert the loader refuses the check refuses, for the same
// reason, and what the loader takes the check takes: a table of the ways
// an alert goes wrong, and some it may look wrong but is not.
func TestAlertCheckAgreesWithTheLoader(t *testing.T) {
	refused := map[string]string{
		withMember("status", `"BOGUS"`):                  "value BOGUS was specified for status",
		withMember("status", ""):                         "required attribute status was not specified",
		withMember("status", `null`):                     "required attribute status",
		withMember("eventTypeName", ""):                  "required attribute eventTypeName",
		withMember("eventTypeName", `7`):                 "eventTypeName attribute does not match expected format: want a string",
		withMember("id", `"5f1a"`):                       "id 5f1a must be 24 hexadecimal digits",
		withMember("id", `"5f1a0000000000000000000g"`):   "must be 24 hexadecimal digits",
		withMember("id", `5`):                            "must be 24 hexadecimal digits",
		withMember("id", ""):                             "must be 24 hexadecimal digits",
		withMember("groupId", `"`+testOther+`"`):         "is not a project of the fixtures",
		withMember("groupId", ""):                        "groupId  must be 24 hexadecimal digits",
		withMember("created", `"yesterday"`):             `"yesterday" is not an ISO 8601 timestamp`,
		withMember("created", `"2026-02-30T00:00:00Z"`):  `"2026-02-30T00:00:00Z" is not an ISO 8601 timestamp`,
		withMember("updated", `12`):                      "updated attribute",
		withMember("acknowledgedUntil", `"never"`):       "acknowledgedUntil attribute",
		withMember("metricName", `"NOT_A_METRIC"`):       "NOT_A_METRIC was specified for metricName",
		withMember("currentValue", `{"units":"LITRES"}`): "LITRES was specified for currentValue.units",
		withMember("currentValue", `{"number":"five"}`):  "currentValue.number",
		withMember("currentValue", `[]`):                 "currentValue",
		withMember("tags", `[1]`):                        "tags[0] attribute",
		withMember("tags", `"a"`):                        "tags attribute",
		// encoding/json would read this into the fast path's fields; the
		// schema refuses it, and so the loader, whichever path it takes.
		withMember("currentValue", `{"number":"5","units":"RAW"}`):                                                              "Received JSON for the currentValue.number attribute does not match expected format: want a number (in alert 5f1a00000000000000000009)",
		`{"id":"5f1a00000000000000000009","status":"OPEN","status":"NOPE","eventTypeName":"X","groupId":"` + testProject + `"}`: "value NOPE was specified for status",
		`[]`:   "must be an object",
		`null`: "must be an object",
		`"a"`:  "must be an object",
	}
	for raw, want := range refused {
		for _, key := range []string{"alerts", "globalAlerts"} {
			err := checkAgreesWithTheLoader(t, key, raw)
			if key == "globalAlerts" && raw == withMember("groupId", "") {
				continue // a global alert need not name a project
			}
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s %s: the loader says %v, want a refusal naming %q", key, raw, err, want)
			}
		}
	}
	taken := []string{
		checkedAlert,
		withMember("eventTypeName", `"A_TYPE_OF_NEXT_YEAR"`), // any event type: the API adds some
		withMember("id", `"5F1A00000000000000000009"`),
		withMember("created", `"2026-01-01T01:00:00+01:00"`), // not as the server writes it: the schema's path
		withMember("eventTypeName", `""`),                    // the schema asks for a string
		withMember("currentValue", `{"number":5.0,"units":"RAW"}`),
		withMember("hostId", `null`),
		// null for tags, a tag, or a member of currentValue is no value,
		// as older versions took it (docs/server.md, Fixture file)
		withMember("tags", `null`),
		withMember("tags", `[null,"a"]`),
		withMember("currentValue", `{"number":null,"units":"RAW"}`),
		withMember("currentValue", `{"number":1,"units":null}`),
		withMember("STATUS", `"BOGUS"`),                               // a member the API does not name, kept
		strings.Replace(checkedAlert, `"status"`, `"st\u0061tus"`, 1), // the decoder's status
		`{"id":"5f1a00000000000000000009","groupId":"` + testProject + `","eventTypeName":"HOST_DOWN","status":"CLOSED",` + "\n\t" +
			`"created":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z","x":{"status":"a\"status\":"}}`,
	}
	for _, raw := range taken {
		if err := checkAgreesWithTheLoader(t, "alerts", raw); err != nil {
			t.Errorf("%s: %v, want it taken", raw, err)
		}
	}
	// The rules of the list: an id once, a project of the fixtures, which
	// a global alert may leave out.
	other := withMember("id", `"5f1a00000000000000000010"`)
	if err := checkAgreesWithTheLoader(t, "alerts", checkedAlert, other, checkedAlert); err == nil || !strings.Contains(err.Error(), "alerts[2]: id 5f1a00000000000000000009 appears twice") {
		t.Errorf("an id twice: %v", err)
	}
	if err := checkAgreesWithTheLoader(t, "alerts", checkedAlert, withMember("id", `"5F1A00000000000000000009"`)); err != nil {
		t.Errorf("ids that differ in letter case are two ids: %v", err)
	}
	if err := checkAgreesWithTheLoader(t, "globalAlerts", withMember("groupId", ""), other); err != nil {
		t.Errorf("a global alert of no project: %v", err)
	}
}

// FuzzAlertCheckAgreesWithTheLoader: for any alert, alone or twice, the
// check and the loader take it or refuse it alike, for the same reason.
func FuzzAlertCheckAgreesWithTheLoader(f *testing.F) {
	f.Add([]byte(checkedAlert), false)
	f.Add([]byte(withMember("status", `"CLOSED"`)), true)
	f.Add([]byte(withMember("currentValue", `{"number":1e3,"units":"RAW"}`)), false)
	f.Add([]byte(withMember("created", `"2026-01-01T00:00:00.5Z"`)), false)
	f.Add([]byte(`{"id":"5f1a00000000000000000009","id":"5f1a00000000000000000008","status":"OPEN"}`), false)
	f.Add([]byte(checkedAlert+` {}`), false) // not one alert: refused, whatever follows it
	f.Fuzz(func(t *testing.T, raw []byte, global bool) {
		key := "alerts"
		if global {
			key = "globalAlerts"
		}
		if !json.Valid(raw) {
			// The loader's decoder says where in the file; the check, which
			// sees one item, refuses it.
			if err := fixture.NewAlertCheck(key, []string{testProject}).Check(raw); err == nil {
				t.Fatalf("%q is not JSON, and the check takes it", raw)
			}
			return
		}
		checkAgreesWithTheLoader(t, key, string(raw))
		checkAgreesWithTheLoader(t, key, string(raw), string(raw))
	})
}

// upperHexID is the i-th of distinct ObjectIds written in upper-case hex,
// which the loader takes and keeps apart from lower-case ids.
func upperHexID(i int) string { return fmt.Sprintf("5F1A%020X", i) }

// fixtures capture checks every alert in one buffer it reuses: an id the
// check keeps must not change when the buffer does, or ids already seen
// turn into others (a false "appears twice", or a repeat missed).
func TestAlertCheckWithAReusedBuffer(t *testing.T) {
	c := fixture.NewAlertCheck("alerts", []string{testProject})
	var buf []byte
	for i := range 2000 {
		buf = append(buf[:0], withMember("id", `"`+upperHexID(i)+`"`)...)
		if err := c.Check(buf); err != nil {
			t.Fatalf("alert %d (%s), every id distinct: %v", i, upperHexID(i), err)
		}
	}
	buf = append(buf[:0], withMember("id", `"`+upperHexID(7)+`"`)...)
	if err := c.Check(buf); err == nil || !strings.Contains(err.Error(), "id "+upperHexID(7)+" appears twice") {
		t.Errorf("an upper-case id again, in the reused buffer: %v, want it refused", err)
	}
}

// Project readers share one AlertCheck, each with its own reused buffer
// (run with -race: the check must not read a buffer its owner rewrites).
func TestAlertCheckSharedByReadersWithReusedBuffers(t *testing.T) {
	c := fixture.NewAlertCheck("alerts", []string{testProject})
	const readers, each = 4, 300
	errs := make(chan error, readers*each)
	var wg sync.WaitGroup
	for r := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for i := range each {
				buf = append(buf[:0], withMember("id", `"`+upperHexID(r*each+i)+`"`)...)
				if err := c.Check(buf); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("every id distinct: %v", err)
	}
}

// A state file written by an older version holds its alerts' bytes as
// their fixture had them: null for tags, a tag, or a member of
// currentValue loads again as the same alert, and a number written as a
// string, which this version refuses, stops the start with a message
// naming the alert and the member.
func TestAStateFileWithAlertsOfOlderVersionsLoads(t *testing.T) {
	const id = "5f1a00000000000000000009"
	old := func(members string) string {
		return `{"id":"` + id + `","groupId":"` + testProject + `","alertConfigId":"5f2a00000000000000000001","status":"OPEN",` +
			`"created":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z",` + members + `}`
	}
	reopen := func(t *testing.T, raw string) (*State, error) {
		t.Helper()
		f, err := fixture.ParseFixtures("f.json", []byte(fixturesWith(`"alerts": [`+withMember("id", `"`+id+`"`)+`]`)))
		if err != nil {
			t.Fatal(err)
		}
		f.Alerts[0].Raw = []byte(raw) // as the older version stored it
		return restarted(t, NewState(f, start))
	}
	for _, raw := range []string{
		old(`"eventTypeName":"HOST_DOWN","hostnameAndPort":"db1:27017","tags":null`),
		old(`"eventTypeName":"HOST_DOWN","hostnameAndPort":"db1:27017","tags":[null]`),
		old(`"eventTypeName":"OUTSIDE_METRIC_THRESHOLD","metricName":"ASSERT_REGULAR","currentValue":{"number":null,"units":"RAW"}`),
		old(`"eventTypeName":"OUTSIDE_METRIC_THRESHOLD","metricName":"ASSERT_REGULAR","currentValue":{"number":5,"units":null}`),
	} {
		st, err := reopen(t, raw)
		if err != nil {
			t.Errorf("%s: %v", raw, err)
			continue
		}
		got := st.Alert(id)
		var was, is any
		json.Unmarshal([]byte(raw), &was)
		if got != nil {
			json.Unmarshal(got.Cur.Raw, &is)
		}
		if !reflect.DeepEqual(was, is) {
			t.Errorf("stored as %s, loaded as %v", raw, is)
		}
	}
	_, err := reopen(t, old(`"eventTypeName":"OUTSIDE_METRIC_THRESHOLD","metricName":"ASSERT_REGULAR","currentValue":{"number":"5","units":"RAW"}`))
	if err == nil || !strings.Contains(err.Error(), "Received JSON for the currentValue.number attribute does not match expected format: want a number (in alert "+id+")") {
		t.Errorf("a number written as a string: %v, want a refusal naming the alert and the member", err)
	}
}
