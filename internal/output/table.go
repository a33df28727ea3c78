package output

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/omctl/omctl/internal/iostreams"
)

// TableDef says how one resource kind is shown as a table row.
type TableDef struct {
	Headers []string
	Row     func(item json.RawMessage) ([]string, error)
}

// Columns builds a TableDef that decodes each item into T (a model of the
// api package) and takes one cell per header from it.
func Columns[T any](headers []string, row func(T) []string) TableDef {
	return TableDef{
		Headers: headers,
		Row: func(item json.RawMessage) ([]string, error) {
			var v T
			if err := json.Unmarshal(item, &v); err != nil {
				return nil, fmt.Errorf("the server's answer does not have the shape of %s (see it with -o json)", strings.ToLower(headers[0]))
			}
			return row(v), nil
		},
	}
}

type table struct {
	def       TableDef
	rows      [][]string
	now       func() time.Time
	noHeaders bool
}

func newTable(def TableDef, opts Options) *table {
	return &table{def: def, now: opts.Now, noHeaders: opts.NoHeaders}
}

func (t *table) add(item json.RawMessage) error {
	row, err := t.def.Row(item)
	if err != nil {
		return err
	}
	t.rows = append(t.rows, row)
	return nil
}

// render prints and forgets the rows gathered so far: on a terminal an
// aligned table with headers that fits the width; otherwise tab-separated
// rows without a header, one resource a line, for cut and awk.
func (t *table) render(ios *iostreams.IOStreams) error {
	rows := t.rows
	t.rows = nil
	if !ios.IsStdoutTTY() {
		if ios.ColorEnabled() { // CLICOLOR_FORCE
			colorStatuses(t.def.Headers, rows)
		}
		var b strings.Builder
		for _, r := range rows {
			for i, c := range r {
				if i > 0 {
					b.WriteByte('\t')
				}
				b.WriteString(strings.NewReplacer("\t", " ", "\n", " ").Replace(c))
			}
			b.WriteByte('\n')
		}
		_, err := fmt.Fprint(ios.Out, b.String())
		return err
	}
	if len(rows) == 0 {
		_, err := fmt.Fprintln(ios.ErrOut, "No results.")
		return err
	}
	lines := layOut(t.def.Headers, rows, ios.TerminalWidth(), t.now(), !t.noHeaders, ios.ColorEnabled())
	_, err := fmt.Fprint(ios.Out, strings.Join(lines, "\n")+"\n")
	return err
}

// TableLines are the lines of the terminal table of items (see Lines),
// none for no items: for a screen drawn whole, as --watch draws it.
func (p *Printer) TableLines(def TableDef, items []json.RawMessage) ([]string, error) {
	t := newTable(def, p.opts)
	for _, item := range items {
		if err := t.add(item); err != nil {
			return nil, err
		}
	}
	if len(t.rows) == 0 {
		return nil, nil
	}
	return layOut(def.Headers, t.rows, p.io.TerminalWidth(), t.now(), !t.noHeaders, p.io.ColorEnabled()), nil
}
