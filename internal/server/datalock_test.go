package server

import (
	"bytes"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/store/statelog"
)

// A change's handler runs under the data lock, one after another with
// the other writes of its batch: it finds its body decoded already, and a
// body that is not JSON fails only a handler that reads it.
func TestAChangeDecodesItsBodyBeforeTheDataLock(t *testing.T) {
	e := newEnv(t)
	run := func(body string, h handlerFunc) *apiError {
		r := httptest.NewRequest(http.MethodPut, apiBase+"/admin/backup/oplog/s3Configs/x", nil)
		r.Header.Set("Content-Type", "application/json")
		return e.s.locked(&reqCtx{r: r, s: e.s, body: []byte(body)}, h, false)
	}
	err := run(`{"s3MaxConnections": 7}`, func(c *reqCtx) *apiError {
		if c.decoded == nil {
			t.Error("the body was not decoded before the handler ran under the lock")
		}
		body, err := c.readObject()
		if err != nil || body["s3MaxConnections"] == nil || body["s3MaxConnections"].(interface{ String() string }).String() != "7" {
			t.Errorf("the handler read %v, %v", body, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := run(`{"s3MaxConnections": `, func(*reqCtx) *apiError { return nil }); err != nil {
		t.Errorf("a body the handler does not read failed it: %v", err)
	}
	err = run(`{"s3MaxConnections": `, func(c *reqCtx) *apiError { _, err := c.readObject(); return err })
	if err == nil || err.code != "INVALID_JSON" {
		t.Errorf("a handler reading a broken body got %v, want INVALID_JSON", err)
	}
}

// A body whose length is said is read into room made for it, by the
// handler and by the journal: not into buffers grown by doubling, which
// made a 60 KB body cost 320 KB of garbage.
func TestABodyOfAKnownLengthIsReadWithoutGrowing(t *testing.T) {
	body := `{"uri": "` + strings.Repeat("m", 60<<10) + `"}`
	// The least of a few tries: tests running beside this one allocate too.
	allocated := func(read func(r *http.Request)) uint64 {
		least := uint64(math.MaxUint64)
		for range 5 {
			r := httptest.NewRequest(http.MethodPut, apiBase+"/x", strings.NewReader(body))
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			read(r)
			runtime.ReadMemStats(&after)
			least = min(least, after.TotalAlloc-before.TotalAlloc)
		}
		return least
	}
	// What one buffer of the body's size costs, as counted here (the race
	// detector counts more).
	var sink []byte
	limit := allocated(func(*http.Request) { sink = make([]byte, 0, len(body)+bytes.MinRead) }) * 3 / 2
	_ = sink
	if got := allocated(func(r *http.Request) {
		c := &reqCtx{r: r}
		c.readRequestBody(httptest.NewRecorder())
		if string(c.body) != body {
			t.Error("the body read is not the body sent")
		}
	}); got > limit {
		t.Errorf("reading a body of %d bytes allocated %d", len(body), got)
	}
	if got := allocated(func(r *http.Request) {
		b := &capturedBody{ReadCloser: r.Body, buf: make([]byte, 0, bodyRoom(r))}
		io.Copy(io.Discard, b)
		if string(b.buf) != body {
			t.Error("the body captured is not the body sent")
		}
	}); got > limit {
		t.Errorf("capturing a body of %d bytes allocated %d", len(body), got)
	}
}

// A write whose commit fails while the state file cannot be read back is
// answered 500, and so is every request for the data until the file reads
// back; then the write is not there (docs/server.md, State).
func TestAFailedWriteThatCannotBeUndoneIsNeverServed(t *testing.T) {
	e, log := newFaultyEnv(t, fixtureJSON)
	log.FailCommits(func(*statelog.Batch) error { return errors.New("disk full") })
	log.FailReads(errors.New("I/O error"))
	e.expect(e.do("owner", "POST", "/admin/backup/oplog/s3Configs", oplogBody(nil)), 500, "UNEXPECTED_ERROR")
	got := e.do("owner", "GET", "/admin/backup/oplog/s3Configs/oplog2", nil)
	e.expect(got, 500, "UNEXPECTED_ERROR")
	if detail := got.str("detail"); !strings.Contains(detail, "cannot be read back") || strings.Contains(detail, "I/O error") {
		t.Errorf("the answer while the file cannot be read says %q", detail)
	}
	log.FailReads(nil)
	log.FailCommits(nil)
	e.expect(e.do("owner", "GET", "/admin/backup/oplog/s3Configs/oplog2", nil), 404, "RESOURCE_NOT_FOUND")
	e.expect(e.do("owner", "POST", "/admin/backup/oplog/s3Configs", oplogBody(nil)), 200, "")
}
