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

// InFlightBudget is the memory the pages of one walk may hold at once,
// waiting to be yielded or being fetched: when pages are large, fewer are
// fetched at once (down to one) so that Parallel times their size stays
// within it. A single page is bounded by MaxBodyBytes.
var InFlightBudget int64 = 64 << 20

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
	return func(yieldPage func(*Page, error) bool) {
		if err := opts.Validate(); err != nil {
			yieldPage(nil, err)
			return
		}
		// Every page goes through the walk's checks, in order, before the
		// consumer sees it: a server that contradicts itself ends the walk.
		w := walk{path: path, perPage: opts.ItemsPerPage, seen: map[string]bool{}}
		yield := func(p *Page, err error) bool {
			if err == nil {
				if err = w.check(p); err != nil {
					p = nil
				}
			}
			return yieldPage(p, err) && err == nil
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
				if p, ok = c.pagesAtOnce(ctx, path, opts, p.Number+1, last, int64(cap(p.Body)), yield); !ok {
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

// walk is what the pages yielded so far say, to check the next against.
type walk struct {
	path    string
	perPage int             // asked for; 0 for the server's default
	items   int             // yielded so far
	seen    map[string]bool // the next links followed so far
}

// ContradictionError is a list whose pages contradict each other or the
// API's bounds: following it further could go on for ever.
type ContradictionError struct {
	Path   string
	Page   int
	Reason string
}

func (e *ContradictionError) Error() string {
	return fmt.Sprintf("GET %s: the server contradicts itself at page %d: %s; stopped", e.Path, e.Page, e.Reason)
}

func (w *walk) check(p *Page) error {
	fail := func(format string, a ...any) error {
		return &ContradictionError{Path: w.path, Page: p.Number, Reason: fmt.Sprintf(format, a...)}
	}
	largest := MaxItemsPerPage
	if w.perPage > 0 {
		largest = w.perPage
	}
	if len(p.Results) > largest {
		return fail("it holds %d items, more than the %d a page may hold", len(p.Results), largest)
	}
	w.items += len(p.Results)
	// Pages are cut by offset, so whatever changes meanwhile, the items
	// of a walk's pages never add up to more than the latest total.
	if p.HasTotal && w.items > p.TotalCount {
		return fail("its pages so far hold %d items, more than its totalCount of %d", w.items, p.TotalCount)
	}
	if p.Next != "" {
		if w.seen[p.Next] {
			return fail("its next link %s was already followed", p.Next)
		}
		w.seen[p.Next] = true
	}
	return nil
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
// error, or the consumer stopped). firstBytes is the size of the page
// before from, the first measure of how large pages are.
func (c *Client) pagesAtOnce(ctx context.Context, path string, opts ListOptions, from, to int, firstBytes int64, yield func(*Page, error) bool) (*Page, bool) {
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
	// Fewer pages are fetched at once when pages are large: the window
	// holds as many of the largest page seen so far as InFlightBudget has
	// room for, and at least one.
	largest := max(1, firstBytes)
	room := func() int {
		return int(max(1, min(int64(opts.parallel()), InFlightBudget/largest)))
	}
	for len(window) < room() && next <= to {
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
		largest = max(largest, int64(cap(last.Body)))
		for len(window) < room() && next <= to {
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
