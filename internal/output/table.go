package output

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
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
	relativeTimes(rows, t.now())
	headers := fitWidth(t.def.Headers, rows, ios.TerminalWidth())
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
		tablewriter.WithHeaderPaddingPerColumn(padding(len(headers))),
		tablewriter.WithRowPaddingPerColumn(padding(len(headers))),
	)
	if !t.noHeaders {
		tbl.Header(headers)
	}
	if err := tbl.Bulk(rows); err != nil {
		return err
	}
	return tbl.Render()
}

// colGap is the space between two columns; the table has no margin.
const colGap = 2

// fitWidth cuts cells, and if need be headers, so that the table fits width
// columns. It takes one column at a time from the widest column, in rounds
// that each go further only if the table still does not fit: long text
// (names, targets, lists) down to 12 characters, then down to its header,
// keeping short values (statuses, times, flags) whole; then every column
// down to its header, so headers stay whole; last down to a few characters. The first column, the
// resource's ID, is never cut: users copy it into the next command. It
// returns the headers to show.
func fitWidth(headers []string, rows [][]string, width int) []string {
	widths := make([]int, len(headers))
	for i, h := range headers {
		widths[i] = twwidth.Width(h)
	}
	for _, r := range rows {
		for i, c := range r {
			if i < len(widths) {
				widths[i] = max(widths[i], twwidth.Width(c))
			}
		}
	}
	natural := slices.Clone(widths)
	total := colGap * (len(widths) - 1)
	for _, w := range widths {
		total += w
	}
	const short, minCol = 12, 3 // minCol leaves two characters and "…"
	header := func(col int) int { return twwidth.Width(headers[col]) }
	keepShort := func(col int, floor int) int {
		if natural[col] <= short {
			return natural[col]
		}
		return floor
	}
	for _, floor := range []func(col int) int{
		func(col int) int { return keepShort(col, max(header(col), short)) },
		func(col int) int { return keepShort(col, header(col)) },
		header,
		func(int) int { return minCol },
	} {
		for total > width {
			widest := -1
			for i := 1; i < len(widths); i++ {
				if widths[i] > floor(i) && (widest < 0 || widths[i] > widths[widest]) {
					widest = i
				}
			}
			if widest < 0 {
				break
			}
			widths[widest]--
			total--
		}
	}
	out := slices.Clone(headers)
	for i := 1; i < len(widths); i++ {
		out[i] = truncate(out[i], widths[i])
		for _, r := range rows {
			if i < len(r) {
				r[i] = truncate(r[i], widths[i])
			}
		}
	}
	return out
}

// truncate cuts s to n display columns, ending in "…" when cut.
func truncate(s string, n int) string {
	if twwidth.Width(s) <= n {
		return s
	}
	return twwidth.Truncate(s, n-1) + "…"
}

// padding puts colGap spaces between columns and none around the table, as
// fitWidth counts.
func padding(cols int) []tw.Padding {
	p := make([]tw.Padding, cols)
	for i := range p {
		p[i] = tw.Padding{Right: strings.Repeat(" ", colGap), Overwrite: true}
	}
	if cols > 0 {
		p[cols-1] = tw.Padding{Overwrite: true}
	}
	return p
}
