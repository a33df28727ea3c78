package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store"
)

// defaultJournalSize is how many requests the journal keeps unless told
// otherwise (docs/server.md, Request journal).
const defaultJournalSize = 10000

// journal keeps the last requests made to the API, oldest first. It has a
// lock of its own, held only to add, finish, list or clear entries: the
// work of recording and listing (reading the answer, redacting the body,
// encoding) happens outside it, so recording a request never waits long.
// A reset clears it under the data lock; nothing else holds both.
type journal struct {
	limit int // entries kept; 0 keeps none

	mu      sync.Mutex
	entries []*journalEntry // a ring once full: head is the oldest
	head    int
}

// journalEntry is one request. Its fields are written by the request's own
// goroutine; others read them only once done is set, under the lock.
type journalEntry struct {
	done    bool
	encoded sync.Once
	raw     []byte // the entry as JSON, once listed

	rec    api.JournalEntry
	body   *capturedBody
	abort  bool // the connection was closed without an answer
	status int
}

// maxJournalBody bounds the body an entry keeps, so a full journal stays
// within memory whatever its requests carried (docs/server.md).
const maxJournalBody = 64 << 10

func newJournal(limit int) *journal { return &journal{limit: max(limit, 0)} }

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
		ID:         store.NewObjectID(),
		Time:       rules.FormatTime(s.clock.Now()),
		Method:     r.Method,
		Path:       r.URL.Path,
		Query:      r.URL.RawQuery,
		RemoteAddr: remoteHost(r.RemoteAddr),
	}}
	r = r.WithContext(context.WithValue(r.Context(), journalKey{}, e))
	if r.Body != nil && r.Body != http.NoBody {
		e.body = &capturedBody{ReadCloser: r.Body}
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

func (j *journal) add(e *journalEntry) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.entries) < j.limit {
		j.entries = append(j.entries, e)
		return
	}
	j.entries[j.head] = e
	j.head = (j.head + 1) % len(j.entries)
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
		if len(e.body.buf) > maxJournalBody {
			e.rec.BodyBytes = len(e.body.buf)
		} else {
			e.rec.Body = redactBody(e.body.buf)
		}
	}
	j.mu.Lock()
	e.done = true
	j.mu.Unlock()
	e.body = nil
}

func (j *journal) clear() {
	j.mu.Lock()
	j.entries, j.head = nil, 0
	j.mu.Unlock()
}

// matching returns the finished entries that keep, oldest first, as JSON.
// An entry is encoded when first listed, not as its request ends (most
// are never read), and outside the lock, which requests take to be
// recorded: a finished entry no longer changes.
func (j *journal) matching(keep func(*api.JournalEntry) bool) [][]byte {
	j.mu.Lock()
	var found []*journalEntry
	n := len(j.entries)
	for i := range n {
		e := j.entries[(j.head+i)%n]
		if e.done && keep(&e.rec) {
			found = append(found, e)
		}
	}
	j.mu.Unlock()
	out := make([][]byte, len(found))
	for i, e := range found {
		e.encoded.Do(func() { e.raw = rules.EncodeJSON(e.rec) })
		out[i] = e.raw
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
	buf  []byte
	eof  bool
	over bool
}

func (b *capturedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if room := maxBodyBytes - len(b.buf); n > room {
		b.over = true
		b.buf = append(b.buf, p[:max(room, 0)]...)
	} else {
		b.buf = append(b.buf, p[:n]...)
	}
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

func (b *capturedBody) complete() bool { return b.eof && !b.over }

// maxDrain is as much of a body nobody read as the journal reads before
// the answer: what net/http itself reads and discards at that point.
const maxDrain = 256 << 10

// drain reads, for the journal, a body the server answers without reading
// (a 401 challenge, a 429): net/http would read and discard it at this
// point anyway. A client waiting for 100 Continue is not made to send it.
func (b *capturedBody) drain(r *http.Request) {
	if b == nil || b.eof || b.over || r.Header.Get("Expect") != "" {
		return
	}
	if r.ContentLength > maxDrain {
		return
	}
	io.Copy(io.Discard, io.LimitReader(b, maxDrain+1))
}

// secretFields are replaced by "<redacted>" wherever they appear in a
// journaled body: private keys, store secrets, and the integration keys
// and tokens of notifications under both of their names.
var secretFields = func() map[string]bool {
	m := map[string]bool{}
	for _, f := range []string{"privateKey", "webhookSecret", "cloudSecretKey", "awsSecretKey", "apiKey"} {
		m[strings.ToLower(f)] = true
	}
	for f := range rules.PartlyRedacted {
		m[strings.ToLower(f)] = true
	}
	for _, fields := range rules.NotificationFields {
		for _, f := range fields {
			if strings.HasSuffix(f, "Key") || strings.HasSuffix(f, "Token") || strings.HasSuffix(f, "Secret") {
				m[strings.ToLower(f)] = true
			}
		}
	}
	return m
}()

const redacted = "<redacted>"

// redactBody returns the JSON body with every secret field's value
// replaced, or nil when the body is not one JSON value.
func redactBody(data []byte) json.RawMessage {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil
	}
	return rules.EncodeJSON(redactValue(v))
}

func redactValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if secretFields[strings.ToLower(k)] {
				t[k] = redacted
			} else {
				t[k] = redactValue(e)
			}
		}
	case []any:
		for i, e := range t {
			t[i] = redactValue(e)
		}
	}
	return v
}

// journalQuery is the filter of GET /_omctl/requests.
func journalQuery(c *reqCtx) (func(*api.JournalEntry) bool, *apiError) {
	q := c.r.URL.Query()
	if err := onlyQuery(c, "method", "path", "status", "caller"); err != nil {
		return nil, err
	}
	method, pathPrefix, caller := q.Get("method"), q.Get("path"), q.Get("caller")
	status := -1
	if v := q.Get("status"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 599 {
			return nil, errInvalidQuery("status", v, "status must be an HTTP status such as 200 or 503")
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
func (s *Server) clearRequests(c *reqCtx) *apiError {
	if err := onlyQuery(c); err != nil {
		return err
	}
	s.journal.clear()
	c.writeRaw(http.StatusOK, []byte(`{}`))
	return nil
}

// listRequests lists the journal, oldest first (api.ListRequests).
func (s *Server) listRequests(c *reqCtx) *apiError {
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
	c.listRaw(all[from:to], len(all), p)
	return nil
}
