package client

import (
	"context"
	"iter"
	"sync"
)

// PagesOfEach yields the pages of the list at each path, one list after
// the other, each fetched as Pages fetches it with opts. Up to
// opts.Parallel lists are fetched at once (each one page at a time, so no
// more requests are in flight than one list's --all would have); a list
// waiting its turn holds at most one page ahead, so memory stays bounded
// however long the lists. Each page's TotalCount is the sum of the
// totals of the lists so far, so that the pages read as one list.
func (c *Client) PagesOfEach(ctx context.Context, paths []string, opts ListOptions) iter.Seq2[*Page, error] {
	return func(yield func(*Page, error) bool) {
		if err := opts.Validate(); err != nil {
			yield(nil, err)
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		var wg sync.WaitGroup
		defer func() {
			cancel()
			wg.Wait()
		}()
		type result struct {
			page *Page
			err  error
		}
		one := opts
		one.Parallel = 1
		var window []chan result
		next := 0
		start := func() {
			path := paths[next]
			next++
			ch := make(chan result, 1)
			window = append(window, ch)
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer close(ch)
				for p, err := range c.Pages(ctx, path, one) {
					select {
					case ch <- result{p, err}:
					case <-ctx.Done():
						return
					}
					if err != nil {
						return
					}
				}
			}()
		}
		for len(window) < opts.parallel() && next < len(paths) {
			start()
		}
		done := 0 // the items of the lists already yielded
		for len(window) > 0 {
			total := 0
			for r := range window[0] {
				if r.err != nil {
					yield(nil, r.err)
					return
				}
				merged := *r.page
				total = max(r.page.TotalCount, total)
				merged.TotalCount, merged.HasTotal = done+total, true
				if !yield(&merged, nil) {
					return
				}
			}
			done += total
			window = window[1:]
			if next < len(paths) {
				start()
			}
		}
	}
}
