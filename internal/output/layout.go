package output

import (
	"slices"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// colGap is the space between two columns; the table has no margin.
const colGap = 2

// textFloor is the narrowest free text is cut to, "…" included; readable
// is as far as it is cut while there is room for less important columns.
const (
	textFloor = 6
	readable  = 12
)

// longCode is as wide as a code is kept whole while there may be room for
// less important columns: most event types fit (OUTSIDE_METRIC_THRESHOLD).
const longCode = 24

// Lines lays rows out as a terminal table of at most width columns and
// returns its lines, the header line first when withHeader. Times (RFC
// 3339) in time columns are shown relative to now. A table too wide for
// the terminal gives way by the importance of its columns (see columns):
// times take their short form ("30d ago") and a masked secret is left
// out; then the columns, most important first, take their room: whole
// if they can, else cut (free text) or shortened word by word (codes),
// else left out; room left over goes back to the most important. Ids,
// statuses, times and short values are never cut, nor is a table's
// first column; headers take their shorter whole forms. Lines end
// without blanks.
func Lines(headers []string, rows [][]string, width int, now time.Time, withHeader bool) []string {
	return layOut(headers, rows, width, now, withHeader, false)
}

// layOut is Lines, with statuses in colour when color.
func layOut(headers []string, rows [][]string, width int, now time.Time, withHeader, color bool) []string {
	rows = cloneRows(rows)
	cols := make([]column, len(headers))
	for i, h := range headers {
		cols[i] = columnOf(h, i)
	}
	for _, r := range rows {
		for i, c := range r {
			if i < len(cols) && cols[i].kind == kindTime {
				if t, err := time.Parse(time.RFC3339, c); err == nil {
					r[i] = relativeTime(t, now)
				}
			}
		}
	}
	l := &layout{cols: cols, rows: rows, withHeader: withHeader}
	l.fit(width)
	headers, rows = l.cut()
	if color {
		colorStatuses(headers, rows)
	}
	return drawTable(headers, rows, withHeader)
}

// layout is the fitting of one table: each column's width, 0 for a
// column left out.
type layout struct {
	cols       []column
	rows       [][]string
	withHeader bool
	shortTimes bool
	widths     []int
	// measured are the widths of each column's values and its floor,
	// with times long and short: measured once, for a table may have
	// many rows.
	measured [2]*measures
}

type measures struct{ values, floors []int }

func (l *layout) measures() *measures {
	k := 0
	if l.shortTimes {
		k = 1
	}
	if m := l.measured[k]; m != nil {
		return m
	}
	m := &measures{values: make([]int, len(l.cols)), floors: make([]int, len(l.cols))}
	for i := range l.cols {
		shortest := func(string) int { return 0 }
		switch l.cols[i].kind {
		case kindCode:
			shortest = abbreviatedWidth
		case kindPath:
			shortest = elidedWidth
		}
		least := 0
		for _, r := range l.rows {
			c := l.cell(r, i)
			m.values[i] = max(m.values[i], twwidth.Width(c))
			least = max(least, shortest(c))
		}
		switch {
		case i == 0:
			least = m.values[i]
		case l.cols[i].kind == kindText:
			least = min(m.values[i], textFloor)
		case l.cols[i].kind != kindCode && l.cols[i].kind != kindPath:
			least = m.values[i]
		}
		m.floors[i] = max(least, l.headerWidth(i, true))
		if i == 0 {
			m.floors[i] = max(m.values[i], l.headerWidth(i, false))
		}
	}
	l.measured[k] = m
	return m
}

// cell is the text of row r's column i as the layout shows it before any cut.
func (l *layout) cell(r []string, i int) string {
	if i >= len(r) {
		return ""
	}
	if l.shortTimes && l.cols[i].kind == kindTime {
		return shortRelative(r[i])
	}
	return r[i]
}

func (l *layout) valuesWidth(i int) int { return l.measures().values[i] }

func (l *layout) headerWidth(i int, shortest bool) int {
	if !l.withHeader {
		return 0
	}
	forms := l.cols[i].forms
	if shortest {
		return twwidth.Width(forms[len(forms)-1])
	}
	return twwidth.Width(forms[0])
}

// natural is the width of column i with nothing given up.
func (l *layout) natural(i int) int {
	return max(l.valuesWidth(i), l.headerWidth(i, false))
}

// comfortable is the width column i takes while there may be room for
// less important ones: free text cut to a readable width, the rare code
// longer than most shortened, the shortest header.
func (l *layout) comfortable(i int) int {
	values := l.valuesWidth(i)
	switch {
	case i == 0:
	case l.cols[i].kind == kindText:
		values = min(values, readable)
	case l.cols[i].kind == kindCode:
		values = min(values, max(longCode, l.floor(i)))
	}
	return max(values, l.headerWidth(i, true))
}

// floor is the narrowest column i can be: free text cut to a few
// characters, codes shortened word by word, paths to their last segment,
// the shortest header; the first column whole.
func (l *layout) floor(i int) int { return l.measures().floors[i] }

func (l *layout) total() int {
	n, shown := 0, 0
	for _, w := range l.widths {
		if w > 0 {
			n += w
			shown++
		}
	}
	return n + colGap*max(shown-1, 0)
}

// fit sets the width of each column so that the table is at most width
// wide, if it can be with its first column whole.
func (l *layout) fit(width int) {
	l.widths = make([]int, len(l.cols))
	natural := func() {
		for i := range l.cols {
			l.widths[i] = l.natural(i)
		}
	}
	if natural(); l.total() <= width {
		return
	}
	l.shortTimes = true
	if natural(); l.total() <= width {
		return
	}
	order := l.byImportance()
	clear(l.widths)
	for _, i := range order {
		if l.cols[i].kind == kindMasked {
			continue // shown only when nothing else gives way
		}
		gap := 0
		if l.total() > 0 {
			gap = colGap
		}
		for _, w := range []int{l.comfortable(i), l.floor(i)} {
			if l.widths[i] == 0 && (l.total()+gap+w <= width || i == 0) {
				l.widths[i] = w
			}
		}
	}
	l.grow(order, width)
	// A column still cut takes room from columns less important than it,
	// down to their floor, and from columns with nothing in them but a
	// header, which then are left out, when that shows it whole.
	for _, i := range order {
		need := l.natural(i) - l.widths[i]
		if l.widths[i] == 0 || need <= 0 {
			continue
		}
		taken := slices.Clone(l.widths)
		for _, j := range slices.Backward(order) {
			switch {
			case need <= 0:
			case j == 0 || j == i || taken[j] == 0:
			case l.valuesWidth(j) == 0:
				need -= taken[j] + colGap
				taken[j] = 0
			case l.cols[j].rank < l.cols[i].rank:
				give := max(min(taken[j]-l.floor(j), need), 0)
				taken[j] -= give
				need -= give
			}
		}
		if need <= 0 {
			taken[i] = l.natural(i)
			l.widths = taken
			l.grow(order, width)
		}
	}
}

// grow gives the room left in width to the columns shown and cut, the
// most important first.
func (l *layout) grow(order []int, width int) {
	for _, i := range order {
		for l.widths[i] > 0 && l.widths[i] < l.natural(i) && l.total() < width {
			l.widths[i]++
		}
	}
}

// byImportance are the columns, most important first, the leftmost first
// among equals.
func (l *layout) byImportance() []int {
	order := make([]int, len(l.cols))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return l.cols[b].rank - l.cols[a].rank })
	return order
}

// cut returns the headers shown and the cells cut to their columns' widths.
func (l *layout) cut() ([]string, [][]string) {
	var headers []string
	var keep []int
	for i, c := range l.cols {
		if l.widths[i] == 0 {
			continue
		}
		keep = append(keep, i)
		h := c.forms[len(c.forms)-1]
		for _, f := range c.forms {
			if twwidth.Width(f) <= l.widths[i] {
				h = f
				break
			}
		}
		headers = append(headers, h)
	}
	rows := make([][]string, len(l.rows))
	for j, r := range l.rows {
		row := make([]string, len(keep))
		for k, i := range keep {
			v := l.cell(r, i)
			switch l.cols[i].kind {
			case kindText:
				v = truncate(v, l.widths[i])
			case kindCode:
				v = abbreviate(v, l.widths[i])
			case kindPath:
				v = elidePath(v, l.widths[i])
			}
			row[k] = v
		}
		rows[j] = row
	}
	return headers, rows
}

// drawTable aligns cells in columns colGap apart, with tablewriter.
func drawTable(headers []string, rows [][]string, withHeader bool) []string {
	var b strings.Builder
	tbl := tablewriter.NewTable(&b,
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
	if withHeader {
		tbl.Header(headers)
	}
	if tbl.Bulk(rows) != nil || tbl.Render() != nil {
		// tablewriter fails only on rows it cannot read; these are strings.
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	for i, line := range lines {
		lines[i] = strings.TrimRight(line, " ")
	}
	return lines
}

// padding puts colGap spaces between columns and none around the table, as
// layout counts.
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

// oneLine keeps a cell on its line: a row is one line of the screen.
var oneLine = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")

func cloneRows(rows [][]string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = make([]string, len(r))
		for j, c := range r {
			out[i][j] = oneLine.Replace(c)
		}
	}
	return out
}
