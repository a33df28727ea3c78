package client

import (
	"context"
	"errors"
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
//
// The pages held hold at most InFlightBudget: the list being yielded
// holds the page yielded and fetches its next, each other list its first
// page, and each page is read only up to its share of the budget. A page
// larger than its share ends the lists fetched after its own, and the
// walk goes on one list at a time, from that page, with all the budget.
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
		parallel := opts.parallel()
		one := opts
		one.Parallel = 1
		if parallel > 1 {
			one.budget = pageBudget() / int64(parallel+1)
		}
		var window []*listing
		next := 0
		fill := func() {
			for len(window) < parallel && next < len(paths) {
				window = append(window, c.list(ctx, &wg, paths[next], one))
				next++
			}
		}
		fill()
		done := 0 // the items of the lists already yielded
		for len(window) > 0 {
			head, total := window[0], 0
			for {
				r, ok := <-head.pages
				if !ok {
					break
				}
				var over *overShareError
				if errors.As(r.err, &over) {
					for _, l := range window[1:] {
						l.stop()
					}
					next -= len(window) - 1
					parallel, one.budget = 1, 0
					from := one
					from.PageNum = over.page
					head = c.list(ctx, &wg, head.path, from)
					window = []*listing{head}
					continue
				}
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
			fill()
		}
	}
}

// listing is a list whose pages are fetched, one at a time, for
// PagesOfEach.
type listing struct {
	path   string
	pages  chan fetched
	cancel context.CancelFunc
}

// list starts fetching the pages of the list at path.
func (c *Client) list(ctx context.Context, wg *sync.WaitGroup, path string, opts ListOptions) *listing {
	ctx, cancel := context.WithCancel(ctx)
	l := &listing{path: path, pages: make(chan fetched), cancel: cancel}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(l.pages)
		for p, err := range c.Pages(ctx, path, opts) {
			select {
			case l.pages <- fetched{p, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return l
}

// stop ends a list's fetching and waits for it, so that what it read is
// let go.
func (l *listing) stop() {
	l.cancel()
	for range l.pages {
	}
}
