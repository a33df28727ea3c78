package client

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// listServer serves lists /p/N of N items, pages cut as asked, and counts
// the requests in flight at the worst moment.
func sizedLists(t *testing.T, delay time.Duration) (*httptest.Server, *atomic.Int32) {
	var inFlight, peak atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		time.Sleep(delay)
		if strings.Contains(r.URL.Path, "missing") {
			w.WriteHeader(404)
			fmt.Fprint(w, `{"error":404,"errorCode":"GROUP_NOT_FOUND","detail":"gone","reason":"Not Found"}`)
			return
		}
		size, _ := strconv.Atoi(r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:])
		num, _ := strconv.Atoi(r.URL.Query().Get("pageNum"))
		num = max(num, 1)
		per, _ := strconv.Atoi(r.URL.Query().Get("itemsPerPage"))
		var items []string
		for i := (num - 1) * per; i < min(num*per, size); i++ {
			items = append(items, fmt.Sprintf(`{"id":"%d-%d"}`, size, i))
		}
		fmt.Fprintf(w, `{"results":[%s],"totalCount":%d}`, strings.Join(items, ","), size)
	}))
	t.Cleanup(srv.Close)
	return srv, &peak
}

func TestPagesOfEachKeepsListOrderAndSumsTotals(t *testing.T) {
	srv, peak := sizedLists(t, 5*time.Millisecond)
	c, _ := New(Options{BaseURL: srv.URL})
	paths := []string{"/p/3", "/p/0", "/p/5", "/p/1", "/p/4", "/p/2"}
	var ids []string
	last := 0
	for p, err := range c.PagesOfEach(context.Background(), paths, ListOptions{All: true, ItemsPerPage: 2, Parallel: 3}) {
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range p.Results {
			ids = append(ids, string(it))
		}
		last = p.TotalCount
	}
	want := []string{}
	for _, path := range paths {
		n, _ := strconv.Atoi(path[3:])
		for i := 0; i < n; i++ {
			want = append(want, fmt.Sprintf(`{"id":"%d-%d"}`, n, i))
		}
	}
	if strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("items out of order:\n%v\nwant\n%v", ids, want)
	}
	if last != 15 {
		t.Errorf("totalCount %d, want the sum 15", last)
	}
	if p := peak.Load(); p > 3 {
		t.Errorf("%d requests at once, more than --parallel 3", p)
	}
}

func TestPagesOfEachStopsAtTheFirstError(t *testing.T) {
	srv, _ := sizedLists(t, 0)
	c, _ := New(Options{BaseURL: srv.URL})
	var seen []string
	var got error
	for p, err := range c.PagesOfEach(context.Background(), []string{"/p/1", "/missing", "/p/2"}, ListOptions{ItemsPerPage: 5}) {
		if err != nil {
			got = err
			continue
		}
		for _, it := range p.Results {
			seen = append(seen, string(it))
		}
	}
	if got == nil || !strings.Contains(got.Error(), "GROUP_NOT_FOUND") {
		t.Errorf("error %v", got)
	}
	if strings.Join(seen, " ") != `{"id":"1-0"}` {
		t.Errorf("items around the error: %v", seen)
	}
}
