package journal

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/api"
)

// fillJournal records n finished POSTs carrying body straight into j, as
// journaled does.
func fillJournal(j *Journal, n int, body []byte) {
	for i := range n {
		e := &Entry{rec: api.JournalEntry{
			ID: api.NewObjectID(), Time: "2026-01-01T00:00:00Z", Method: Method("POST"),
			Path:       strings.Clone(fmt.Sprintf("%s/groups/%s/alertConfigs/%d", api.BasePath, "5e2b00000000000000000001", i)),
			RemoteAddr: strings.Clone("127.0.0.1"), Caller: "owner",
		}}
		e.body = &CapturedBody{buf: bytes.Clone(body), eof: true}
		j.add(e)
		e.status = 200
		j.finish(e, nil)
	}
}

// journalHeap fills a journal and returns it and the heap it holds.
func journalHeap(limit int, budget int64, n int, body []byte) (*Journal, int64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	j := New(limit, budget)
	fillJournal(j, n, body)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(j)
	return j, int64(after.HeapAlloc) - int64(before.HeapAlloc)
}

func largeBody(size int) []byte {
	return []byte(`{"typeName": "EMAIL", "emailAddress": "` + strings.Repeat("x", size-50) + `"}`)
}

// The journal counts what its entries hold honestly: with large bodies
// the heap stays near the budget, and with small ones near what it counts.
func TestJournalStaysWithinItsByteBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("fills the heap")
	}
	const budget = 8 << 20
	j, heap := journalHeap(10000, budget, 400, largeBody(64<<10))
	t.Logf("large bodies: %d entries kept, %d bytes counted, heap %d (budget %d)", j.count, j.bytes, heap, budget)
	if j.bytes > budget || heap > budget*11/10 {
		t.Errorf("counted %d, heap %d: over the budget of %d", j.bytes, heap, budget)
	}
	if j.count < 100 || j.count > 130 {
		t.Errorf("%d entries of 64 KiB kept in 8 MiB", j.count)
	}
	j, heap = journalHeap(10000, defaultJournalBytes, 10000, []byte(`{"enabled": false}`))
	t.Logf("small bodies: %d entries kept, %d bytes counted, heap %d", j.count, j.bytes, heap)
	if j.count != 10000 || heap > j.bytes*11/10 || heap < j.bytes*8/10 {
		t.Errorf("%d entries: counted %d bytes but the heap holds %d", j.count, j.bytes, heap)
	}
}

func BenchmarkJournalFull(b *testing.B) {
	for range b.N {
		j, heap := journalHeap(DefaultSize, defaultJournalBytes, 10000, largeBody(64<<10))
		b.ReportMetric(float64(heap)/(1<<20), "heap-MiB")
		b.ReportMetric(float64(j.count), "entries")
	}
}
