package client

import (
	"context"
	"encoding/json"
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
		items = append(items, fmt.Sprintf(`{"id":"a%d","extra":{"kept":[1, 2]}}`, i))
	}
	links := `[]`
	if n*s.perPage < s.total {
		links = `[{"rel":"next","href":"x"}]`
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
