package output

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

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
				return nil, fmt.Errorf("reading %s: %w", strings.ToLower(headers[0]), err)
			}
			return row(v), nil
		},
	}
}

type table struct {
	def  TableDef
	rows [][]string
	now  func() time.Time
}

func newTable(def TableDef, now func() time.Time) *table { return &table{def: def, now: now} }

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
	relativeTimes(rows, t.now())
	fitWidth(t.def.Headers, rows, ios.TerminalWidth())
	if ios.ColorEnabled() {
		colorStatuses(t.def.Headers, rows)
	}
	tbl := tablewriter.NewTable(ios.Out,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders:  tw.BorderNone,
			Settings: tw.Settings{Separators: tw.SeparatorsNone, Lines: tw.LinesNone},
		})),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
	)
	tbl.Header(t.def.Headers)
	if err := tbl.Bulk(rows); err != nil {
		return err
	}
	return tbl.Render()
}

// fitWidth shortens the widest column, repeatedly, until the table fits
// width. The first column, the resource's ID, is never cut: users copy it
// into the next command.
func fitWidth(headers []string, rows [][]string, width int) {
	const pad, minCol = 2, 12
	widths := make([]int, len(headers))
	for i, h := range headers {
		widths[i] = utf8.RuneCountInString(h)
	}
	for _, r := range rows {
		for i, c := range r {
			if i < len(widths) {
				widths[i] = max(widths[i], utf8.RuneCountInString(c))
			}
		}
	}
	total := func() int {
		s := 0
		for _, w := range widths {
			s += w + pad
		}
		return s
	}
	for total() > width {
		if len(widths) < 2 {
			break
		}
		widest := 1
		for i := 2; i < len(widths); i++ {
			if widths[i] > widths[widest] {
				widest = i
			}
		}
		excess := total() - width
		if widths[widest]-excess < minCol {
			if widths[widest] <= minCol {
				break
			}
			widths[widest] = minCol
		} else {
			widths[widest] -= excess
		}
		for _, r := range rows {
			if widest < len(r) {
				r[widest] = truncate(r[widest], widths[widest])
			}
		}
	}
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
