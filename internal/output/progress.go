package output

import (
	"fmt"
	"iter"

	"github.com/schollz/progressbar/v3"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/iostreams"
)

// withProgress shows on stderr, when it is a terminal, how many pages and
// items of the total have arrived while --all walks a list.
func withProgress(ios *iostreams.IOStreams, pages iter.Seq2[*client.Page, error]) iter.Seq2[*client.Page, error] {
	if !ios.IsStderrTTY() {
		return pages
	}
	return func(yield func(*client.Page, error) bool) {
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
				bar.Describe(fmt.Sprintf("page %d", page.Number))
				bar.Set(items)
			}
			if !yield(page, err) {
				return
			}
		}
	}
}
