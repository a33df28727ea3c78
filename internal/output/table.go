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
	times := relativeTimes(rows, t.now())
	headers := fitWidth(t.def.Headers, rows, ios.TerminalWidth(), times)
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

// Importance of a column when a table is wider than the terminal: the
// columns give way in this order, least important first, and a column
// marked keep is never cut (it may only be left out, last of all, when
// the terminal is narrower than what can never be cut).
const (
	giveFreeText = iota // targets, lists, descriptions: shrink first
	giveShort           // short values (true, ADMIN): only their header shrinks
	giveName            // event types and names: shrink when nothing else can
	keep                // the id, the status and times: never cut
)

// columnImportance ranks the columns of a table: the first column, the
// resource's id, is what users copy into the next command; STATUS and
// times are what they read the table for.
func columnImportance(headers []string, rows [][]string, times map[int]bool) []int {
	const short = 8
	imp := make([]int, len(headers))
	for i, h := range headers {
		natural := 0
		for _, r := range rows {
			if i < len(r) {
				natural = max(natural, twwidth.Width(r[i]))
			}
		}
		switch {
		case i == 0 || h == "STATUS" || times[i] || h == "PROJECT":
			// The PROJECT of --all-projects is copied into the next
			// command (--project) like the id.
			imp[i] = keep
		case natural <= short:
			imp[i] = giveShort
		case h == "EVENT" || h == "NAME" || h == "TYPE" || h == "METRIC":
			imp[i] = giveName
		default:
			imp[i] = giveFreeText
		}
	}
	return imp
}

// fitWidth makes the table fit width columns and returns the headers to
// show, cutting cells in place. Relative times first take their short
// form ("30d ago") as a whole; then the columns give way by importance
// (columnImportance), the widest of a rank first, each down to a few
// characters ending in "…"; short columns lose only what their header
// has beyond their values. A table that still does not fit leaves out
// whole columns, least important and rightmost first, never the id.
func fitWidth(headers []string, rows [][]string, width int, times map[int]bool) []string {
	headers = slices.Clone(headers)
	widthsOf := func() ([]int, int) {
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
		total := colGap * (len(widths) - 1)
		for _, w := range widths {
			total += w
		}
		return widths, total
	}
	widths, total := widthsOf()
	if total > width && len(times) > 0 {
		for _, r := range rows {
			for i := range r {
				if times[i] {
					r[i] = shortRelative(r[i])
				}
			}
		}
		widths, total = widthsOf()
	}
	imp := columnImportance(headers, rows, times)
	const minCol = 3 // two characters and "…"
	valuesWidth := func(col int) int {
		w := minCol
		for _, r := range rows {
			w = max(w, twwidth.Width(r[col]))
		}
		return w
	}
	headerOr := func(n int) func(int) int {
		return func(col int) int { return max(n, twwidth.Width(headers[col])) }
	}
	atLeast := func(n int) func(int) int { return func(int) int { return n } }
	// Each stage shrinks the columns of one rank, widest first, down to a
	// floor, and only while the table does not fit: free text to a useful
	// width, then headers longer than their short values, then names,
	// then free text and names to almost nothing.
	for _, stage := range []struct {
		rank  int
		floor func(col int) int
	}{
		{giveFreeText, headerOr(8)},
		{giveShort, valuesWidth},
		{giveName, atLeast(12)},
		{giveFreeText, atLeast(minCol)},
		{giveName, atLeast(minCol)},
	} {
		for total > width {
			widest := -1
			for i := range widths {
				if imp[i] == stage.rank && widths[i] > stage.floor(i) && (widest < 0 || widths[i] > widths[widest]) {
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
	for i := range widths {
		headers[i] = truncate(headers[i], widths[i])
		for _, r := range rows {
			if i < len(r) {
				r[i] = truncate(r[i], widths[i])
			}
		}
	}
	// Narrower than what cannot be cut: leave columns out.
	for total > width {
		drop := -1
		for i := len(widths) - 1; i > 0; i-- {
			if drop < 0 || imp[i] < imp[drop] {
				drop = i
			}
		}
		if drop < 0 {
			break
		}
		total -= widths[drop] + colGap
		headers = slices.Delete(headers, drop, drop+1)
		widths = slices.Delete(widths, drop, drop+1)
		imp = slices.Delete(imp, drop, drop+1)
		for j, r := range rows {
			if drop < len(r) {
				rows[j] = slices.Delete(r, drop, drop+1)
			}
		}
	}
	return headers
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
