// Package journal is omctl server's request journal (docs/server.md, Request
// journal): each API request as it came and was answered, its body with
// every secret redacted, kept within a count and a byte budget.
package journal

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/httpx"
)

// DefaultSize is how many requests the journal keeps unless told
// otherwise, and defaultJournalBytes how much memory its entries may hold
// (docs/server.md, Request journal).
const (
	DefaultSize         = 10000
	defaultJournalBytes = 64 << 20
)

// Journal keeps the last requests made to the API, oldest first, within
// a count and a byte budget. It has a lock of its own, held only to add,
// finish, list or clear entries: the work of recording and listing
// (reading the answer, redacting the body, encoding) happens outside it,
// so recording a request never waits long. A reset clears it under the
// data lock; nothing else holds both.
type Journal struct {
	limit  int   // entries kept; 0 keeps none
	budget int64 // bytes the entries kept may hold

	mu      sync.Mutex
	entries []*Entry // a ring: head is the oldest, count are kept
	head    int
	count   int
	bytes   int64 // what the entries kept hold, as entrySize counts it
}

// Entry is one request. Its fields are written by the request's own
// goroutine; others read them only once done is set, under the lock.
type Entry struct {
	done    bool
	kept    bool  // in the ring: false once pushed out or cleared
	counted int64 // what j.bytes holds for it

	rec    api.JournalEntry
	body   *CapturedBody
	abort  bool // the connection was closed without an answer
	status int
}

// entryOverhead is what an entry holds besides the bytes of its strings
// and body: the entry itself, its ring slot, and the allocator's headers
// and rounding of its few small allocations (measured by
// TestJournalStaysWithinItsByteBudget; docs/performance.md).
const entryOverhead = int64(unsafe.Sizeof(Entry{})) + 8 + 16

// entrySize is the memory e holds while kept.
func (e *Entry) entrySize() int64 {
	r := &e.rec
	// Method and Caller are mostly shared strings, counted all the same:
	// an odd method, or a caller deleted since, is the entry's alone.
	return entryOverhead + int64(len(r.ID)+len(r.Time)+len(r.Method)+len(r.Path)+len(r.Query)+
		len(r.ErrorCode)+len(r.Caller)+len(r.RemoteAddr)+len(r.Body))
}

func New(limit int, budget int64) *Journal {
	if budget <= 0 {
		budget = defaultJournalBytes
	}
	return &Journal{limit: max(limit, 0), budget: budget}
}

type journalKey struct{}

// EntryOf is the journal entry of a request being recorded, or nil.
func EntryOf(r *http.Request) *Entry {
	e, _ := r.Context().Value(journalKey{}).(*Entry)
	return e
}

// NoteCaller records who made the request, once authenticated.
func NoteCaller(r *http.Request, name string) {
	if e := EntryOf(r); e != nil {
		e.rec.Caller = name
	}
}

func RemoteHost(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	return addr
}

// Method shares the string of a common method rather than keep
// the request line it was cut from.
func Method(m string) string {
	for _, known := range []string{http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodPut, http.MethodDelete, http.MethodHead, http.MethodOptions} {
		if m == known {
			return known
		}
	}
	return strings.Clone(m)
}

func (j *Journal) add(e *Entry) {
	size := e.entrySize()
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.count == j.limit {
		j.dropOldest()
	}
	if j.count == len(j.entries) {
		j.grow()
	}
	j.entries[(j.head+j.count)%len(j.entries)] = e
	j.count++
	e.kept, e.counted = true, size
	j.bytes += size
	j.fit()
}

// grow makes room for one more entry, up to the limit, keeping the order.
func (j *Journal) grow() {
	n := min(max(2*len(j.entries), 64), j.limit)
	grown := make([]*Entry, n)
	for i := range j.count {
		grown[i] = j.entries[(j.head+i)%len(j.entries)]
	}
	j.entries, j.head = grown, 0
}

func (j *Journal) dropOldest() {
	e := j.entries[j.head]
	j.entries[j.head] = nil
	j.head = (j.head + 1) % len(j.entries)
	j.count--
	e.kept = false
	j.bytes -= e.counted
}

// fit drops the oldest entries until those kept are within the budget.
func (j *Journal) fit() {
	for j.bytes > j.budget && j.count > 0 {
		j.dropOldest()
	}
}

// finish completes e with what was answered; an entry cleared or pushed
// out meanwhile is simply not shown.
func (j *Journal) finish(e *Entry, errBody []byte) {
	e.rec.Status = e.status
	if e.status >= 400 {
		var b struct {
			ErrorCode string `json:"errorCode"`
		}
		if json.Unmarshal(errBody, &b) == nil {
			e.rec.ErrorCode = b.ErrorCode
		}
	}
	if e.body != nil && e.body.complete() {
		// A body too large for the budget, as received or once
		// redacted, is kept as its size.
		room := j.budget - e.entrySize()
		if n := len(e.body.buf); int64(n) > room {
			e.rec.BodyBytes = n
		} else if e.rec.Body = RedactBody(e.body.buf); int64(len(e.rec.Body)) > room {
			e.rec.Body, e.rec.BodyBytes = nil, n
		}
	}
	e.body = nil
	size := e.entrySize()
	j.mu.Lock()
	e.done = true
	if e.kept {
		j.bytes += size - e.counted
		e.counted = size
		j.fit()
	}
	j.mu.Unlock()
}

func (j *Journal) clear() {
	j.mu.Lock()
	for j.count > 0 {
		j.dropOldest()
	}
	j.entries, j.head = nil, 0
	j.mu.Unlock()
}

// matching returns the finished entries that keep, oldest first. A
// finished entry no longer changes, so they are read and encoded outside
// the lock.
func (j *Journal) matching(keep func(*api.JournalEntry) bool) []*Entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	var found []*Entry
	for i := range j.count {
		e := j.entries[(j.head+i)%len(j.entries)]
		if e.done && keep(&e.rec) {
			found = append(found, e)
		}
	}
	return found
}

// EncodeEntries encodes entries as GET /_omctl/requests shows them. They
// are encoded anew each time, not kept encoded: the journal holds each
// body once.
func EncodeEntries(entries []*Entry) [][]byte {
	out := make([][]byte, len(entries))
	for i, e := range entries {
		out[i] = rules.EncodeJSON(&e.rec)
	}
	return out
}

// Writer notes the status of the answer and the start of an error
// body, for its errorCode.
type Writer struct {
	http.ResponseWriter
	e       *Entry
	r       *http.Request
	status  int
	errBody []byte
}

// maxErrBody is as much of an error answer as the journal looks at.
const maxErrBody = 4 << 10

func (w *Writer) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
		w.e.body.drain(w.r)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *Writer) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.status >= 400 && len(w.errBody) < maxErrBody {
		w.errBody = append(w.errBody, b[:min(len(b), maxErrBody-len(w.errBody))]...)
	}
	return w.ResponseWriter.Write(b)
}

func (w *Writer) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// CapturedBody keeps a copy of what is read of a request body, up to the
// largest body the server accepts.
type CapturedBody struct {
	io.ReadCloser
	claimed int64 // its Content-Length, -1 when unknown (httpx.GrowBody)
	buf     []byte
	eof     bool
	over    bool
}

func (b *CapturedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	keep := min(n, max(api.MaxBodyBytes-len(b.buf), 0))
	b.over = b.over || keep < n
	if keep > 0 {
		b.buf = append(httpx.GrowBody(b.buf, keep, b.claimed), p[:keep]...)
	}
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

func (b *CapturedBody) complete() bool { return b.eof && !b.over }

// drain reads, for the journal, a body the server answers without reading
// (a 401 challenge, a 429): net/http would read and discard it at this
// point anyway. A client waiting for 100 Continue is not made to send it.
func (b *CapturedBody) drain(r *http.Request) {
	if b == nil || b.eof || b.over || r.Header.Get("Expect") != "" {
		return
	}
	if r.ContentLength > httpx.MaxDrain {
		return
	}
	io.Copy(io.Discard, io.LimitReader(b, httpx.MaxDrain+1))
}

// Serve serves an API request through next and records it as made at
// now; finished is told of the entry once it is recorded whole. A panic
// of next (a fault closing the connection) is recorded, then goes on.
func (j *Journal) Serve(w http.ResponseWriter, r *http.Request, now time.Time, next http.HandlerFunc, finished func(*Entry)) {
	if j.limit == 0 || !api.IsAPIPath(r.URL.Path) {
		next(w, r)
		return
	}
	e := &Entry{rec: api.JournalEntry{
		ID:         api.NewObjectID(),
		Time:       rules.FormatTime(now),
		Method:     Method(r.Method),
		Path:       strings.Clone(r.URL.Path),
		Query:      strings.Clone(r.URL.RawQuery),
		RemoteAddr: strings.Clone(RemoteHost(r.RemoteAddr)),
	}}
	r = r.WithContext(context.WithValue(r.Context(), journalKey{}, e))
	if r.Body != nil && r.Body != http.NoBody {
		e.body = NewCapturedBody(r.Body, r.ContentLength)
		r.Body = e.body
	}
	j.add(e)
	jw := &Writer{ResponseWriter: w, e: e, r: r}
	defer func() {
		v := recover()
		e.status = jw.status
		if v != nil {
			e.abort, e.status = true, 0
		}
		j.finish(e, jw.errBody)
		finished(e)
		if v != nil {
			panic(v)
		}
	}()
	next(jw, r)
}

// Clear forgets every request recorded.
func (j *Journal) Clear() { j.clear() }

// Matching are the entries recorded that keep says to, oldest first.
func (j *Journal) Matching(keep func(*api.JournalEntry) bool) []*Entry { return j.matching(keep) }

// Done reports whether the entry is recorded whole (its answer sent).
func (e *Entry) Done() bool { return e.done }

// Size is about what the entry holds in memory.
func (e *Entry) Size() int64 { return e.entrySize() }

// Record is the entry as GET /_omctl/requests lists it.
func (e *Entry) Record() *api.JournalEntry { return &e.rec }

// NewCapturedBody captures what is read of rc, a body whose
// Content-Length is claimed (-1 when unknown), for the journal.
func NewCapturedBody(rc io.ReadCloser, claimed int64) *CapturedBody {
	return &CapturedBody{ReadCloser: rc, claimed: claimed}
}

// Captured is what was read of the body.
func (b *CapturedBody) Captured() []byte { return b.buf }

// Unanswered counts the requests for path in the server's hands and not
// yet answered.
func (j *Journal) Unanswered(path string) int {
	j.mu.Lock()
	defer j.mu.Unlock()
	c := 0
	for _, e := range j.entries {
		if e != nil && !e.done && e.rec.Path == path {
			c++
		}
	}
	return c
}
