package alert

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/rules"
)

// FuzzTheFastPathTakesWhatTheSchemaTakes: an alert the fast path takes is
// one the schema takes, read the same, and stored the same but for how
// its JSON is written; and the fast path reads each member as a decoder
// does.
func FuzzTheFastPathTakesWhatTheSchemaTakes(f *testing.F) {
	f.Add([]byte(sampleAlert))
	f.Add([]byte(withMember("currentValue", `{"number":-1.5e-3,"units":"RAW","x":[{"number":1}]}`)))
	f.Add([]byte(withMember("eventTypeName", `"OUTSIDE_METRIC_THRESHOLD"`)))
	f.Add([]byte(withMember("status", `"CLOSED"`)))
	// Members BACKUP does not show, first, between and last, spaced.
	f.Add([]byte(` { "hostId" : "h1" , "id":"5f1a00000000000000000009", "resolved":"2026-01-01T00:00:00Z",` +
		` "status":"OPEN","eventTypeName":"BACKUP","created":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z", "metricName" : "CONNECTIONS" } `))
	f.Add([]byte(` {"id" : "5f1a00000000000000000009", "status":"OPEN", "eventTypeName":"BACKUP", "created":"2026-01-01T00:00:00Z", "updated":"2026-01-01T00:00:00Z", "hostId":"h\u00e9"} `))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var w alertWire
		compact, ok := w.scan(raw)
		if !ok {
			return
		}
		if !json.Valid(raw) {
			t.Fatalf("%q is not JSON, and the fast path takes it", raw)
		}
		var b bytes.Buffer
		json.Compact(&b, raw)
		if compact != (b.String() == string(raw)) {
			t.Errorf("%s: compact %v", raw, compact)
		}
		var members map[string]any
		json.Unmarshal(raw, &members)
		for k := range wireCurrentValue {
			if v, _ := members[wireNames[k]].(string); w.is(k) && v != w.str[k] {
				t.Fatalf("%s: %s read as %q, a decoder reads %q", raw, wireNames[k], w.str[k], v)
			}
		}
		fast, ok, _ := w.canonical()
		if !ok {
			return
		}
		d, err := schemaAlert(raw)
		if err != nil {
			t.Fatalf("%s: the fast path takes it, the schema says %s", raw, err.Rule())
		}
		slow := NewDoc(d)
		a, perr := parseAlert(raw, &arena{})
		if perr != nil {
			t.Fatalf("%s: %s", raw, perr.Rule())
		}
		if fast != slow.alertFields || a.alertFields != slow.alertFields {
			t.Errorf("%s: read as %+v, the schema reads %+v, stored as %+v", raw, fast, slow.alertFields, a.alertFields)
		}
		if !reflect.DeepEqual(a.Doc(), slow.Doc()) {
			t.Errorf("%s: stored as %s, the schema stores %s", raw, a.Raw, slow.Raw)
		}
		b.Reset()
		if err := json.Compact(&b, a.Raw); err != nil || b.String() != string(a.Raw) {
			t.Errorf("%s: stored as %s, which is not compact JSON (%v)", raw, a.Raw, err)
		}
	})
}

// A time is canonical, as the fast path reads it, exactly when it is
// written as the server writes it.
func TestCanonicalTimes(t *testing.T) {
	for _, s := range []string{"2026-01-01T00:00:00Z", "2024-02-29T23:59:59Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
		"2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z", "2026-01-01T00:00:60Z",
		"2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00+00:00", "2026-01-01 00:00:00Z", "2026-01-01T00:00:00z", "2026-01-01",
		"+026-01-01T00:00:00Z", "2026-1-01T00:00:00Z", "", "2026-01-01T00:00:0aZ", "２０２６-01-01T00:00:00Z"} {
		checkCanonicalTime(t, s)
	}
}

func FuzzCanonicalTime(f *testing.F) {
	f.Add("2026-01-01T00:00:00Z")
	f.Fuzz(checkCanonicalTime)
}

func checkCanonicalTime(t *testing.T, s string) {
	w := alertWire{has: 1 << wireCreated}
	w.str[wireCreated] = s
	got, ok := w.canonicalTime(wireCreated, &timeMemo{})
	parsed, err := rules.ParseTimestamp(s)
	want := err == nil && rules.FormatTime(parsed) == s
	if ok != want || ok && !got.Equal(parsed) {
		t.Errorf("%q: canonical %v (%v), want %v (%v)", s, ok, got, want, parsed)
	}
	if ok && got.Location() != time.UTC {
		t.Errorf("%q: read in %v", s, got.Location())
	}
}

// FuzzScannerTellsJSONAsTheDecoderDoes: what the fast path's scanner
// walks to the end is what encoding/json calls JSON, so that an alert
// that is not JSON is never taken as it is, whoever gives it.
func FuzzScannerTellsJSONAsTheDecoderDoes(f *testing.F) {
	for _, seed := range []string{sampleAlert, `[1,-0.5e+3,true,false,null,"\u00e9\n"]`, `01`, `"\x"`, `{"a":1,}`, "\"\x01\"", `1.`, `-`, `[[]]`, ` {} `} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		s := scanner{b: raw}
		ok := s.skip()
		s.space()
		if ok = ok && s.i == len(raw); ok != json.Valid(raw) {
			t.Errorf("%q: the scanner says %v, encoding/json %v", raw, ok, json.Valid(raw))
		}
	})
}

// An alert is one JSON object and nothing after it, on either path (the
// schema's decoder stopped after the object and took what followed), for
// the check as for the loader of a state file, which reads alerts one by
// one; spaces around it are no bytes after it.
func TestAnAlertIsOneObjectAndNothingAfterIt(t *testing.T) {
	notCanonical := withMember("created", `"2026-01-01T01:00:00+01:00"`) // the schema's path
	for _, tt := range []struct {
		raw   string
		taken bool
	}{
		{sampleAlert, true},
		{" \n" + notCanonical + "\n\t ", true},
		{sampleAlert + ` {}`, false},
		{notCanonical + ` {}`, false},
		{notCanonical + notCanonical, false},
		{notCanonical + `]`, false},
		{notCanonical + `,`, false},
		{notCanonical + ` x`, false},
		{notCanonical + ` null`, false},
	} {
		var checkErr error
		if _, broken := Judge([]byte(tt.raw)); broken != nil {
			checkErr = errors.New(broken.Rule())
		}
		_, parseErr := parseAlert([]byte(tt.raw), &arena{})
		if (checkErr == nil) != tt.taken || (parseErr == nil) != tt.taken {
			t.Errorf("%s: the judge says %v, the loader %v; want taken %v", tt.raw, checkErr, parseErr, tt.taken)
		}
		if !tt.taken && (checkErr == nil || !strings.Contains(checkErr.Error(), "must be one object, with nothing after it")) {
			t.Errorf("%s: %v, want it to say an alert is one object", tt.raw, checkErr)
		}
	}
}
