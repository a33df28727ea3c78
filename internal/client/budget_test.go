package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// hugePages serves lists whose pages hold perPage items of pad bytes each,
// but for the pages of huge, which never end: a server whose pages are a
// gigabyte, streamed without a length. It counts the requests of each
// page.
type hugePages struct {
	total, perPage, pad int
	huge                func(path string, page int) bool

	mu    sync.Mutex
	asked map[string]int
}

func (s *hugePages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	page, _ := strconv.Atoi(r.URL.Query().Get("pageNum"))
	page = max(page, 1)
	list := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/'):] // the path after the base URL's
	s.mu.Lock()
	if s.asked == nil {
		s.asked = map[string]int{}
	}
	s.asked[fmt.Sprintf("%s %d", list, page)]++
	s.mu.Unlock()
	fmt.Fprintf(w, `{"totalCount":%d,"results":[`, s.total)
	for i := (page-1)*s.perPage + 1; i <= min(page*s.perPage, s.total); i++ {
		if i > (page-1)*s.perPage+1 {
			w.Write([]byte(","))
		}
		fmt.Fprintf(w, `{"id":"%s-%d","pad":"`, list, i)
		for n := s.pad; n > 0; n -= len(padding) {
			w.Write(padding[:min(n, len(padding))]) // without allocating: the test counts the client's allocations
		}
		w.Write([]byte(`"}`))
	}
	if s.huge != nil && s.huge(list, page) {
		w.(http.Flusher).Flush() // no Content-Length: the client cannot know
		for range (1 << 30) / len(spaces) {
			if _, err := w.Write(spaces); err != nil {
				return
			}
		}
	}
	w.Write([]byte(`]}`))
}

var (
	padding = []byte(strings.Repeat("p", 64<<10))
	spaces  = []byte(strings.Repeat(" ", 64<<10))
)

// allocated is what fn allocated, in bytes, the test's server included.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// README: the pages in flight hold no more than InFlightBudget, whatever
// Parallel. A page that never ends is read up to the budget, no further,
// and ends the walk with an error naming the bound, after the pages
// before it, in order; all that the walk read and let go is a small
// multiple of the budget (holding at most the budget at once), where it
// was Parallel times 4 times MaxBodyBytes, as one buffer grew by doubling.
func TestAPageBeyondTheBudgetEndsTheWalkHavingReadNoMore(t *testing.T) {
	defer func(b int64) { InFlightBudget = b }(InFlightBudget)
	InFlightBudget = 4 << 20
	for _, parallel := range []int{1, 4, 32} {
		s := &hugePages{total: 400, perPage: 10, pad: 100, huge: func(_ string, page int) bool { return page >= 5 }}
		srv := httptest.NewServer(s)
		c, _ := New(Options{BaseURL: srv.URL})
		var ids []string
		var err error
		got := allocated(func() {
			_, ids, err = collect(t, c, ListOptions{PageNum: 1, ItemsPerPage: 10, All: true, Parallel: parallel})
		})
		srv.Close()
		var tooLarge *PageTooLargeError
		if !errors.As(err, &tooLarge) || tooLarge.Page != 5 || !strings.Contains(err.Error(), "page 5 is larger than 4 MiB") {
			t.Errorf("--parallel %d: %v, want page 5 larger than 4 MiB", parallel, err)
		}
		if strings.Join(ids, " ") != strings.Join(idsOf("/x", 1, 40), " ") {
			t.Errorf("--parallel %d: yielded %d items before the error, want the 40 of pages 1 to 4", parallel, len(ids))
		}
		if got > uint64(3*InFlightBudget) {
			t.Errorf("--parallel %d: the walk allocated %d MiB for a budget of %d MiB", parallel, got>>20, InFlightBudget>>20)
		}
	}
}

// A page larger than its share of the budget, fetched beside others, is
// fetched again alone: the walk ends whole, in order.
func TestAPageLargerThanItsShareIsFetchedAgainAlone(t *testing.T) {
	defer func(b int64) { InFlightBudget = b }(InFlightBudget)
	InFlightBudget = 1 << 20
	s := &hugePages{total: 60, perPage: 3, pad: 10}
	large := &hugePages{total: 60, perPage: 3, pad: 200_000} // pages 7 and 8 are 600 KB
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if page, _ := strconv.Atoi(r.URL.Query().Get("pageNum")); page == 7 || page == 8 {
			large.ServeHTTP(w, r)
			return
		}
		s.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL})
	_, ids, err := collect(t, c, ListOptions{PageNum: 1, ItemsPerPage: 3, All: true, Parallel: 8})
	if err != nil || strings.Join(ids, " ") != strings.Join(idsOf("/x", 1, 60), " ") {
		t.Fatalf("%d items: %v", len(ids), err)
	}
	if large.asked["/x 7"] != 2 {
		t.Errorf("page 7 was asked %d times, want twice: beside others, then alone", large.asked["/x 7"])
	}
}

// PagesOfEach holds the budget too: a page beyond its share has the lists
// go on one at a time, whole and in order, and one beyond the whole budget
// ends the walk, having read no more than a small multiple of it.
func TestPagesOfEachHoldsTheBudget(t *testing.T) {
	defer func(b int64) { InFlightBudget = b }(InFlightBudget)
	InFlightBudget = 4 << 20
	paths := []string{"/a", "/b", "/c", "/d", "/e", "/f"}
	walk := func(s *hugePages) (ids []string, err error) {
		srv := httptest.NewServer(s)
		defer srv.Close()
		c, _ := New(Options{BaseURL: srv.URL})
		for p, err := range c.PagesOfEach(context.Background(), paths, ListOptions{ItemsPerPage: 10, All: true, Parallel: 4}) {
			if err != nil {
				return ids, err
			}
			for _, it := range p.Results {
				var item struct{ ID string }
				json.Unmarshal(it, &item)
				ids = append(ids, item.ID)
			}
		}
		return ids, nil
	}
	var want []string
	for _, path := range paths {
		want = append(want, idsOf(path, 1, 30)...)
	}
	// Pages of 1 MB, over a share of 4 MiB / 5.
	if got, err := walk(&hugePages{total: 30, perPage: 10, pad: 100_000}); err != nil || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %d items (%v), want %d, in list order", len(got), err, len(want))
	}
	var err error
	read := allocated(func() {
		_, err = walk(&hugePages{total: 30, perPage: 10, pad: 100, huge: func(path string, page int) bool { return path == "/c" && page == 2 }})
	})
	var tooLarge *PageTooLargeError
	if !errors.As(err, &tooLarge) || !strings.HasSuffix(tooLarge.Path, "/c") || tooLarge.Page != 2 {
		t.Errorf("a page of a gigabyte: %v", err)
	}
	if read > uint64(3*InFlightBudget) {
		t.Errorf("the walk allocated %d MiB for a budget of %d MiB", read>>20, InFlightBudget>>20)
	}
}

// One answer without a length, larger than the most omctl reads, is
// refused once that much has come, having allocated about that much.
func TestAnEndlessAnswerIsReadUpToTheLimitOnly(t *testing.T) {
	defer func(b int64) { MaxBodyBytes = b }(MaxBodyBytes)
	MaxBodyBytes = 16 << 20
	srv := httptest.NewServer(&hugePages{total: 1, perPage: 1, huge: func(string, int) bool { return true }})
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL})
	var err error
	got := allocated(func() { _, err = c.Get(context.Background(), "/x", nil) })
	var tooLarge *BodyTooLargeError
	if !errors.As(err, &tooLarge) || !strings.Contains(err.Error(), "larger than 16 MiB") {
		t.Errorf("an endless answer: %v", err)
	}
	if got > uint64(MaxBodyBytes)*3/2 {
		t.Errorf("reading it allocated %d MiB for a limit of %d MiB", got>>20, MaxBodyBytes>>20)
	}
}

// idsOf are the ids hugePages gives items from..to of the list at path.
func idsOf(path string, from, to int) []string {
	var ids []string
	for i := from; i <= to; i++ {
		ids = append(ids, fmt.Sprintf("%s-%d", path, i))
	}
	return ids
}
