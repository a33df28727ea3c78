package output

import (
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/listpage"
)

var idTable = Columns([]string{"ID", "NAME"}, func(a api.Alert) []string { return []string{a.ID, a.EventTypeName} })

func TestJSONIsIndentedOnTerminalCompactWhenPiped(t *testing.T) {
	body := []byte(`{"b":1, "a":{"z":[1,2]}}`)
	ios, _, out, _ := iostreams.Test()
	p, _ := New(ios, Options{Format: "json"})
	p.Resource(body, idTable)
	if out.String() != `{"b":1,"a":{"z":[1,2]}}`+"\n" {
		t.Errorf("piped = %q", out.String())
	}
	out.Reset()
	ios.SetStdoutTTY(true)
	p.Resource(body, idTable)
	if !strings.Contains(out.String(), "\n  \"b\": 1,\n  \"a\"") {
		t.Errorf("terminal = %q (key order must be kept)", out.String())
	}
}

func TestEnvelopeUnwrappedForTableButNotJSON(t *testing.T) {
	body := []byte(`{"status":200,"content":{"id":"x1","eventTypeName":"HOST_DOWN"}}`)
	ios, _, out, _ := iostreams.Test()
	p, _ := New(ios, Options{Format: "table", Envelope: true})
	p.Resource(body, idTable)
	if out.String() != "x1\tHOST_DOWN\n" {
		t.Errorf("table = %q", out.String())
	}
	out.Reset()
	p, _ = New(ios, Options{Format: "json", Envelope: true})
	p.Resource(body, idTable)
	if out.String() != string(body)+"\n" {
		t.Errorf("json = %q", out.String())
	}
}

func TestJQOutputs(t *testing.T) {
	body := []byte(`{"n":12345678901,"s":"text","o":{"k":[1,2]}}`)
	for expr, want := range map[string]string{
		".n":                "12345678901\n",
		".s":                "text\n",
		".o":                `{"k":[1,2]}` + "\n",
		".o.k[]":            "1\n2\n",
		"empty":             "",
		`.s | ascii_upcase`: "TEXT\n",
	} {
		ios, _, out, _ := iostreams.Test()
		p, err := New(ios, Options{Format: "json", JQ: expr})
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Resource(body, idTable); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Errorf("%s => %q, want %q", expr, out.String(), want)
		}
	}
}

func TestJQRuntimeErrorIsReported(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	p, _ := New(ios, Options{Format: "json", JQ: ".s + 1"})
	if err := p.Resource([]byte(`{"s":"x"}`), idTable); err == nil || !strings.Contains(err.Error(), "--jq") {
		t.Errorf("err = %v", err)
	}
}

func TestJQTurnsTableIntoJSON(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	p, err := New(ios, Options{Format: "table", JQ: ".id"})
	if err != nil || p.Format() != api.FormatJSON {
		t.Errorf("format = %v, %v", p.Format(), err)
	}
}

func TestBadFormatIsUsageError(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	_, err := New(ios, Options{Format: "xml"})
	var ue *UsageError
	if err == nil || !strings.Contains(err.Error(), "valid formats are table, json, jsonl, yaml") || !asUsage(err, &ue) {
		t.Errorf("err = %v", err)
	}
}

func asUsage(err error, target **UsageError) bool {
	u, ok := err.(*UsageError)
	*target = u
	return ok
}

func TestTSVEscapesTabsAndNewlines(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	p, _ := New(ios, Options{Format: "table"})
	p.List(client.SinglePage([]byte(`{"results":[{"id":"a","eventTypeName":"x\ty\nz"}],"totalCount":1}`)), PageAsked, idTable)
	if out.String() != "a\tx y z\n" {
		t.Errorf("tsv = %q", out.String())
	}
}

// A list printed without --page, --limit or --all says on stderr that
// more items follow, in every format, on a terminal or piped (a pipeline
// that took the first page for the whole list acknowledged 100 alerts of
// 106); a page the user chose, or the whole list, says nothing.
func TestFirstPageSaysMoreFollow(t *testing.T) {
	const more = "Showing 2 of 250; --all for every page\n"
	for _, tt := range []struct {
		name   string
		body   string
		part   Part
		format string
		tty    bool
		want   string
	}{
		{"table at a terminal", `{"results":[{"id":"a"},{"id":"b"}],"totalCount":250}`, FirstPage, "table", true, more},
		{"table piped", `{"results":[{"id":"a"},{"id":"b"}],"totalCount":250}`, FirstPage, "table", false, more},
		{"json piped", `{"results":[{"id":"a"},{"id":"b"}],"totalCount":250}`, FirstPage, "json", false, more},
		{"jsonl piped", `{"results":[{"id":"a"},{"id":"b"}],"totalCount":250}`, FirstPage, "jsonl", false, more},
		{"yaml piped", `{"results":[{"id":"a"},{"id":"b"}],"totalCount":250}`, FirstPage, "yaml", false, more},
		{"a next link and no total", `{"results":[{"id":"a"},{"id":"b"}],"links":[{"rel":"next","href":"x"}]}`, FirstPage, "table", false,
			"Showing 2; more pages follow; --all for every page\n"},
		{"the whole list", `{"results":[{"id":"a"},{"id":"b"}],"totalCount":2}`, FirstPage, "table", false, ""},
		{"a page asked for", `{"results":[{"id":"a"},{"id":"b"}],"totalCount":250}`, PageAsked, "table", true, ""},
	} {
		ios, _, out, errOut := iostreams.Test()
		ios.SetStdoutTTY(tt.tty)
		p, _ := New(ios, Options{Format: tt.format})
		if err := p.List(client.SinglePage([]byte(tt.body)), tt.part, idTable); err != nil {
			t.Fatal(err)
		}
		if errOut.String() != tt.want || !strings.Contains(out.String(), "b") {
			t.Errorf("%s: stdout %q, stderr %q, want stderr %q", tt.name, out.String(), errOut.String(), tt.want)
		}
	}
}

// A page that omctl filtered is told against the page the server sent.
func TestFilteredFirstPageSaysWhatItWasKeptFrom(t *testing.T) {
	sent, err := listpage.Parse([]byte(`{"results":[{"id":"a"},{"id":"b"},{"id":"c"}],"totalCount":250}`))
	if err != nil {
		t.Fatal(err)
	}
	kept := *sent
	kept.Results, kept.Unfiltered = sent.Results[:1], sent
	ios, _, _, errOut := iostreams.Test()
	p, _ := New(ios, Options{Format: "jsonl"})
	pages := func(yield func(*listpage.Page, error) bool) { yield(&kept, nil) }
	if err := p.List(pages, FirstPage, idTable); err != nil {
		t.Fatal(err)
	}
	if want := "Showing 1, kept by omctl from the first 3 of 250; --all for every page\n"; errOut.String() != want {
		t.Errorf("stderr %q, want %q", errOut.String(), want)
	}
}
