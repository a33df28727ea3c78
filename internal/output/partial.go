package output

import (
	"fmt"
	"iter"
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/listpage"
)

// whole prints the pages of a list (see list). A walk that stops before its
// end, on Ctrl-C or on an error, leaves whole output: a table ends with
// the rows fetched and, on a terminal, a line that says the list is
// partial; JSON lines are whole lines; -o json and yaml print nothing,
// since a document is printed only once it is complete; and stderr says
// how much was not fetched.
func (p *Printer) whole(pages iter.Seq2[*listpage.Page, error], all bool, def TableDef) error {
	var walk tally
	err := p.list(walk.count(p.io, pages), all, def)
	if walk.err != nil && walk.pages > 0 {
		// A list whose first page failed is no partial list: the error
		// says it all.
		p.sayPartial(&walk)
	}
	return err
}

// tally counts what a walk of pages fetched, and keeps the error that
// ended it.
type tally struct {
	pages, items int
	// total is the servers' totalCount, -1 when unknown: no page had
	// one, or pages disagreed (--all-projects walks several lists).
	total int
	err   error
}

func (t *tally) count(ios *iostreams.IOStreams, pages iter.Seq2[*listpage.Page, error]) iter.Seq2[*listpage.Page, error] {
	t.total = -1
	first := true
	return func(yield func(*listpage.Page, error) bool) {
		for page, err := range pages {
			if err != nil {
				t.err = err
				// Ctrl-C was echoed where the cursor stood: what comes
				// next starts on a clean line.
				ios.ClearTerminalLine()
			} else {
				t.pages++
				t.items += len(page.Results)
				switch {
				case !page.HasTotal:
					t.total = -1
				case first:
					t.total = page.TotalCount
				case page.TotalCount != t.total:
					t.total = -1
				}
				first = false
			}
			if !yield(page, err) {
				return
			}
		}
	}
}

// sayPartial says, after a walk that stopped, what was printed of it: a
// line under a terminal's table, and on stderr what was not fetched.
func (p *Printer) sayPartial(t *tally) {
	whole := p.opts.Format == api.FormatJSONL || p.opts.Format == api.FormatTable
	if whole && p.opts.Format == api.FormatTable && p.io.IsStdoutTTY() && t.items > 0 {
		fmt.Fprintf(p.io.Out, "(partial list: %d %s)\n", t.items, t.of())
	}
	missing := "the rest were not fetched"
	if t.total >= 0 {
		missing = fmt.Sprintf("%d of %d were not fetched", max(t.total-t.items, 0), t.total)
	}
	msg := fmt.Sprintf("The list stopped before its end: %d items printed, %s.", t.items, missing)
	if !whole {
		msg = fmt.Sprintf("The list stopped before its end: nothing printed (-o %s prints the whole list or nothing); %s.", p.opts.Format, missing)
	}
	if p.io.IsStderrTTY() {
		msg = strings.Join(wrapLines(msg, p.io.TerminalWidth()), "\n")
	}
	fmt.Fprintln(p.io.ErrOut, msg)
}

// of is how much of the list the tally is: "shown", or "of 252 shown".
func (t *tally) of() string {
	if t.total >= 0 {
		return fmt.Sprintf("of %d shown", t.total)
	}
	return "shown"
}
