package output

import (
	"fmt"
	"iter"

	"github.com/schollz/progressbar/v3"

	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/listpage"
)

// withProgress shows on stderr how many pages and items of the total have
// arrived while --all walks a list. It draws only when stdout and stderr
// are both terminals: with stdout piped into a pager or `head` on the same
// screen, the bar would land among the data's lines. The bar is cleared
// before each page is printed and drawn again while the next is awaited,
// and cleared for good however the walk ends (done, an error, Ctrl-C, or
// the consumer stopping early).
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
					bar = progressbar.NewOptions(max(page.TotalCount, items),
						progressbar.OptionSetWriter(ios.ErrOut),
						progressbar.OptionSetWidth(30),
						progressbar.OptionShowCount(),
						progressbar.OptionClearOnFinish(),
						progressbar.OptionThrottle(0))
				}
				bar.Clear()
			}
			if !yield(page, err) {
				return
			}
			if err == nil {
				bar.Describe(fmt.Sprintf("page %d", page.Number))
				bar.Set(items)
			}
		}
	}
}
