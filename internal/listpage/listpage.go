// Package listpage reads the pages of the API's lists: it splits a list
// body into its items (the server's own bytes), total and links, and takes
// a resource out of its envelope. The client and the printer share it.
package listpage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Page is one page of a list as the server sent it.
type Page struct {
	Number int
	Body   []byte
	// Results are the items, each exactly the bytes the server sent (a
	// slice of Body).
	Results []json.RawMessage
	// TotalCount is the server's `totalCount`, or len(Results) when the
	// answer has none (HasTotal false).
	TotalCount int
	HasTotal   bool
	// HasNext says the answer links a `next` page, and Next is that
	// link's href.
	HasNext bool
	Next    string
	// IsList is false for an answer that is not a list (no `results`),
	// such as a single resource fetched with `omctl api --paginate`.
	IsList bool
	// Unfiltered is the page as the server sent it when this one keeps
	// only some of its items (a filter the API does not have, applied
	// by omctl); nil otherwise.
	Unfiltered *Page
}

// Parse splits a list body into its items, total count and links. The
// items keep the server's bytes. An answer wrapped in an envelope
// (`{"status":…,"content":{…}}`) is unwrapped. Valid JSON without
// `results` is a page with no items and IsList false.
//
// It is the hot path of --all (every byte of every page passes here), so
// rather than decoding, it checks the body with json.Valid and then only
// walks the top level, taking each item as a slice of the body: about
// three times the speed of json.Unmarshal into []json.RawMessage, with the
// same answer (FuzzParse compares the two).
func Parse(body []byte) (*Page, error) {
	if !json.Valid(body) {
		var v any
		err := json.Unmarshal(body, &v)
		return nil, fmt.Errorf("the server sent invalid JSON: %v", err)
	}
	return splitPage(body, body, true)
}

// splitPage reads the top level of doc, a valid JSON document, which is
// body or, with an envelope, its content.
func splitPage(body, doc []byte, outer bool) (*Page, error) {
	p := &Page{Body: body}
	i := skipSpace(doc, 0)
	if doc[i] != '{' {
		return p, nil // an array or a scalar: not a list page
	}
	var content []byte
	for i = skipSpace(doc, i+1); doc[i] != '}'; {
		keyEnd := skipString(doc, i)
		key := doc[i:keyEnd]
		i = skipSpace(doc, skipSpace(doc, keyEnd)+1) // past ':'
		end := skipValue(doc, i)
		value := doc[i:end]
		if bytes.IndexByte(key, '\\') >= 0 {
			var k string
			json.Unmarshal(key, &k)
			key = []byte(strconv.Quote(k))
		}
		switch string(key) {
		case `"results"`:
			if err := p.setResults(value); err != nil {
				return nil, err
			}
		case `"totalCount"`:
			if err := p.setTotal(value); err != nil {
				return nil, err
			}
		case `"links"`:
			if err := p.setLinks(value); err != nil {
				return nil, err
			}
		case `"content"`:
			content = value
		}
		i = skipSpace(doc, end)
		if doc[i] == ',' {
			i = skipSpace(doc, i+1)
		}
	}
	if !p.IsList && outer && len(content) > 0 && content[0] == '{' {
		return splitPage(body, content, false)
	}
	if !p.HasTotal {
		p.TotalCount = len(p.Results)
	}
	return p, nil
}

func (p *Page) setResults(v []byte) error {
	if string(v) == "null" {
		p.Results, p.IsList = nil, false
		return nil
	}
	if v[0] != '[' {
		return errNotList("results", v)
	}
	p.Results, p.IsList = make([]json.RawMessage, 0, 16), true
	for i := skipSpace(v, 1); v[i] != ']'; {
		end := skipValue(v, i)
		p.Results = append(p.Results, json.RawMessage(v[i:end:end]))
		if i = skipSpace(v, end); v[i] == ',' {
			i = skipSpace(v, i+1)
		}
	}
	return nil
}

func (p *Page) setTotal(v []byte) error {
	if string(v) == "null" {
		p.TotalCount, p.HasTotal = 0, false
		return nil
	}
	n, err := strconv.Atoi(string(v))
	if err != nil {
		return errNotList("totalCount", v)
	}
	p.TotalCount, p.HasTotal = n, true
	return nil
}

func (p *Page) setLinks(v []byte) error {
	var links []struct {
		Rel  json.RawMessage `json:"rel"`
		Href json.RawMessage `json:"href"`
	}
	if err := json.Unmarshal(v, &links); err != nil {
		return errNotList("links", v)
	}
	p.HasNext, p.Next = false, ""
	for _, l := range links {
		if string(l.Rel) == `"next"` {
			p.HasNext = true
			json.Unmarshal(l.Href, &p.Next) // an href that is not a string is no link to compare
		}
	}
	return nil
}

func errNotList(field string, v []byte) error {
	kind := map[byte]string{'{': "an object", '[': "an array", '"': "a string", 't': "a boolean", 'f': "a boolean", 'n': "null"}[v[0]]
	if kind == "" {
		kind = "the number " + string(v)
	}
	return fmt.Errorf("the answer is not a list: its %q is %s", field, kind)
}

// The scanners below walk a document json.Valid accepted, so they need not
// check what they skip; each returns the index just past what it skipped.

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString skips the string starting at b[i] == '"'. It looks for the
// closing quote with bytes.IndexByte, and only then for an escape before
// it: quicker than bytes.IndexAny, which sets up a table at each call and
// was most of what --all spent splitting a page.
func skipString(b []byte, i int) int {
	end, _ := scanString(b, i)
	return end
}

// scanString is skipString, and the number of bytes it looked at, which
// a test bounds (TestSkipStringLooksAtEachByteAtMostTwice). A quote found
// is searched past only when an escape reaches it: a string of many
// escapes is looked at once for quotes and once for backslashes, not
// again for the quote after each escape (which took seconds on a page of
// 300,000 escapes).
func scanString(b []byte, i int) (end, looked int) {
	for i++; ; {
		q := i + bytes.IndexByte(b[i:], '"')
		looked += q + 1 - i
		for {
			e := bytes.IndexByte(b[i:q], '\\')
			if e < 0 {
				return q + 1, looked + q - i
			}
			looked += e + 1
			if i += e + 2; i > q {
				break // the quote at q was escaped: look for the next one after it
			}
		}
	}
}

// skipValue skips the value starting at b[i].
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; ; i++ {
			switch b[i] {
			case '"':
				i = skipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
	default: // a number, true, false or null
		for ; i < len(b); i++ {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				return i
			}
		}
		return i
	}
}

// Unwrap returns the resource inside an `envelope=true` response
// (`{"status":…, "content":…}`), or body itself when it is not wrapped.
func Unwrap(body []byte) []byte {
	var env struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(body, &env) == nil && len(env.Content) > 0 {
		return env.Content
	}
	return body
}
