// Package output prints API answers as tables, JSON or JSON lines, and
// filters them with jq expressions.
package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/listpage"
)

// Options choose how a Printer prints.
type Options struct {
	Format string
	JQ     string
	// Pretty keeps the server's indentation even when stdout is not a terminal.
	Pretty bool
	// Envelope says responses are wrapped (envelope=true) and must be
	// unwrapped for tables and JSON lines.
	Envelope bool
	// Now is the time relative times are measured from (time.Now if nil).
	Now func() time.Time
	// NoHeaders leaves the header line out of terminal tables (piped
	// tables never have one).
	NoHeaders bool
}

// Printer writes results to the data stream of an IOStreams.
type Printer struct {
	io   *iostreams.IOStreams
	opts Options
	jq   *jqFilter
}

// UsageError is a mistake in how output was asked for (a bad -o or --jq).
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// New checks the options, compiling --jq so a bad expression fails before
// any request is sent.
func New(ios *iostreams.IOStreams, opts Options) (*Printer, error) {
	if opts.Format == "" {
		opts.Format = api.FormatTable
	}
	if !slices.Contains(api.OutputFormats, opts.Format) {
		return nil, &UsageError{fmt.Errorf("invalid output format %q: valid formats are %s", opts.Format, strings.Join(api.OutputFormats, ", "))}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	p := &Printer{io: ios, opts: opts}
	if opts.JQ != "" {
		if opts.Format == api.FormatTable {
			// --jq works on JSON; asking for it means JSON is wanted.
			p.opts.Format = api.FormatJSON
		}
		f, err := compileJQ(opts.JQ)
		if err != nil {
			return nil, &UsageError{err}
		}
		p.jq = f
	}
	return p, nil
}

// Format is the effective output format.
func (p *Printer) Format() string { return p.opts.Format }

// Resource prints one resource from the body the server sent.
func (p *Printer) Resource(body []byte, def TableDef) error {
	switch p.opts.Format {
	case api.FormatJSON:
		return p.printJSON(body)
	case api.FormatYAML:
		return p.printYAML(body)
	case api.FormatJSONL:
		return p.printJSONLine(p.content(body))
	default:
		t := newTable(def, p.opts)
		if err := t.add(p.content(body)); err != nil {
			return err
		}
		return t.render(p.io)
	}
}

// Part is how much of a list a command prints, which decides what the
// printer says of the rest.
type Part int

const (
	// FirstPage is what a list command prints when no page was asked
	// for: the first page, and a line on stderr when more items exist,
	// so that neither a person nor a pipeline takes it for the whole
	// list.
	FirstPage Part = iota
	// PageAsked is a page the user chose (--page, --limit), or an answer
	// that is all there is: nothing is said of the rest.
	PageAsked
	// AllPages is every page (--all), its progress drawn on a terminal.
	AllPages
)

// List prints the pages of a list, whole (see whole) even when the walk
// stops part way. Of a FirstPage list that more items follow, stderr says
// how many, in every format, piped or not.
func (p *Printer) List(pages iter.Seq2[*listpage.Page, error], part Part, def TableDef) error {
	var first *listpage.Page
	if part == FirstPage {
		pages = keepFirst(pages, &first)
	}
	if err := p.whole(pages, part == AllPages, def); err != nil {
		return err
	}
	if first == nil {
		return nil
	}
	if more := moreThan(first); more != "" {
		_, err := fmt.Fprintf(p.io.ErrOut, "%s; --all for every page\n", more)
		return err
	}
	return nil
}

// keepFirst passes pages on, keeping the first in *first.
func keepFirst(pages iter.Seq2[*listpage.Page, error], first **listpage.Page) iter.Seq2[*listpage.Page, error] {
	return func(yield func(*listpage.Page, error) bool) {
		for page, err := range pages {
			if err == nil && *first == nil {
				*first = page
			}
			if !yield(page, err) {
				return
			}
		}
	}
}

// moreThan says how much of the list the first page shows, when the
// server's answer says more items follow ("" when it is the whole list):
// a `next` link, or a totalCount beyond the page. A page that omctl
// filtered (Unfiltered) is told against the page the server sent.
func moreThan(page *listpage.Page) string {
	sent := page
	if page.Unfiltered != nil {
		sent = page.Unfiltered
	}
	more := sent.HasTotal && sent.TotalCount > len(sent.Results)
	if !more && !sent.HasNext {
		return ""
	}
	switch {
	case page.Unfiltered != nil && more:
		return fmt.Sprintf("Showing %d, kept by omctl from the first %d of %d", len(page.Results), len(sent.Results), sent.TotalCount)
	case page.Unfiltered != nil:
		return fmt.Sprintf("Showing %d, kept by omctl from the first %d; more pages follow", len(page.Results), len(sent.Results))
	case more:
		return fmt.Sprintf("Showing %d of %d", len(page.Results), sent.TotalCount)
	}
	return fmt.Sprintf("Showing %d; more pages follow", len(page.Results))
}

// list prints the pages of a list. With several pages (all), JSON output is
// one merged `{"results": [...], "totalCount": N}`, built as pages arrive
// (through --jq, built once from every item); JSON lines and plain table
// rows stream as pages arrive.
func (p *Printer) list(pages iter.Seq2[*listpage.Page, error], all bool, def TableDef) error {
	if all {
		pages = withProgress(p.io, pages)
	}
	switch p.opts.Format {
	case api.FormatJSON:
		if !all {
			for page, err := range pages {
				if err != nil {
					return err
				}
				return p.printJSON(page.Body)
			}
			return nil
		}
		if p.jq != nil {
			return p.jqMerged(pages)
		}
		return p.streamMerged(pages)
	case api.FormatYAML:
		body, err := mergeAll(pages, all)
		if err != nil {
			return err
		}
		return p.printYAML(body)
	case api.FormatJSONL:
		return p.streamLines(pages)
	default:
		t := newTable(def, p.opts)
		for page, err := range pages {
			if err != nil {
				// Rows already fetched are still worth showing.
				if len(t.rows) > 0 {
					_ = t.render(p.io)
				}
				return err
			}
			for _, item := range page.Results {
				if err := t.add(item); err != nil {
					return err
				}
			}
			if !p.io.IsStdoutTTY() {
				if err := t.render(p.io); err != nil {
					return err
				}
			}
		}
		return t.render(p.io)
	}
}

func (p *Printer) content(body []byte) []byte {
	if p.opts.Envelope {
		return listpage.Unwrap(body)
	}
	return body
}

// printJSON prints a body as received: indented on a terminal or when
// --pretty asked for it, compact otherwise; through jq when --jq is set.
func (p *Printer) printJSON(body []byte) error {
	if p.jq != nil {
		return p.jq.run(p.io.Out, body, p.io.IsStdoutTTY())
	}
	var buf bytes.Buffer
	var err error
	if p.io.IsStdoutTTY() || p.opts.Pretty {
		err = json.Indent(&buf, body, "", "  ")
	} else {
		err = json.Compact(&buf, body)
	}
	if err != nil {
		return fmt.Errorf("the server sent invalid JSON: %w", err)
	}
	buf.WriteByte('\n')
	_, err = p.io.Out.Write(buf.Bytes())
	return err
}

func (p *Printer) printJSONLine(item []byte) error {
	if p.jq != nil {
		return p.jq.run(p.io.Out, item, false)
	}
	var buf bytes.Buffer
	if err := writeLine(&buf, item); err != nil {
		return err
	}
	_, err := p.io.Out.Write(buf.Bytes())
	return err
}

// mergeAll is the body of a one-page list, or, with all, every page's
// items merged in one `{"results": [...], "totalCount": N}`, in memory.
func mergeAll(pages iter.Seq2[*listpage.Page, error], all bool) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(`{"results":[`)
	n := 0
	for page, err := range pages {
		if err != nil {
			return nil, err
		}
		if !all {
			return page.Body, nil
		}
		for _, item := range page.Results {
			if n > 0 {
				buf.WriteByte(',')
			}
			buf.Write(item)
			n++
		}
	}
	fmt.Fprintf(&buf, `],"totalCount":%d}`, n)
	return buf.Bytes(), nil
}
