package listpage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestParsePageShapes(t *testing.T) {
	for _, tc := range []struct {
		body                      string
		items, total              int
		hasTotal, hasNext, isList bool
		err                       string
	}{
		{body: `{"results":[{"a":1},{"b":[1, 2]}],"totalCount":7,"links":[{"rel":"self"},{"rel":"next"}]}`, items: 2, total: 7, hasTotal: true, hasNext: true, isList: true},
		{body: `{"results":[{"a":1}]}`, items: 1, total: 1, isList: true},
		{body: `{"status":200,"content":{"results":[{"a":1}],"totalCount":3}}`, items: 1, total: 3, hasTotal: true, isList: true},
		{body: `{"id":"5f1a0c2e8f9d4b0000000025","status":"OPEN"}`},
		{body: `[1,2]`},
		{body: `{"results":{"a":1}}`, err: `the answer is not a list: its "results" is an object`},
		{body: `{"results":[],"totalCount":1.5}`, err: `the answer is not a list: its "totalCount" is the number 1.5`},
		{body: `{"res\u0075lts":[1], "links":[{"rel":"next"}], "totalCount":null}`, items: 1, total: 1, hasNext: true, isList: true},
		{body: `{"results":[`, err: "the server sent invalid JSON"},
	} {
		p, err := Parse([]byte(tc.body))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err = %v, want %q", tc.body, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.body, err)
			continue
		}
		if len(p.Results) != tc.items || p.TotalCount != tc.total || p.HasTotal != tc.hasTotal || p.HasNext != tc.hasNext || p.IsList != tc.isList {
			t.Errorf("%s: got %d items, total %d/%v, next %v, list %v", tc.body, len(p.Results), p.TotalCount, p.HasTotal, p.HasNext, p.IsList)
		}
	}
	p, _ := Parse([]byte(`{"results":[{"b":[1, 2]}]}`))
	if string(p.Results[0]) != `{"b":[1, 2]}` {
		t.Errorf("item bytes changed: %s", p.Results[0])
	}
}

// FuzzParse: no input panics the page splitter, and what it accepts
// agrees with a plain decode: every item is valid JSON taken from the body
// as sent, and there are as many as the body's `results` holds.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`{"results":[{"id":"a"},{"id":"b"}],"totalCount":2,"links":[{"rel":"next","href":"x"}]}`,
		`{"results":[],"totalCount":0}`,
		`{"results":null}`,
		`{"status":200,"content":{"results":[1,"x",null],"totalCount":-1}}`,
		`{"content":"x"}`,
		`{"id":"single"}`,
		`[{"results":[]}]`,
		`{"results":[{"a":"\u00e9\n"}] , "links":[{"rel":1}]}`,
		`{"totalCount":1e99}`,
		``, `null`, `{`, "\xff",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := Parse(body)
		if err != nil {
			if p != nil {
				t.Fatalf("a page and an error")
			}
			return
		}
		if !json.Valid(body) {
			t.Fatalf("accepted invalid JSON %q", body)
		}
		if !p.HasTotal && p.TotalCount != len(p.Results) {
			t.Fatalf("no totalCount, yet TotalCount %d != %d items", p.TotalCount, len(p.Results))
		}
		if p.IsList != (p.Results != nil) {
			t.Fatalf("IsList %v with results %v", p.IsList, p.Results)
		}
		for _, item := range p.Results {
			if !json.Valid(item) || !bytes.Contains(body, item) {
				t.Fatalf("item %q is not JSON from the body", item)
			}
		}
		// The oracle: encoding/json's own reading of the same fields.
		doc := body
		var top map[string]json.RawMessage
		if json.Unmarshal(doc, &top) != nil {
			if p.IsList || p.HasTotal || p.HasNext {
				t.Fatalf("a non-object read as a list: %+v", p)
			}
			return
		}
		if r := top["results"]; (r == nil || string(r) == "null") && len(top["content"]) > 0 && top["content"][0] == '{' {
			json.Unmarshal(top["content"], &top)
		}
		var items []json.RawMessage
		if err := json.Unmarshal(top["results"], &items); top["results"] != nil && err != nil {
			t.Fatalf("accepted results %s that encoding/json refuses: %v", top["results"], err)
		}
		if len(items) != len(p.Results) {
			t.Fatalf("%d items, encoding/json finds %d", len(p.Results), len(items))
		}
		for i := range items {
			if !bytes.Equal(items[i], p.Results[i]) {
				t.Fatalf("item %d is %q, encoding/json says %q", i, p.Results[i], items[i])
			}
		}
		var total *int
		if err := json.Unmarshal(top["totalCount"], &total); top["totalCount"] != nil && err != nil {
			t.Fatalf("accepted totalCount %s that encoding/json refuses: %v", top["totalCount"], err)
		}
		if (total != nil) != p.HasTotal || (total != nil && *total != p.TotalCount) {
			t.Fatalf("totalCount %d/%v, encoding/json says %v", p.TotalCount, p.HasTotal, total)
		}
	})
}

// alertPage is a page of n alerts shaped like the server's.
func alertPage(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"links":[{"href":"https://om.example.com/api/public/v1.0/groups/5e2b0c2e8f9d4b0012340002/alerts?pageNum=1&itemsPerPage=500","rel":"self"},{"href":"x","rel":"next"}],"results":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"5f1a0c2e8f9d4b%010d","groupId":"5e2b0c2e8f9d4b0012340002","alertConfigId":"5f2a0c2e8f9d4b0000000001","eventTypeName":"HOST_DOWN","status":"OPEN","created":"2026-11-01T10:00:00Z","updated":"2026-11-01T10:05:00Z","lastNotified":"2026-11-01T10:05:00Z","typeName":"HOST","hostnameAndPort":"db-%d.example.com:27017","replicaSetName":"rs0","links":[{"href":"https://om.example.com/api/public/v1.0/groups/5e2b0c2e8f9d4b0012340002/alerts/5f1a0c2e8f9d4b%010d","rel":"self"}]}`, i, i, i)
	}
	fmt.Fprintf(&b, `],"totalCount":%d}`, 100000)
	return b.Bytes()
}

func BenchmarkParse500(b *testing.B) {
	body := alertPage(500)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(body); err != nil {
			b.Fatal(err)
		}
	}
}

// skipString finds the end of a string of many escapes looking at each
// of its bytes at most twice (once for a quote, once for a backslash):
// looking again for the quote after each escape made a page of 300,000
// escapes take seconds to split.
func TestSkipStringLooksAtEachByteAtMostTwice(t *testing.T) {
	for _, s := range []string{
		strings.Repeat(`\n`, 300000),
		strings.Repeat(`\"`, 100000),
		strings.Repeat(`a\\`, 100000),
		strings.Repeat(`\u00e9x`, 50000) + `\"`,
		``, `\\`, `\"\"`, `abc`,
	} {
		b := []byte(`"` + s + `","next"`)
		end, looked := scanString(b, 0)
		if want := len(s) + 2; end != want {
			t.Errorf("%.20q…: ends at %d, want %d", s, end, want)
		}
		if looked > 2*(len(s)+2) {
			t.Errorf("%.20q… (%d bytes): looked at %d bytes", s, len(s), looked)
		}
	}
	body := []byte(`{"results":[{"id":"a","d":"` + strings.Repeat(`\n`, 300000) + `"},{"id":"b"}],"totalCount":2}`)
	p, err := Parse(body)
	if err != nil || len(p.Results) != 2 || string(p.Results[1]) != `{"id":"b"}` {
		t.Errorf("a page with a string of 300,000 escapes: %v, %d items", err, len(p.Results))
	}
}

func BenchmarkParseManyEscapes(b *testing.B) {
	body := []byte(`{"results":[{"id":"a","d":"` + strings.Repeat(`\n`, 300000) + `"}],"totalCount":1}`)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := Parse(body); err != nil {
			b.Fatal(err)
		}
	}
}
