package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// listServer serves total items, perPage a page, as the API does, and
// records the pages asked for and how many requests were in flight at once.
type listServer struct {
	total, perPage int
	noTotal        bool
	pad            int // bytes of padding in each item
	// before, when set, runs before a page is answered; a non-nil error
	// answers 500.
	before func(page int) error

	mu          sync.Mutex
	asked       []int
	inFlight    int
	maxInFlight int
}

func (s *listServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	page, _ := strconv.Atoi(r.URL.Query().Get("pageNum"))
	s.mu.Lock()
	s.asked = append(s.asked, page)
	s.inFlight++
	s.maxInFlight = max(s.maxInFlight, s.inFlight)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inFlight--
		s.mu.Unlock()
	}()
	if s.before != nil {
		if err := s.before(page); err != nil {
			w.WriteHeader(500)
			fmt.Fprintf(w, `{"error":500,"reason":"Internal Server Error","detail":%q}`, err.Error())
			return
		}
	}
	io.WriteString(w, s.page(page))
}

func (s *listServer) page(n int) string {
	var items []string
	for i := (n-1)*s.perPage + 1; i <= min(n*s.perPage, s.total); i++ {
		items = append(items, fmt.Sprintf(`{"id":"a%d","extra":{"kept":[1, 2]},"pad":"%s"}`, i, strings.Repeat("p", s.pad)))
	}
	links := `[]`
	if n*s.perPage < s.total {
		links = fmt.Sprintf(`[{"rel":"next","href":"/x?pageNum=%d"}]`, n+1)
	}
	if s.noTotal {
		return fmt.Sprintf(`{"results":[%s],"links":%s}`, strings.Join(items, ","), links)
	}
	return fmt.Sprintf(`{"results":[%s],"totalCount":%d,"links":%s}`, strings.Join(items, ","), s.total, links)
}

func collect(t *testing.T, c *Client, opts ListOptions) (numbers []int, ids []string, err error) {
	t.Helper()
	for p, e := range c.Pages(context.Background(), "/x", opts) {
		if e != nil {
			return numbers, ids, e
		}
		numbers = append(numbers, p.Number)
		for _, it := range p.Results {
			var a struct{ ID string }
			json.Unmarshal(it, &a)
			ids = append(ids, a.ID)
		}
	}
	return numbers, ids, nil
}

func wantIDs(from, to int) string {
	var ids []string
	for i := from; i <= to; i++ {
		ids = append(ids, fmt.Sprintf("a%d", i))
	}
	return strings.Join(ids, " ")
}

// Even pages wait until the page after them has been asked for, so they
// arrive after it: the pages must still come out in order.
func TestPagesInFlightAreYieldedInOrder(t *testing.T) {
	var mu sync.Mutex
	arrived := map[int]chan struct{}{}
	ch := func(n int) chan struct{} {
		mu.Lock()
		defer mu.Unlock()
		if arrived[n] == nil {
			arrived[n] = make(chan struct{})
		}
		return arrived[n]
	}
	s := &listServer{total: 17, perPage: 2}
	// Pages 2 and 3, 4 and 5, ... each wait for the other to be asked for:
	// fetched in parallel, both are in flight at once; one at a time, the
	// first gives up after a while and the in-flight count shows it.
	s.before = func(page int) error {
		close(ch(page))
		partner := page + 1
		if page%2 == 1 {
			partner = page - 1
		}
		if page >= 2 && partner >= 2 && partner <= 9 {
			select {
			case <-ch(partner):
			case <-time.After(5 * time.Second):
			}
		}
		return nil
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL})
	numbers, ids, err := collect(t, c, ListOptions{PageNum: 1, ItemsPerPage: 2, All: true, Parallel: 4})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(numbers) != "[1 2 3 4 5 6 7 8 9]" || strings.Join(ids, " ") != wantIDs(1, 17) {
		t.Errorf("pages %v, ids %v", numbers, ids)
	}
	if s.maxInFlight < 2 || s.maxInFlight > 4 {
		t.Errorf("at most %d requests at once, want 2 to 4", s.maxInFlight)
	}
}

// A consumer that does not take pages holds back fetching: no page is asked
// for before the consumer has taken all but Parallel of those before it.
func TestSlowConsumerHoldsAtMostParallelPages(t *testing.T) {
	const parallel = 3
	var mu sync.Mutex
	taken := 1 // the first page is fetched and yielded alone
	var violations []string
	s := &listServer{total: 40, perPage: 1}
	s.before = func(page int) error {
		mu.Lock()
		defer mu.Unlock()
		if page > taken+parallel {
			violations = append(violations, fmt.Sprintf("page %d asked while the consumer had taken %d", page, taken))
		}
		return nil
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL})
	n := 0
	for p, err := range c.Pages(context.Background(), "/x", ListOptions{PageNum: 1, ItemsPerPage: 1, All: true, Parallel: parallel}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		// Slow: wait here until every page the window allows was asked
		// for, so a fetcher that does not wait for the consumer would
		// already have asked for more. (The first page is yielded before
		// the window opens.)
		want := 1
		if p.Number > 1 {
			want = min(p.Number+parallel-1, 40)
		}
		for {
			s.mu.Lock()
			got := len(s.asked)
			s.mu.Unlock()
			if got >= want {
				break
			}
			runtimeGosched()
		}
		mu.Lock()
		taken = p.Number
		mu.Unlock()
	}
	if n != 40 || len(violations) > 0 {
		t.Errorf("%d pages; %v", n, violations)
	}
}

func TestWithoutTotalCountNextIsFollowedOneByOne(t *testing.T) {
	s := &listServer{total: 7, perPage: 2, noTotal: true}
	srv := httptest.NewServer(s)
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL})
	numbers, ids, err := collect(t, c, ListOptions{PageNum: 1, ItemsPerPage: 2, All: true, Parallel: 8})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(numbers) != "[1 2 3 4]" || strings.Join(ids, " ") != wantIDs(1, 7) || s.maxInFlight != 1 {
		t.Errorf("pages %v, ids %v, %d at once", numbers, ids, s.maxInFlight)
	}
}

func TestFailingPageEndsTheWalkWithNothingAfterIt(t *testing.T) {
	s := &listServer{total: 12, perPage: 2}
	s.before = func(page int) error {
		if page == 3 {
			return fmt.Errorf("page %d broke", page)
		}
		return nil
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL})
	numbers, ids, err := collect(t, c, ListOptions{PageNum: 1, ItemsPerPage: 2, All: true, Parallel: 4})
	if err == nil || !strings.Contains(err.Error(), "500 INTERNAL_SERVER_ERROR: page 3 broke") {
		t.Errorf("err = %v", err)
	}
	if fmt.Sprint(numbers) != "[1 2]" || strings.Join(ids, " ") != wantIDs(1, 4) {
		t.Errorf("after the failure: pages %v, ids %v", numbers, ids)
	}
}

func TestPagesFromALaterPageAndServerSmallerPages(t *testing.T) {
	// The server caps pages at 3 items though 5 were asked: every item
	// still arrives once.
	s := &listServer{total: 14, perPage: 3}
	srv := httptest.NewServer(s)
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL})
	numbers, ids, err := collect(t, c, ListOptions{PageNum: 2, ItemsPerPage: 5, All: true})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(numbers) != "[2 3 4 5]" || strings.Join(ids, " ") != wantIDs(4, 14) {
		t.Errorf("pages %v, ids %v", numbers, ids)
	}
}

// A whole concurrent walk answers one digest challenge: requests = pages + 1.
func TestConcurrentPagesShareOneDigestChallenge(t *testing.T) {
	s := &listServer{total: 50, perPage: 5}
	d := &digestServer{user: "pubkey", key: "k", seen: map[string]bool{}, answer: s.ServeHTTP}
	srv := httptest.NewServer(d)
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL, PublicKey: "pubkey", PrivateKey: "k"})
	_, ids, err := collect(t, c, ListOptions{PageNum: 1, ItemsPerPage: 5, All: true, Parallel: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 50 || d.challenges != 1 || len(d.auth) != 11 {
		t.Errorf("%d items, %d challenges, %d requests; want 50, 1, 11", len(ids), d.challenges, len(d.auth))
	}
}

func TestParallelOutOfRangeIsRefused(t *testing.T) {
	for _, n := range []int{-1, MaxParallel + 1} {
		if err := (ListOptions{Parallel: n}).Validate(); err == nil || !strings.Contains(err.Error(), "between 1 and 32") {
			t.Errorf("Parallel %d: err = %v", n, err)
		}
	}
}

// lyingServer answers every page with a full page of items, and what
// say tells: a total, next links, more items than a page may hold.
type lyingServer struct {
	items int    // on every page
	total string // the totalCount field, or "" for none
	next  func(page int) string
	pad   int // bytes of padding in each item

	mu    sync.Mutex
	pages int
}

func (s *lyingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	page, _ := strconv.Atoi(r.URL.Query().Get("pageNum"))
	s.mu.Lock()
	s.pages++
	s.mu.Unlock()
	pad := strings.Repeat("p", s.pad)
	var b strings.Builder
	b.WriteString(`{"results":[`)
	for i := range s.items {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"a%d-%d","pad":"%s"}`, page, i, pad)
	}
	b.WriteString(`],"links":[`)
	if s.next != nil {
		fmt.Fprintf(&b, `{"rel":"next","href":%q}`, s.next(page))
	}
	b.WriteString(`]`)
	if s.total != "" {
		b.WriteString(`,"totalCount":` + s.total)
	}
	b.WriteString(`}`)
	io.WriteString(w, b.String())
}

func walkAll(t *testing.T, s http.Handler, ctx context.Context, opts ListOptions) (pages int, err error) {
	t.Helper()
	srv := httptest.NewServer(s)
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL})
	for _, err := range c.Pages(ctx, "/x", opts) {
		if err != nil {
			return pages, err
		}
		pages++
	}
	return pages, nil
}

func TestAWalkStopsWhenTheServerContradictsItself(t *testing.T) {
	for _, tt := range []struct {
		name   string
		server *lyingServer
		opts   ListOptions
		pages  int // yielded before the error
		want   string
	}{
		{"next links that loop", &lyingServer{items: 2, next: func(p int) string { return fmt.Sprintf("/x?cursor=%d", p%3) }},
			ListOptions{All: true}, 2, "at page 3: its next link /x?cursor=0 was already followed"},
		{"a next link to the same page", &lyingServer{items: 2, next: func(int) string { return "/x" }},
			ListOptions{All: true, ItemsPerPage: 2}, 1, "at page 2: its next link /x was already followed"},
		// Each page links itself as next: each link is new, but the walk,
		// which asks for the page after, would see the same items for ever.
		{"a next link to its own page", &lyingServer{items: 2, next: func(p int) string { return fmt.Sprintf("/x?pageNum=%d&itemsPerPage=2", p) }},
			ListOptions{All: true, PageNum: 1, ItemsPerPage: 2}, 0, "at page 1: its next link /x?pageNum=1&itemsPerPage=2 points to page 1, not past page 1"},
		{"a next link to an earlier page", &lyingServer{items: 2, next: func(p int) string { return fmt.Sprintf("/x?pageNum=%d", max(1, p-1)) }},
			ListOptions{All: true, PageNum: 3, ItemsPerPage: 2}, 0, "at page 3: its next link /x?pageNum=2 points to page 2, not past page 3"},
		{"more items than its total", &lyingServer{items: 10, total: "25", next: func(p int) string { return fmt.Sprint(p) }},
			ListOptions{All: true, ItemsPerPage: 10, Parallel: 1}, 2, "at page 3: its pages so far hold 30 items, more than its totalCount of 25"},
		{"more items than its total, in parallel", &lyingServer{items: 10, total: "25"},
			ListOptions{All: true, ItemsPerPage: 10, Parallel: 4}, 2, "at page 3: its pages so far hold 30 items, more than its totalCount of 25"},
		{"a page larger than asked", &lyingServer{items: 20, total: "100"},
			ListOptions{ItemsPerPage: 10}, 0, "at page 1: it holds 20 items, more than the 10 a page may hold"},
		{"a page larger than any", &lyingServer{items: MaxItemsPerPage + 1},
			ListOptions{All: true}, 0, "at page 1: it holds 501 items, more than the 500 a page may hold"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pages, err := walkAll(t, tt.server, context.Background(), tt.opts)
			var ce *ContradictionError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) || pages != tt.pages {
				t.Errorf("after %d pages: %v; want %d pages, then %q", pages, err, tt.pages, tt.want)
			}
		})
	}
}

// A server that claims 10^12 items, page after full page, is stopped by
// the walk's deadline, not followed until killed.
func TestAWalkOfAnEndlessListEndsWithItsDeadline(t *testing.T) {
	s := &lyingServer{items: 50, total: "1000000000000"}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	pages, err := walkAll(t, s, ctx, ListOptions{All: true, ItemsPerPage: 50})
	if !errors.Is(err, context.DeadlineExceeded) || pages == 0 {
		t.Errorf("after %d pages: %v", pages, err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %s", took)
	}
}

// Large pages lower how many are in flight, so that they hold no more
// than InFlightBudget; small ones are fetched Parallel at a time.
func TestLargePagesAreFetchedFewerAtOnce(t *testing.T) {
	defer func(b int64) { InFlightBudget = b }(InFlightBudget)
	InFlightBudget = 1 << 20
	for _, tt := range []struct {
		pad       int
		maxFlight int
	}{{pad: 100_000, maxFlight: 3}, {pad: 10, maxFlight: 8}} {
		s := &listServer{total: 60, perPage: 3, pad: tt.pad}
		s.before = func(int) error { time.Sleep(5 * time.Millisecond); return nil }
		srv := httptest.NewServer(s)
		c, _ := New(Options{BaseURL: srv.URL})
		_, ids, err := collect(t, c, ListOptions{PageNum: 1, ItemsPerPage: 3, All: true, Parallel: 8})
		srv.Close()
		if err != nil || len(ids) != 60 {
			t.Fatalf("%d items: %v", len(ids), err)
		}
		if tt.maxFlight < 8 && s.maxInFlight*3*tt.pad > int(InFlightBudget) || tt.maxFlight == 8 && s.maxInFlight < 3 {
			t.Errorf("pages of about %d bytes: %d in flight at once", 3*tt.pad, s.maxInFlight)
		}
	}
}
