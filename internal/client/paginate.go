package client

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/url"
	"strconv"
	"sync"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/listpage"
)

// MaxItemsPerPage is the largest page the API serves.
const MaxItemsPerPage = api.MaxItemsPerPage

// DefaultParallel is how many pages All fetches at once once the first
// page has told how many items there are.
const DefaultParallel = 4

// MaxParallel bounds Parallel: every page in flight holds up to a page of
// memory, and the server accepts digest nonce counts out of order only
// within a window (a small number of requests) of the highest seen.
const MaxParallel = 32

// ListOptions are the query parameters every list endpoint shares.
type ListOptions struct {
	PageNum      int // 1-based; 0 means the server's default
	ItemsPerPage int // 0 means the server's default (100)
	// All walks every page from PageNum on.
	All bool
	// Parallel is how many pages All fetches at once after the first
	// (0 means DefaultParallel, 1 one after another). Pages are still
	// yielded in order.
	Parallel int
	// BackupJobsEnabledOnly is sent only when set, so the server's
	// per-endpoint default applies otherwise.
	BackupJobsEnabledOnly *bool
	// Query holds the endpoint's own parameters (status, dates, ...).
	Query url.Values
}

// Validate checks the page bounds before anything is sent.
func (o ListOptions) Validate() error {
	if o.PageNum < 0 {
		return fmt.Errorf("invalid page %d: pages start at 1", o.PageNum)
	}
	if o.ItemsPerPage < 0 || o.ItemsPerPage > MaxItemsPerPage {
		return fmt.Errorf("invalid limit %d: must be between 1 and %d", o.ItemsPerPage, MaxItemsPerPage)
	}
	if o.Parallel < 0 || o.Parallel > MaxParallel {
		return fmt.Errorf("invalid parallel %d: must be between 1 and %d", o.Parallel, MaxParallel)
	}
	return nil
}

func (o ListOptions) values(page int) url.Values {
	q := url.Values{}
	for k, v := range o.Query {
		q[k] = v
	}
	if page > 0 {
		q.Set("pageNum", strconv.Itoa(page))
	}
	if o.ItemsPerPage > 0 {
		q.Set("itemsPerPage", strconv.Itoa(o.ItemsPerPage))
	}
	if o.BackupJobsEnabledOnly != nil {
		q.Set("backupJobsEnabledOnly", strconv.FormatBool(*o.BackupJobsEnabledOnly))
	}
	return q
}

func (o ListOptions) parallel() int {
	if o.Parallel == 0 {
		return DefaultParallel
	}
	return o.Parallel
}

// Pages yields the pages of a list: one page, or with All every page until
// a page comes back empty, or neither a `next` link nor the total count
// says more follow.
//
// With All, once the first page has given `totalCount` and ItemsPerPage is
// set, the pages up to that count are fetched Parallel at a time and
// yielded in page order; a consumer that is slow holds back the fetching,
// so at most Parallel pages wait in memory. Without a total, `next` is
// followed one page after another. The first page is fetched alone so the
// whole walk answers one digest challenge.
func (c *Client) Pages(ctx context.Context, path string, opts ListOptions) iter.Seq2[*Page, error] {
	return func(yield func(*Page, error) bool) {
		if err := opts.Validate(); err != nil {
			yield(nil, err)
			return
		}
		p, err := c.page(ctx, path, opts, opts.PageNum)
		if err != nil {
			yield(nil, err)
			return
		}
		if !yield(p, nil) || !opts.All {
			return
		}
		perPage := opts.ItemsPerPage
		if perPage == 0 || (p.HasTotal && len(p.Results) > 0 && len(p.Results) < perPage && p.TotalCount > len(p.Results)) {
			// The server's default page size, or smaller pages than asked.
			perPage = len(p.Results)
		}
		if opts.ItemsPerPage > 0 && p.HasTotal && opts.parallel() > 1 && len(p.Results) > 0 {
			last := (p.TotalCount + perPage - 1) / perPage
			if last > p.Number {
				var ok bool
				if p, ok = c.pagesAtOnce(ctx, path, opts, p.Number+1, last, yield); !ok {
					return
				}
			}
		}
		for more(p, perPage) {
			if p, err = c.page(ctx, path, opts, p.Number+1); err != nil {
				yield(nil, err)
				return
			}
			if !yield(p, nil) {
				return
			}
		}
	}
}

// more reports whether pages follow p: it is not empty, and the server
// links a next page or counts more items than the pages so far hold.
func more(p *Page, perPage int) bool {
	if len(p.Results) == 0 {
		return false
	}
	return p.HasNext || (p.HasTotal && perPage > 0 && p.Number*perPage < p.TotalCount)
}

// pagesAtOnce fetches pages from..to with up to opts.Parallel requests in
// flight and yields them in order. It starts a page's request only when
// there is room in the window, which moves on as the consumer takes pages.
// It returns the last page yielded, and false when the walk must end (an
// error, or the consumer stopped).
func (c *Client) pagesAtOnce(ctx context.Context, path string, opts ListOptions, from, to int, yield func(*Page, error) bool) (*Page, bool) {
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
	var window []chan result
	next := from
	start := func() {
		n := next
		next++
		ch := make(chan result, 1)
		window = append(window, ch)
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := c.page(ctx, path, opts, n)
			ch <- result{p, err}
		}()
	}
	for len(window) < opts.parallel() && next <= to {
		start()
	}
	var last *Page
	for len(window) > 0 {
		r := <-window[0]
		window = window[1:]
		if r.err != nil {
			yield(nil, r.err)
			return nil, false
		}
		if !yield(r.page, nil) {
			return nil, false
		}
		last = r.page
		if len(last.Results) == 0 {
			break // items went away meanwhile: nothing follows
		}
		if next <= to {
			start()
		}
	}
	return last, true
}

func (c *Client) page(ctx context.Context, path string, opts ListOptions, n int) (*Page, error) {
	body, err := c.Get(ctx, path, opts.values(n))
	if err != nil {
		return nil, err
	}
	p, err := listpage.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", path, err)
	}
	p.Number = max(n, 1)
	return p, nil
}

// Items yields every item of the pages Pages would fetch.
func (c *Client) Items(ctx context.Context, path string, opts ListOptions) iter.Seq2[json.RawMessage, error] {
	return func(yield func(json.RawMessage, error) bool) {
		for p, err := range c.Pages(ctx, path, opts) {
			if err != nil {
				yield(nil, err)
				return
			}
			for _, item := range p.Results {
				if !yield(item, nil) {
					return
				}
			}
		}
	}
}

// SinglePage yields a list body that came as the answer of a write call.
func SinglePage(body []byte) iter.Seq2[*Page, error] {
	return func(yield func(*Page, error) bool) {
		p, err := listpage.Parse(body)
		if p != nil {
			p.Number = 1
		}
		yield(p, err)
	}
}
