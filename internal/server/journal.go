package server

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/httpx"
)

// defaultJournalSize is how many requests the journal keeps unless told
// otherwise, and defaultJournalBytes how much memory its entries may hold
// (docs/server.md, Request journal).
const (
	defaultJournalSize  = 10000
	defaultJournalBytes = 64 << 20
)

// journal keeps the last requests made to the API, oldest first, within
// a count and a byte budget. It has a lock of its own, held only to add,
// finish, list or clear entries: the work of recording and listing
// (reading the answer, redacting the body, encoding) happens outside it,
// so recording a request never waits long. A reset clears it under the
// data lock; nothing else holds both.
type journal struct {
	limit  int   // entries kept; 0 keeps none
	budget int64 // bytes the entries kept may hold

	mu      sync.Mutex
	entries []*journalEntry // a ring: head is the oldest, count are kept
	head    int
	count   int
	bytes   int64 // what the entries kept hold, as entrySize counts it
}

// journalEntry is one request. Its fields are written by the request's own
// goroutine; others read them only once done is set, under the lock.
type journalEntry struct {
	done    bool
	kept    bool  // in the ring: false once pushed out or cleared
	counted int64 // what j.bytes holds for it

	rec    api.JournalEntry
	body   *capturedBody
	abort  bool // the connection was closed without an answer
	status int
}

// entryOverhead is what an entry holds besides the bytes of its strings
// and body: the entry itself, its ring slot, and the allocator's headers
// and rounding of its few small allocations (measured by
// TestJournalStaysWithinItsByteBudget; docs/performance.md).
const entryOverhead = int64(unsafe.Sizeof(journalEntry{})) + 8 + 16

// entrySize is the memory e holds while kept.
func (e *journalEntry) entrySize() int64 {
	r := &e.rec
	// Method and Caller are mostly shared strings, counted all the same:
	// an odd method, or a caller deleted since, is the entry's alone.
	return entryOverhead + int64(len(r.ID)+len(r.Time)+len(r.Method)+len(r.Path)+len(r.Query)+
		len(r.ErrorCode)+len(r.Caller)+len(r.RemoteAddr)+len(r.Body))
}

func newJournal(limit int, budget int64) *journal {
	if budget <= 0 {
		budget = defaultJournalBytes
	}
	return &journal{limit: max(limit, 0), budget: budget}
}

// isAPIPath reports whether p is under the API base path: the requests
// the journal records, faults match and --rate-limit counts.
func isAPIPath(p string) bool {
	return p == apiBase || strings.HasPrefix(p, apiBase+"/")
}

type journalKey struct{}

// entryOf is the journal entry of a request being recorded, or nil.
func entryOf(r *http.Request) *journalEntry {
	e, _ := r.Context().Value(journalKey{}).(*journalEntry)
	return e
}

// journaled serves an API request through next and records it. A panic
// of next (a fault closing the connection) is recorded, then goes on.
func (s *Server) journaled(w http.ResponseWriter, r *http.Request, next http.HandlerFunc) {
	if s.journal.limit == 0 || !isAPIPath(r.URL.Path) {
		next(w, r)
		return
	}
	e := &journalEntry{rec: api.JournalEntry{
		ID:         api.NewObjectID(),
		Time:       rules.FormatTime(s.clock.Now()),
		Method:     journalMethod(r.Method),
		Path:       strings.Clone(r.URL.Path),
		Query:      strings.Clone(r.URL.RawQuery),
		RemoteAddr: strings.Clone(remoteHost(r.RemoteAddr)),
	}}
	r = r.WithContext(context.WithValue(r.Context(), journalKey{}, e))
	if r.Body != nil && r.Body != http.NoBody {
		e.body = &capturedBody{ReadCloser: r.Body, claimed: r.ContentLength}
		r.Body = e.body
	}
	s.journal.add(e)
	jw := &journalWriter{ResponseWriter: w, e: e, r: r}
	defer func() {
		v := recover()
		e.status = jw.status
		if v != nil {
			e.abort, e.status = true, 0
		}
		s.journal.finish(e, jw.errBody)
		s.streamRequest(e)
		if v != nil {
			panic(v)
		}
	}()
	next(jw, r)
}

// noteCaller records who made the request, once authenticated.
func noteCaller(r *http.Request, name string) {
	if e := entryOf(r); e != nil {
		e.rec.Caller = name
	}
}

func remoteHost(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	return addr
}

// journalMethod shares the string of a common method rather than keep
// the request line it was cut from.
func journalMethod(m string) string {
	for _, known := range []string{http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodPut, http.MethodDelete, http.MethodHead, http.MethodOptions} {
		if m == known {
			return known
		}
	}
	return strings.Clone(m)
}

func (j *journal) add(e *journalEntry) {
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
func (j *journal) grow() {
	n := min(max(2*len(j.entries), 64), j.limit)
	grown := make([]*journalEntry, n)
	for i := range j.count {
		grown[i] = j.entries[(j.head+i)%len(j.entries)]
	}
	j.entries, j.head = grown, 0
}

func (j *journal) dropOldest() {
	e := j.entries[j.head]
	j.entries[j.head] = nil
	j.head = (j.head + 1) % len(j.entries)
	j.count--
	e.kept = false
	j.bytes -= e.counted
}

// fit drops the oldest entries until those kept are within the budget.
func (j *journal) fit() {
	for j.bytes > j.budget && j.count > 0 {
		j.dropOldest()
	}
}

// finish completes e with what was answered; an entry cleared or pushed
// out meanwhile is simply not shown.
func (j *journal) finish(e *journalEntry, errBody []byte) {
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
		} else if e.rec.Body = redactBody(e.body.buf); int64(len(e.rec.Body)) > room {
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

func (j *journal) clear() {
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
func (j *journal) matching(keep func(*api.JournalEntry) bool) []*journalEntry {
	j.mu.Lock()
	defer j.mu.Unlock()
	var found []*journalEntry
	for i := range j.count {
		e := j.entries[(j.head+i)%len(j.entries)]
		if e.done && keep(&e.rec) {
			found = append(found, e)
		}
	}
	return found
}

// encodeEntries encodes entries as GET /_omctl/requests shows them. They
// are encoded anew each time, not kept encoded: the journal holds each
// body once.
func encodeEntries(entries []*journalEntry) [][]byte {
	out := make([][]byte, len(entries))
	for i, e := range entries {
		out[i] = rules.EncodeJSON(&e.rec)
	}
	return out
}

// journalWriter notes the status of the answer and the start of an error
// body, for its errorCode.
type journalWriter struct {
	http.ResponseWriter
	e       *journalEntry
	r       *http.Request
	status  int
	errBody []byte
}

// maxErrBody is as much of an error answer as the journal looks at.
const maxErrBody = 4 << 10

func (w *journalWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
		w.e.body.drain(w.r)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *journalWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.status >= 400 && len(w.errBody) < maxErrBody {
		w.errBody = append(w.errBody, b[:min(len(b), maxErrBody-len(w.errBody))]...)
	}
	return w.ResponseWriter.Write(b)
}

func (w *journalWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// capturedBody keeps a copy of what is read of a request body, up to the
// largest body the server accepts.
type capturedBody struct {
	io.ReadCloser
	claimed int64 // its Content-Length, -1 when unknown (bodyRoom)
	buf     []byte
	eof     bool
	over    bool
}

func (b *capturedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	keep := min(n, max(maxBodyBytes-len(b.buf), 0))
	b.over = b.over || keep < n
	if keep > 0 {
		b.buf = append(httpx.GrowBody(b.buf, keep, b.claimed), p[:keep]...)
	}
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

func (b *capturedBody) complete() bool { return b.eof && !b.over }

// drain reads, for the journal, a body the server answers without reading
// (a 401 challenge, a 429): net/http would read and discard it at this
// point anyway. A client waiting for 100 Continue is not made to send it.
func (b *capturedBody) drain(r *http.Request) {
	if b == nil || b.eof || b.over || r.Header.Get("Expect") != "" {
		return
	}
	if r.ContentLength > httpx.MaxDrain {
		return
	}
	io.Copy(io.Discard, io.LimitReader(b, httpx.MaxDrain+1))
}

// journalQuery is the filter of GET /_omctl/requests.
func journalQuery(c *reqCtx) (func(*api.JournalEntry) bool, error) {
	q := c.r.URL.Query()
	if err := onlyQuery(c, "method", "path", "status", "caller"); err != nil {
		return nil, err
	}
	method, pathPrefix, caller := q.Get("method"), q.Get("path"), q.Get("caller")
	status := -1
	if v := q.Get("status"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 599 {
			return nil, httpx.InvalidQuery("status", v, "status must be an HTTP status such as 200 or 503")
		}
		status = n
	}
	return func(e *api.JournalEntry) bool {
		switch {
		case method != "" && !strings.EqualFold(e.Method, method):
			return false
		case pathPrefix != "" && !strings.HasPrefix(e.Path, pathPrefix) &&
			(strings.HasPrefix(pathPrefix, apiBase+"/") || !strings.HasPrefix(e.Path, apiBase+pathPrefix)):
			return false
		case status >= 0 && e.Status != status:
			return false
		case q.Has("caller") && e.Caller != caller:
			return false
		}
		return true
	}, nil
}

// clearRequests empties the journal (api.ClearRequests).
func (s *Server) clearRequests(c *reqCtx) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	s.journal.clear()
	c.writeRaw(http.StatusOK, []byte(`{}`))
	return nil
}

// listRequests lists the journal, oldest first (api.ListRequests).
func (s *Server) listRequests(c *reqCtx) error {
	keep, err := journalQuery(c)
	if err != nil {
		return err
	}
	p, err := c.page()
	if err != nil {
		return err
	}
	all := s.journal.matching(keep)
	from := min(p.Offset(), len(all))
	to := min(from+p.Size, len(all))
	c.listRaw(encodeEntries(all[from:to]), len(all), p)
	return nil
}
