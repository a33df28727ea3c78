package listpage

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestWithoutMemberKeepsTheRest(t *testing.T) {
	for _, obj := range []string{
		`{"id":"a","links":[{"href":"x"}],"created":"2026-01-01T00:00:00Z"}`,
		`{"links":[{"href":"x"}],"id":"a"}`,
		`{"id":"a","links":[]}`,
		`{"links":{}}`,
		` { "id" : "a" , "links" : [ 1 , {"links":2} ] , "n" : {"links":3} } `,
		`{"id":"a"}`,
		`{}`,
	} {
		got := WithoutMember([]byte(obj), "links")
		var want, have map[string]any
		if err := json.Unmarshal([]byte(obj), &want); err != nil {
			t.Fatal(err)
		}
		delete(want, "links")
		if err := json.Unmarshal(got, &have); err != nil {
			t.Errorf("%s: without links %s is not JSON: %v", obj, got, err)
			continue
		}
		if !reflect.DeepEqual(want, have) {
			t.Errorf("%s: got %s", obj, got)
		}
	}
	if s := StringMember([]byte(`{"a":1,"created":"2026-01-01T00:00:00Z"}`), "created"); s != "2026-01-01T00:00:00Z" {
		t.Errorf("StringMember: %q", s)
	}
	if s := StringMember([]byte(`{"created":5}`), "created"); s != "" {
		t.Errorf("StringMember of a number: %q", s)
	}
}

func FuzzWithoutMember(f *testing.F) {
	f.Add(`{"id":"a","links":[{"href":"x"}],"created":"2026"}`)
	f.Add(`{"links":1}`)
	f.Add(`[1]`)
	f.Fuzz(func(t *testing.T, obj string) {
		if !json.Valid([]byte(obj)) {
			return
		}
		var want map[string]any
		if json.Unmarshal([]byte(obj), &want) != nil {
			return
		}
		got := WithoutMember([]byte(obj), "links")
		var have map[string]any
		if err := json.Unmarshal(got, &have); err != nil {
			t.Fatalf("%s: %s is not JSON", obj, got)
		}
		delete(want, "links")
		if _, escaped := have["links"]; escaped {
			return // a key written with escapes, or twice: left as it is
		}
		if !reflect.DeepEqual(want, have) {
			t.Fatalf("%s: got %s", obj, got)
		}
	})
}

// FuzzLastMemberAgreesWithTheWalk: finding a member from its name, when
// it is the last, gives what walking the members from the first gives.
func FuzzLastMemberAgreesWithTheWalk(f *testing.F) {
	f.Add(`{"id":"a","links":[{"href":"x","links":1}]}`, "links")
	f.Add(`{ "links" : 1 , "links":2 }`, "links")
	f.Add(`{"a\"links":1}`, "links")
	f.Add(`{"a":{"links":1}}`, "links")
	f.Add(`{"links":1}`, "links")
	f.Add(`{"x":"\\","links":[]}`, "links")
	f.Fuzz(func(t *testing.T, obj, key string) {
		if !json.Valid([]byte(obj)) || strings.Count(obj, key) > 1 {
			return // a member written twice may be found twice
		}
		v, start, end, ok := lastMember([]byte(obj), key)
		if !ok {
			return
		}
		wv, wstart, wend := walkMembers([]byte(obj), key)
		if string(v) != string(wv) || start != wstart || end != wend {
			t.Fatalf("%s: %s at %d-%d, the walk finds %s at %d-%d", obj, v, start, end, wv, wstart, wend)
		}
	})
}
