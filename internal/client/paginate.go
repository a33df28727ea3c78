package client

import (
	"context"
	"encoding/json"
	"errors"
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
// waiting to be yielded or being fetched, whatever Parallel: when pages are
// large, fewer are fetched at once (down to one) so that Parallel times
// their size stays within it, and each page fetched beside others is read
// only up to its share of it; one larger than its share is fetched again
// alone, and one larger than all of it ends the walk (PageTooLargeError).
var InFlightBudget int64 = 64 << 20

// pageBudget is the most the pages of a walk hold at once: InFlightBudget,
// and at most MaxBodyBytes for its one page.
func pageBudget() int64 { return min(InFlightBudget, MaxBodyBytes) }

// PageTooLargeError is a page of a list larger than the most omctl holds
// of a list's pages at once.
type PageTooLargeError struct {
	Path  string
	Page  int
	Limit int64
}

func (e *PageTooLargeError) Error() string {
	return fmt.Sprintf("GET %s: page %d is larger than %s, the most omctl holds of a list's pages at once; stopped",
		e.Path, e.Page, byteCount(e.Limit))
}

// overShareError is a page larger than the share of the budget it was
// fetched with, beside other pages: to be fetched again alone.
type overShareError struct{ page int }

func (e *overShareError) Error() string {
	return fmt.Sprintf("page %d is larger than its share of the pages in flight", e.page)
}

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

	// budget bounds the memory of the walk's pages (0: pageBudget()); a
	// walk among others is given its share (PagesOfEach).
	budget int64
}

func (o ListOptions) pageBudget() int64 {
	if o.budget > 0 {
		return min(o.budget, pageBudget())
	}
	return pageBudget()
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
		p, err := c.page(ctx, path, opts, opts.PageNum, opts.pageBudget())
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
				if p, ok = c.pagesAtOnce(ctx, path, opts, p.Number+1, last, int64(len(p.Body)), yield); !ok {
					return
				}
			}
		}
		for more(p, perPage) {
			if p, err = c.page(ctx, path, opts, p.Number+1, opts.pageBudget()); err != nil {
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
		// The walk asks for the page after this one while a next link
		// says there is one: a link to this page or one before it would
		// have it fetch the same items for ever.
		if n, ok := linkedPage(p.Next); ok && n <= p.Number {
			return fail("its next link %s points to page %d, not past page %d", p.Next, n, p.Number)
		}
	}
	return nil
}

// linkedPage is the pageNum a link's query names, if it names one.
func linkedPage(href string) (int, bool) {
	u, err := url.Parse(href)
	if err != nil {
		return 0, false
	}
	n, err := strconv.Atoi(u.Query().Get("pageNum"))
	return n, err == nil
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
//
// The pages in flight hold at most the walk's budget: the window holds as
// many of the largest page seen so far as the budget has room for (at
// least one), and each page is read only up to the budget divided by the
// window's size when it starts (that size only shrinks, so those shares
// add up to the budget at most). A page larger than its share ends the
// pages fetched after it, and is fetched again alone, with all of it.
func (c *Client) pagesAtOnce(ctx context.Context, path string, opts ListOptions, from, to int, firstBytes int64, yield func(*Page, error) bool) (*Page, bool) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	budget := opts.pageBudget()
	largest := max(1, firstBytes)
	room := func() int { return int(max(1, min(int64(opts.parallel()), budget/largest))) }
	var window []*fetching
	next := from
	fill := func() {
		for len(window) < room() && next <= to {
			window = append(window, c.fetch(ctx, &wg, path, opts, next, budget/int64(room())))
			next++
		}
	}
	fill()
	var last *Page
	for len(window) > 0 {
		head := window[0]
		r := <-head.done
		window = window[1:]
		var over *overShareError
		if errors.As(r.err, &over) {
			for _, f := range window {
				f.stop()
			}
			window, next = nil, head.n+1
			r.page, r.err = c.page(ctx, path, opts, head.n, budget)
		}
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
		largest = max(largest, int64(len(last.Body)))
		fill()
	}
	return last, true
}

// fetching is a page being fetched beside others.
type fetching struct {
	n      int
	done   chan fetched
	cancel context.CancelFunc
}

type fetched struct {
	page *Page
	err  error
}

// fetch starts fetching page n, read up to limit.
func (c *Client) fetch(ctx context.Context, wg *sync.WaitGroup, path string, opts ListOptions, n int, limit int64) *fetching {
	ctx, cancel := context.WithCancel(ctx)
	f := &fetching{n: n, done: make(chan fetched, 1), cancel: cancel}
	wg.Add(1)
	go func() {
		defer wg.Done()
		p, err := c.page(ctx, path, opts, n, limit)
		f.done <- fetched{p, err}
	}()
	return f
}

// stop ends a fetch and waits for it, so that what it read is let go.
func (f *fetching) stop() {
	f.cancel()
	<-f.done
}

// page fetches page n, reading at most limit bytes of it: a larger one is
// an *overShareError when limit is a share of the budget (of a walk, or
// of walks side by side), else a *PageTooLargeError.
func (c *Client) page(ctx context.Context, path string, opts ListOptions, n int, limit int64) (*Page, error) {
	body, err := c.Get(withBodyLimit(ctx, limit), path, opts.values(n))
	if tooLarge := (*BodyTooLargeError)(nil); errors.As(err, &tooLarge) {
		if limit < pageBudget() {
			return nil, &overShareError{page: max(n, 1)}
		}
		return nil, &PageTooLargeError{Path: path, Page: max(n, 1), Limit: limit}
	}
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
