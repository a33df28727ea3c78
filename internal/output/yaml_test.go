package output

import (
	"iter"
	"testing"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/listpage"
)

func TestYAMLKeepsOrderAndQuotesWhatWouldChangeType(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	p, err := New(ios, Options{Format: api.FormatYAML})
	if err != nil {
		t.Fatal(err)
	}
	body := `{"id":"5f1a","status":"OPEN","count":3,"on":"yes","created":"2026-01-01T00:00:00Z","nested":{"z":1,"a":[true,"no"]}}`
	if err := p.Resource([]byte(body), TableDef{}); err != nil {
		t.Fatal(err)
	}
	want := "id: 5f1a\nstatus: OPEN\ncount: 3\n\"on\": \"yes\"\ncreated: \"2026-01-01T00:00:00Z\"\nnested:\n  z: 1\n  a:\n    - true\n    - \"no\"\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestYAMLOfAllPagesAndOfJQ(t *testing.T) {
	pages := func(yield func(*listpage.Page, error) bool) {
		for i, items := range [][]string{{`{"id":"a"}`, `{"id":"b"}`}, {`{"id":"c"}`}} {
			pg := &listpage.Page{Number: i + 1}
			for _, it := range items {
				pg.Results = append(pg.Results, []byte(it))
			}
			if !yield(pg, nil) {
				return
			}
		}
	}
	ios, _, out, _ := iostreams.Test()
	p, _ := New(ios, Options{Format: api.FormatYAML})
	if err := p.List(iter.Seq2[*listpage.Page, error](pages), AllPages, TableDef{}); err != nil {
		t.Fatal(err)
	}
	if want := "results:\n  - id: a\n  - id: b\n  - id: c\ntotalCount: 3\n"; out.String() != want {
		t.Errorf("all pages: %q", out)
	}
	ios, _, out, _ = iostreams.Test()
	p, _ = New(ios, Options{Format: api.FormatYAML, JQ: ".results[] | {id}"})
	if err := p.Resource([]byte(`{"results":[{"id":"a","x":1},{"id":"b"}]}`), TableDef{}); err != nil {
		t.Fatal(err)
	}
	if want := "id: a\n---\nid: b\n"; out.String() != want {
		t.Errorf("jq: %q", out)
	}
}
