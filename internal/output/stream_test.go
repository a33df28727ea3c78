package output

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/listpage"
)

// pagesOf yields bodies as parsed pages, then err if not nil.
func pagesOf(t testing.TB, err error, bodies ...string) iter.Seq2[*listpage.Page, error] {
	return func(yield func(*listpage.Page, error) bool) {
		for i, b := range bodies {
			p, perr := listpage.Parse([]byte(b))
			if perr != nil {
				t.Fatal(perr)
			}
			p.Number = i + 1
			if !yield(p, nil) {
				return
			}
		}
		if err != nil {
			yield(nil, err)
		}
	}
}

var streamPages = []string{
	`{"results":[{"id":"a","n":1.50,"u":"\u00e9"},{"id":"b","o":{"z":[1,2]}}],"totalCount":3}`,
	`{"results":[{"id":"c"}],"totalCount":3}`,
}

func TestJSONLinesAreTheServersBytes(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	p, _ := New(ios, Options{Format: "jsonl"})
	pretty := "{\"results\":[{\n  \"id\": \"d\"\n}],\"totalCount\":4}"
	spaced := `{"results":[{"id":"b","o":{"z":[1, 2]}}]}`
	if err := p.List(pagesOf(t, nil, streamPages[0], spaced, streamPages[1], pretty), AllPages, idTable); err != nil {
		t.Fatal(err)
	}
	want := `{"id":"a","n":1.50,"u":"\u00e9"}` + "\n" + `{"id":"b","o":{"z":[1,2]}}` + "\n" + `{"id":"b","o":{"z":[1, 2]}}` + "\n" + `{"id":"c"}` + "\n" + `{"id":"d"}` + "\n"
	if out.String() != want {
		t.Errorf("jsonl = %q, want %q", out.String(), want)
	}
}

// The streamed merged document is what indenting or compacting the whole
// merged list would print.
func TestStreamedMergedDocumentMatchesTheWholeOne(t *testing.T) {
	for _, pages := range [][]string{streamPages, {`{"results":[],"totalCount":0}`}} {
		var items []string
		for _, b := range pages {
			pg, _ := listpage.Parse([]byte(b))
			for _, it := range pg.Results {
				items = append(items, string(it))
			}
		}
		merged := fmt.Sprintf(`{"results":[%s],"totalCount":%d}`, strings.Join(items, ","), len(items))
		for _, tty := range []bool{false, true} {
			ios, _, out, _ := iostreams.Test()
			ios.SetStdoutTTY(tty)
			p, _ := New(ios, Options{Format: "json"})
			if err := p.List(pagesOf(t, nil, pages...), AllPages, idTable); err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if tty {
				json.Indent(&want, []byte(merged), "", "  ")
			} else {
				json.Compact(&want, []byte(merged))
			}
			want.WriteByte('\n')
			if out.String() != want.String() {
				t.Errorf("tty=%v:\n%s\nwant\n%s", tty, out.String(), want.String())
			}
		}
	}
}

func TestJQRunsOnceOverTheMergedList(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	p, _ := New(ios, Options{Format: "json", JQ: `"\([.results[].id] | join(",")) \(.totalCount)"`})
	if err := p.List(pagesOf(t, nil, streamPages...), AllPages, idTable); err != nil {
		t.Fatal(err)
	}
	if out.String() != "a,b,c 3\n" {
		t.Errorf("jq = %q", out.String())
	}
}

// A page that fails in the middle: its error is returned, the lines of the
// pages before it are all printed, whole, and nothing after.
func TestFailingPageStopsTheStreamAfterWholeLines(t *testing.T) {
	broken := errors.New("500 INTERNAL_SERVER_ERROR")
	ios, _, out, _ := iostreams.Test()
	p, _ := New(ios, Options{Format: "jsonl"})
	err := p.List(pagesOf(t, broken, streamPages[0]), AllPages, idTable)
	if !errors.Is(err, broken) {
		t.Errorf("err = %v", err)
	}
	if out.String() != `{"id":"a","n":1.50,"u":"\u00e9"}`+"\n"+`{"id":"b","o":{"z":[1,2]}}`+"\n" {
		t.Errorf("printed %q", out.String())
	}
}

func BenchmarkJSONLines500(b *testing.B) {
	var page bytes.Buffer
	page.WriteString(`{"results":[`)
	for i := range 500 {
		if i > 0 {
			page.WriteByte(',')
		}
		fmt.Fprintf(&page, `{"id":"5f1a0c2e8f9d4b%010d","groupId":"5e2b0c2e8f9d4b0012340002","eventTypeName":"HOST_DOWN","status":"OPEN","created":"2026-11-01T10:00:00Z","hostnameAndPort":"db-%d.example.com:27017","links":[{"href":"https://om.example.com/api/public/v1.0/groups/5e2b0c2e8f9d4b0012340002/alerts/5f1a0c2e8f9d4b%010d","rel":"self"}]}`, i, i, i)
	}
	page.WriteString(`],"totalCount":500}`)
	parsed, err := listpage.Parse(page.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	ios, _, _, _ := iostreams.Test()
	ios.Out = io.Discard
	p, _ := New(ios, Options{Format: "jsonl"})
	one := func(yield func(*listpage.Page, error) bool) { yield(parsed, nil) }
	b.SetBytes(int64(page.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if err := p.List(one, AllPages, idTable); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFetchAllJSONL measures the client side of `--all -o jsonl`: 200
// pages of 500 alerts fetched over loopback from a server that answers
// from memory, split, and written as lines. MB/s is of page bytes.
func BenchmarkFetchAllJSONL(b *testing.B) { benchmarkFetchAll(b, "jsonl") }

// BenchmarkFetchAllJSON is BenchmarkFetchAllJSONL for `--all -o json`, the
// merged document (held in a spool until whole, 8 MiB in memory, the
// rest in a temporary file).
func BenchmarkFetchAllJSON(b *testing.B) { benchmarkFetchAll(b, "json") }

func benchmarkFetchAll(b *testing.B, format string) {
	const pages, perPage = 200, 500
	var bodies [][]byte
	size := 0
	for n := 1; n <= pages; n++ {
		var page bytes.Buffer
		page.WriteString(`{"results":[`)
		for i := range perPage {
			if i > 0 {
				page.WriteByte(',')
			}
			fmt.Fprintf(&page, `{"id":"5f1a%020x","groupId":"5e2b0c2e8f9d4b0012340002","eventTypeName":"HOST_DOWN","status":"OPEN","created":"2026-11-01T10:00:00Z","hostnameAndPort":"db-%d.example.com:27017","links":[{"href":"https://om.example.com/api/public/v1.0/groups/5e2b0c2e8f9d4b0012340002/alerts/5f1a%020x","rel":"self"}]}`, n*perPage+i, i, n*perPage+i)
		}
		fmt.Fprintf(&page, `],"totalCount":%d}`, pages*perPage)
		bodies = append(bodies, page.Bytes())
		size += page.Len()
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("pageNum"))
		w.Write(bodies[n-1])
	}))
	defer srv.Close()
	c, err := client.New(client.Options{BaseURL: srv.URL})
	if err != nil {
		b.Fatal(err)
	}
	ios, _, _, _ := iostreams.Test()
	ios.Out = io.Discard
	p, _ := New(ios, Options{Format: format})
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		err := p.List(c.Pages(context.Background(), "/alerts", client.ListOptions{PageNum: 1, ItemsPerPage: perPage, All: true}), AllPages, idTable)
		if err != nil {
			b.Fatal(err)
		}
	}
}
