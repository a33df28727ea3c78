package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"os"

	"github.com/omctl/omctl/internal/listpage"
)

// streamBufferSize is how much output is gathered before a write: large
// enough that a page of items costs a few system calls, not one per item.
const streamBufferSize = 64 << 10

// lineWriter buffers output and writes it out at the end of each page, and
// before an error is returned, so what reached stdout is always whole lines
// (also when Ctrl-C or a failing page ends a walk).
type lineWriter struct {
	*bufio.Writer
}

func newLineWriter(w io.Writer) lineWriter {
	return lineWriter{bufio.NewWriterSize(w, streamBufferSize)}
}

// done flushes and returns err, or the flush's own error.
func (w lineWriter) done(err error) error {
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
}

// writeLine writes one item on one line. An item with no line break in it
// is written as the server sent it, without decoding it; one the server
// indented (--pretty) is compacted onto its line.
func writeLine(w io.Writer, item []byte) error {
	if bytes.IndexByte(item, '\n') >= 0 || bytes.IndexByte(item, '\r') >= 0 {
		var buf bytes.Buffer
		if err := json.Compact(&buf, item); err != nil {
			return fmt.Errorf("the server sent invalid JSON: %w", err)
		}
		buf.WriteByte('\n')
		_, err := w.Write(buf.Bytes())
		return err
	}
	if _, err := w.Write(item); err != nil {
		return err
	}
	_, err := w.Write(newline)
	return err
}

var newline = []byte{'\n'}

// streamLines prints every item of every page on its own line, through
// --jq when it is set (each item decoded once).
func (p *Printer) streamLines(pages iter.Seq2[*listpage.Page, error]) error {
	w := newLineWriter(p.io.Out)
	for page, err := range pages {
		if err != nil {
			return w.done(err)
		}
		for _, item := range page.Results {
			var err error
			if p.jq != nil {
				err = p.jq.run(w, item, false)
			} else {
				err = writeLine(w, item)
			}
			if err != nil {
				return w.done(err)
			}
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	return w.Flush()
}

// streamMerged prints the items of every page as one document,
// `{"results":[...],"totalCount":N}`, written page by page into a spool
// instead of holding the whole list in memory, and printed once the last
// page is in: a walk that stops (Ctrl-C, a failed page) prints nothing,
// never part of a document. It prints what json.Indent (on a terminal or
// with --pretty) or json.Compact would print of the merged document; each
// item's bytes are those the server sent.
func (p *Printer) streamMerged(pages iter.Seq2[*listpage.Page, error]) error {
	indent := p.io.IsStdoutTTY() || p.opts.Pretty
	doc := &spool{}
	defer doc.close()
	w := newLineWriter(doc)
	n, total := 0, 0
	var scratch bytes.Buffer
	if indent {
		w.WriteString("{\n  \"results\": [")
	} else {
		w.WriteString(`{"results":[`)
	}
	for page, err := range pages {
		if err != nil {
			return err
		}
		total = page.TotalCount
		for _, item := range page.Results {
			if n > 0 {
				w.WriteByte(',')
			}
			n++
			out := item
			if indent || bytes.IndexByte(item, '\n') >= 0 || bytes.IndexByte(item, '\r') >= 0 {
				scratch.Reset()
				var err error
				if indent {
					scratch.WriteString("\n    ")
					err = json.Indent(&scratch, item, "    ", "  ")
				} else {
					err = json.Compact(&scratch, item)
				}
				if err != nil {
					return fmt.Errorf("the server sent invalid JSON: %w", err)
				}
				out = scratch.Bytes()
			}
			w.Write(out)
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	total = max(total, n)
	switch {
	case indent && n > 0:
		fmt.Fprintf(w, "\n  ],\n  \"totalCount\": %d\n}\n", total)
	case indent:
		fmt.Fprintf(w, "],\n  \"totalCount\": %d\n}\n", total)
	default:
		fmt.Fprintf(w, "],\"totalCount\":%d}\n", total)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return doc.copyTo(p.io.Out)
}

// spoolMemory is how much of a document a spool holds in memory before it
// moves it to a temporary file.
var spoolMemory = 8 << 20

// spool holds a document until it is whole: in memory up to spoolMemory,
// then in a temporary file whose name is removed at once where the system
// allows it (so nothing is left behind, however omctl ends), else when
// the spool is closed.
type spool struct {
	mem  bytes.Buffer
	file *os.File
	name string // the file's name while it still has one
}

func (s *spool) Write(b []byte) (int, error) {
	if s.file == nil && s.mem.Len()+len(b) <= spoolMemory {
		return s.mem.Write(b)
	}
	if s.file == nil {
		f, err := os.CreateTemp("", "omctl-list-*.json")
		if err != nil {
			return 0, fmt.Errorf("no room to hold the list until it is whole: %w", err)
		}
		s.file = f
		if os.Remove(f.Name()) != nil {
			s.name = f.Name()
		}
		if _, err := s.mem.WriteTo(f); err != nil {
			return 0, fmt.Errorf("no room to hold the list until it is whole: %w", err)
		}
	}
	n, err := s.file.Write(b)
	if err != nil {
		err = fmt.Errorf("no room to hold the list until it is whole: %w", err)
	}
	return n, err
}

// copyTo writes the whole document to w.
func (s *spool) copyTo(w io.Writer) error {
	if s.file == nil {
		_, err := s.mem.WriteTo(w)
		return err
	}
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(w, s.file)
	return err
}

func (s *spool) close() {
	if s.file != nil {
		s.file.Close()
		if s.name != "" {
			os.Remove(s.name)
		}
	}
}

// jqMerged runs --jq once over the merged list, decoding each item once
// into the value jq works on rather than joining the bytes and decoding
// the whole again.
func (p *Printer) jqMerged(pages iter.Seq2[*listpage.Page, error]) error {
	var items []any
	total := 0
	for page, err := range pages {
		if err != nil {
			return err
		}
		total = page.TotalCount
		for _, item := range page.Results {
			v, err := decodeForJQ(item)
			if err != nil {
				return fmt.Errorf("the server sent invalid JSON: %w", err)
			}
			items = append(items, v)
		}
	}
	if items == nil {
		items = []any{}
	}
	doc := map[string]any{"results": items, "totalCount": max(total, len(items))}
	return p.jq.runValue(p.io.Out, doc, p.io.IsStdoutTTY())
}
