package server

import (
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/server/handlers"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/server/journal"
	"github.com/omctl/omctl/internal/store/statelog"
)

// A change's handler runs under the data lock, one after another with
// the other writes of its batch: it finds its body decoded already, and a
// body that is not JSON fails only a handler that reads it.
func TestAChangeDecodesItsBodyBeforeTheDataLock(t *testing.T) {
	e := newEnv(t)
	var runAs func(method, body string, h handlers.Func) error
	run := func(body string, h handlers.Func) error {
		return runAs(http.MethodPut, body, h)
	}
	runAs = func(method, body string, h handlers.Func) error {
		r := httptest.NewRequest(method, apiBase+"/admin/backup/oplog/s3Configs/x", nil)
		r.Header.Set("Content-Type", "application/json")
		c := e.s.h.NewCtx(r, nil, httptest.NewRecorder())
		c.Body = []byte(body)
		return e.s.locked(c, h, false)
	}
	err := run(`{"s3MaxConnections": 7}`, func(c *handlers.Ctx) error {
		if !c.Decoded() {
			t.Error("the body was not decoded before the handler ran under the lock")
		}
		body, err := c.ReadObject()
		if err != nil || body["s3MaxConnections"] == nil || body["s3MaxConnections"].(interface{ String() string }).String() != "7" {
			t.Errorf("the handler read %v, %v", body, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := run(`{"s3MaxConnections": `, func(*handlers.Ctx) error { return nil }); err != nil {
		t.Errorf("a body the handler does not read failed it: %v", err)
	}
	err = run(`{"s3MaxConnections": `, func(c *handlers.Ctx) error { _, err := c.ReadObject(); return err })
	if a, _ := httpx.Answer(err); err == nil || a.Code() != "INVALID_JSON" {
		t.Errorf("a handler reading a broken body got %v, want INVALID_JSON", err)
	}
	runAs(http.MethodDelete, `{"s3MaxConnections": 7}`, func(c *handlers.Ctx) error {
		if c.Decoded() {
			t.Error("a DELETE's body, which no handler reads, was decoded")
		}
		return nil
	})
}

// A body is read into room made from its Content-Length, by the handler
// and by the journal, not into buffers grown by doubling (320 KB of
// garbage for a 60 KB body); but a client is held memory for what it
// sends, not for what it says it will send.
func TestABodyIsReadIntoRoomForWhatCame(t *testing.T) {
	// The least of a few tries: tests running beside this one allocate too.
	allocated := func(body string, claimed int64, read func(r *http.Request)) uint64 {
		least := uint64(math.MaxUint64)
		for range 5 {
			r := httptest.NewRequest(http.MethodPut, apiBase+"/x", strings.NewReader(body))
			r.ContentLength = claimed
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			read(r)
			runtime.ReadMemStats(&after)
			least = min(least, after.TotalAlloc-before.TotalAlloc)
		}
		return least
	}
	handler := func(body string) func(r *http.Request) {
		return func(r *http.Request) {
			c := &handlers.Ctx{R: r}
			c.ReadRequestBody(httptest.NewRecorder())
			if string(c.Body) != body {
				t.Error("the body read is not the body sent")
			}
		}
	}
	scratch := make([]byte, 32<<10)
	capture := func(body string) func(r *http.Request) {
		return func(r *http.Request) {
			b := journal.NewCapturedBody(r.Body, r.ContentLength)
			for { // not io.Copy: its pooled buffer is sometimes made anew
				if _, err := b.Read(scratch); err != nil {
					break
				}
			}
			if string(b.Captured()) != body {
				t.Error("the body captured is not the body sent")
			}
		}
	}
	// What a buffer of n bytes costs, as counted here (the race detector
	// counts more).
	var sink []byte
	buffer := func(n int) uint64 {
		return allocated("", 0, func(*http.Request) { sink = make([]byte, 0, n) })
	}

	// What the capturer itself costs, before it reads anything.
	var capturer *journal.CapturedBody
	capturerSize := allocated("", 0, func(r *http.Request) { capturer = journal.NewCapturedBody(r.Body, 0) })
	overhead := map[string]uint64{"capturing": capturerSize}

	large := `{"uri": "` + strings.Repeat("m", 60<<10) + `"}`
	limit := buffer(len(large)) * 3 / 2 // the room it said, and a first 16 KiB
	for name, read := range map[string]func(*http.Request){"reading": handler(large), "capturing": capture(large)} {
		if got := allocated(large, int64(len(large)), read) - overhead[name]; got > limit {
			t.Errorf("%s a body of %d bytes allocated %d, want at most %d", name, len(large), got, limit)
		}
	}
	small := `{"uri": "m"}`
	limit = buffer(16<<10) * 3 / 2
	for name, read := range map[string]func(*http.Request){"reading": handler(small), "capturing": capture(small)} {
		if got := allocated(small, 1<<20, read) - overhead[name]; got > limit {
			t.Errorf("%s a body of %d bytes that claimed 1 MiB allocated %d, want at most %d", name, len(small), got, limit)
		}
	}
	_, _ = sink, capturer
}

// A write whose commit fails while the state file cannot be read back is
// answered 500, and so is every write until the file reads back; reads
// are served the data as on disk meanwhile, without the failed write
// (docs/server.md, State).
func TestAFailedWriteThatCannotBeUndoneIsNeverServed(t *testing.T) {
	e, log := newFaultyEnv(t, fixtureJSON)
	log.FailCommits(func(*statelog.Batch) error { return errors.New("disk full") })
	log.FailReads(errors.New("I/O error"))
	e.expect(e.do("owner", "POST", "/admin/backup/oplog/s3Configs", oplogBody(nil)), 500, "UNEXPECTED_ERROR")
	e.expect(e.do("owner", "GET", "/admin/backup/oplog/s3Configs/oplog2", nil), 404, "RESOURCE_NOT_FOUND")
	e.expect(e.do("owner", "GET", "/admin/backup/oplog/s3Configs/oplog1", nil), 200, "")
	got := e.do("owner", "PUT", "/admin/backup/oplog/s3Configs/oplog1", oplogBody(map[string]any{"id": "oplog1"}))
	e.expect(got, 500, "UNEXPECTED_ERROR")
	if detail := got.str("detail"); !strings.Contains(detail, "cannot be read back") || strings.Contains(detail, "I/O error") {
		t.Errorf("a write while the file cannot be read is answered %q", detail)
	}
	log.FailReads(nil)
	log.FailCommits(nil)
	// The file is read back at a pace (a fraction of a second after the
	// first failure); until then writes are answered 500.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		got := e.do("owner", "POST", "/admin/backup/oplog/s3Configs", oplogBody(nil))
		if got.status != 500 || time.Now().After(deadline) {
			e.expect(got, 200, "")
			break
		}
	}
	e.expect(e.do("owner", "GET", "/admin/backup/oplog/s3Configs/oplog2", nil), 200, "")
}

// While a write's commit waits for the disk, GETs are answered, with the
// data as it was before the write; once the write is answered, they see
// it: a slow disk delays writers only (docs/server.md, State).
func TestGetsAreAnsweredWhileAWriteIsSynced(t *testing.T) {
	e, finish := aWriteHeldAtItsSync(t)
	read := make(chan response, 1)
	go func() { read <- e.do("owner", "GET", "/admin/backup/oplog/s3Configs/oplog2", nil) }()
	select {
	case got := <-read:
		e.expect(got, 404, "RESOURCE_NOT_FOUND") // not on disk yet
	case <-time.After(10 * time.Second):
		t.Fatal("a GET waited for a write's commit")
	}
	e.expect(finish(), 200, "")
	e.expect(e.do("owner", "GET", "/admin/backup/oplog/s3Configs/oplog2", nil), 200, "")
}

// aWriteHeldAtItsSync is a server over fixtureJSON with a state file, and
// a write (the oplog store oplog2 made) whose commit is held until finish,
// which lets it go and returns the write's answer.
func aWriteHeldAtItsSync(t *testing.T) (e *env, finish func() response) {
	t.Helper()
	e, log := newFaultyEnv(t, fixtureJSON)
	syncing, release := make(chan bool), make(chan bool)
	log.FailCommits(func(*statelog.Batch) error { syncing <- true; <-release; return nil })
	written := make(chan response, 1)
	go func() { written <- e.do("owner", "POST", "/admin/backup/oplog/s3Configs", oplogBody(nil)) }()
	select {
	case <-syncing:
	case got := <-written:
		t.Fatalf("the write was answered before its commit: %d", got.status)
	}
	var once sync.Once
	let := func() {
		once.Do(func() {
			log.FailCommits(nil)
			close(release)
		})
	}
	t.Cleanup(let) // should the test end first: the server then closes
	return e, func() response {
		let()
		return <-written
	}
}
