package output

import (
	"fmt"
	"iter"
	"strconv"

	"github.com/schollz/progressbar/v3"

	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/listpage"
)

// withProgress shows on stderr how many pages and items of the total have
// arrived while --all walks a list. It draws only when stdout and stderr
// are both terminals: with stdout piped into a pager or `head` on the same
// screen, the bar would land among the data's lines. The bar is cleared
// before each page, or the error that ends the walk, is handed on, and
// drawn again while the next is awaited; it is cleared for good however
// the walk ends (done, an error, Ctrl-C, or the consumer stopping early).
// Clearing erases the whole line, the ^C a terminal echoes included.
func withProgress(ios *iostreams.IOStreams, pages iter.Seq2[*listpage.Page, error]) iter.Seq2[*listpage.Page, error] {
	if !ios.IsStdoutTTY() || !ios.IsStderrTTY() {
		return pages
	}
	return func(yield func(*listpage.Page, error) bool) {
		var bar *progressbar.ProgressBar
		defer func() {
			if bar != nil {
				bar.Clear()
			}
		}()
		items := 0
		for page, err := range pages {
			if err == nil {
				items += len(page.Results)
				if bar == nil {
					total := max(page.TotalCount, items)
					bar = progressbar.NewOptions(total,
						progressbar.OptionSetWriter(ios.ErrOut),
						progressbar.OptionSetWidth(barWidth(ios.TerminalWidth(), total)),
						progressbar.OptionShowCount(),
						progressbar.OptionClearOnFinish(),
						progressbar.OptionUseANSICodes(true),
						progressbar.OptionThrottle(0))
				}
			}
			if bar != nil {
				bar.Clear()
			}
			if !yield(page, err) {
				return
			}
			if err == nil {
				if items > bar.GetMax() {
					// --all-projects: each project's pages have their own total.
					bar.ChangeMax(items)
				}
				bar.Describe(fmt.Sprintf("page %d", page.Number))
				bar.Set(items)
			}
		}
	}
}

// barWidth is the width of the bar itself that keeps the whole line,
// `page N  35% |███   | (90/252) [2s:5s]`, within a terminal of width
// columns for a list of total items (or up to ten times as many, as the
// pages of --all-projects add up), at most 30.
func barWidth(width, total int) int {
	digits := len(strconv.Itoa(total)) + 1
	const times = len(" [59m59s:59m59s]")
	// "page N", "%4d%% ", the bar's two ends, " (n/total)", the times
	// and one column for the cursor.
	rest := len("page ") + digits + len(" 100% ") + 2 + len(" (/)") + 2*digits + times + 1
	return max(min(30, width-rest), 1)
}
