package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/handlers"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/server/journal"
	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/engine"
)

// GET /_omctl/stream (docs/server.md, Event stream): each change the
// server makes is one server-sent event, handed by the code that made it
// to a broker that queues it for every reader. Handing over never waits:
// it happens under the data lock (alerts, notifications) or on a webhook
// worker (deliveries), so a reader whose queue is full is dropped, not
// waited for, and the queue is all the memory a reader is held.

// The kinds of event, as the stream's event: lines name them.
const (
	eventAlert        = "alert"
	eventNotification = "notification"
	eventDelivery     = "delivery"
	eventRequest      = "request"
	eventClock        = "clock"
	// eventReset: POST /_omctl/reset put the data back; what a reader
	// holds of the old data is gone.
	eventReset = "reset"
)

// Bounds of a reader: the events queued for it and the bytes they hold
// (as streamEvent.size counts them), the longest a write to it may take, and
// how often an idle stream says it is still there.
const (
	defaultStreamQueue = 4096
	streamQueueBytes   = 32 << 20
	streamWriteTimeout = 10 * time.Second
	streamKeepAlive    = 15 * time.Second
	streamCutGrace     = 100 * time.Millisecond
)

// streamEvent is one change, rendered when a reader's stream writes it.
type streamEvent struct {
	kind string
	at   time.Time // the server's clock when it was made
	// alert, note, entry or now, by kind.
	alert alert.Rec
	note  *engine.Notification // a copy: the log's entry changes later
	entry *journal.Entry       // finished: it no longer changes
	now   string
}

// size is about what the event holds in memory, for the reader's budget.
func (ev *streamEvent) size() int64 {
	n := int64(64)
	switch {
	case ev.alert.Cur != nil:
		n += int64(len(ev.alert.Cur.Raw))
	case ev.note != nil:
		n += 256
	case ev.entry != nil:
		n += ev.entry.Size()
	}
	return n
}

// appendTo appends the event as the stream sends it: its kind, then its
// JSON on one data: line; alerts are as GET shows them under base.
func (ev *streamEvent) appendTo(dst []byte, base string) []byte {
	var data []byte
	switch ev.kind {
	case eventAlert:
		data = handlers.AlertJSON(&ev.alert, base, ev.at)
	case eventNotification, eventDelivery:
		data = rules.EncodeJSON(ev.note)
	case eventRequest:
		data = rules.EncodeJSON(ev.entry.Record())
	default:
		data = rules.EncodeJSON(api.Clock{Now: ev.now})
	}
	data = bytes.TrimRight(data, "\n")
	if bytes.IndexByte(data, '\n') >= 0 {
		// A data: line ends at a newline: the JSON goes on one line.
		var one bytes.Buffer
		json.Compact(&one, data)
		data = one.Bytes()
	}
	dst = append(dst, "event: "...)
	dst = append(dst, ev.kind...)
	dst = append(dst, "\ndata: "...)
	dst = append(dst, data...)
	return append(dst, "\n\n"...)
}

// streams is the broker: the readers of the stream, each with its queue.
type streams struct {
	queue int // events a reader may have queued

	mu      sync.Mutex
	readers map[*streamReader]struct{}
	closed  bool         // the server stops: no more readers
	count   atomic.Int32 // len(readers), read without the lock
}

// streamReader is one GET /_omctl/stream: its queue, the bytes it holds,
// and a context cancelled when it is to end (too slow, the server
// stopping, the client gone).
type streamReader struct {
	events chan streamEvent
	bytes  atomic.Int64
	ctx    context.Context
	cancel context.CancelCauseFunc
}

// Why a stream ended, when the server ended it.
var (
	errStreamTooSlow = errors.New("the reader fell behind: its queue of events was full")
	errStreamStopped = errors.New("the server is stopping")
)

func newStreams(queue int) *streams {
	if queue <= 0 {
		queue = defaultStreamQueue
	}
	return &streams{queue: queue, readers: map[*streamReader]struct{}{}}
}

// listening reports whether anyone reads the stream: without readers,
// changes cost nothing more than this.
func (b *streams) listening() bool { return b.count.Load() > 0 }

// join adds a reader whose stream serves ctx; nil once the server stops.
func (b *streams) join(ctx context.Context) *streamReader {
	r := &streamReader{events: make(chan streamEvent, b.queue)}
	r.ctx, r.cancel = context.WithCancelCause(ctx)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		r.cancel(errStreamStopped)
		return nil
	}
	b.readers[r] = struct{}{}
	b.count.Store(int32(len(b.readers)))
	return r
}

// leave forgets a reader whose stream ended.
func (b *streams) leave(r *streamReader) {
	b.mu.Lock()
	b.dropLocked(r, context.Canceled)
	b.mu.Unlock()
}

func (b *streams) dropLocked(r *streamReader, why error) {
	if _, ok := b.readers[r]; !ok {
		return
	}
	delete(b.readers, r)
	b.count.Store(int32(len(b.readers)))
	r.cancel(why)
}

// publish queues events for every reader, in order, never waiting: a
// reader without room for them all is dropped.
func (b *streams) publish(evs ...streamEvent) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for r := range b.readers {
		for i := range evs {
			size := evs[i].size()
			if r.bytes.Load()+size > streamQueueBytes {
				b.dropLocked(r, errStreamTooSlow)
				break
			}
			select {
			case r.events <- evs[i]:
				r.bytes.Add(size)
				continue
			default:
			}
			b.dropLocked(r, errStreamTooSlow)
			break
		}
	}
}

// close ends every stream and refuses new ones: the server stops.
func (b *streams) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	for r := range b.readers {
		b.dropLocked(r, errStreamStopped)
	}
}

// streamCommitted publishes what a committed write changed: a reset,
// the alerts it changed, then the notifications it recorded (under the
// data lock: Server.published).
func (s *Server) streamCommitted(out store.Outcome) {
	if !s.streams.listening() {
		return
	}
	alerts := out.Alerts()
	if !out.Reset && len(alerts) == 0 && len(out.Notes) == 0 {
		return
	}
	now := s.clock.Now()
	evs := make([]streamEvent, 0, len(alerts)+len(out.Notes)+1)
	if out.Reset {
		evs = append(evs, streamEvent{kind: eventReset, at: now, now: rules.FormatTime(now)})
	}
	for _, a := range alerts {
		evs = append(evs, streamEvent{kind: eventAlert, at: now, alert: a})
	}
	for _, n := range out.Notes {
		c := *n // deliveries change the log's entry once the lock is gone
		evs = append(evs, streamEvent{kind: eventNotification, at: now, note: &c})
	}
	s.streams.publish(evs...)
}

// streamDelivered publishes a delivery that finished, as the log has it.
func (s *Server) streamDelivered(n *engine.Notification) {
	if s.streams.listening() {
		s.streams.publish(streamEvent{kind: eventDelivery, at: s.clock.Now(), note: n})
	}
}

// streamRequest publishes a journal entry once it is finished.
func (s *Server) streamRequest(e *journal.Entry) {
	if s.streams.listening() && e.Done() {
		s.streams.publish(streamEvent{kind: eventRequest, at: s.clock.Now(), entry: e})
	}
}

// streamClock publishes where a clock move took the clock.
func (s *Server) streamClock(now time.Time) {
	if s.streams.listening() {
		s.streams.publish(streamEvent{kind: eventClock, at: now, now: rules.FormatTime(now)})
	}
}

// streamEvents serves GET /_omctl/stream (api.StreamEvents): the events
// of the changes made while the client listens, until it goes, falls
// behind, or the server stops. It writes its answer itself.
func (s *Server) streamEvents(c *handlers.Ctx) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	r := s.streams.join(c.R.Context())
	if r == nil {
		return httpx.New(http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE", "Service unavailable: the server is stopping.")
	}
	defer s.streams.leave(r)
	w := c.W
	rc := http.NewResponseController(w)
	// The stream outlives the server's read and write timeouts: the read
	// one would cancel it, and each write gets a deadline of its own. A
	// write blocked on a reader that is dropped, or on a server that
	// stops, is cut at once, but for the moment the stream's last chunk
	// needs to go out.
	rc.SetReadDeadline(time.Time{})
	defer context.AfterFunc(r.ctx, func() { rc.SetWriteDeadline(time.Now().Add(streamCutGrace)) })()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	// A cut write leaves the connection unusable: it is not kept.
	h.Set("Connection", "close")
	c.Sent = true
	w.WriteHeader(http.StatusOK)
	send := func(b []byte) bool {
		rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	// retry: how soon a browser reconnects once the stream ends.
	if !send([]byte(": omctl server events\nretry: 1000\n\n")) {
		return nil
	}
	s.pumpStream(r, c.BaseURL(), send)
	return nil
}

// pumpStream writes a reader's events as they come, a batch of those
// waiting at a time, and a comment when it has been idle a while.
func (s *Server) pumpStream(r *streamReader, base string, send func([]byte) bool) {
	keepAlive := time.NewTicker(streamKeepAlive)
	defer keepAlive.Stop()
	var buf []byte
	for {
		select {
		case <-r.ctx.Done():
			if cause := context.Cause(r.ctx); cause == errStreamTooSlow {
				s.logf("GET %s: %v; the stream is closed", api.StreamEvents.Pattern, cause)
			}
			return
		case <-keepAlive.C:
			if !send([]byte(": keep-alive\n\n")) {
				return
			}
		case ev := <-r.events:
			buf = r.drain(ev, buf[:0], base)
			if !send(buf) {
				return
			}
			keepAlive.Reset(streamKeepAlive)
		}
	}
}

// drain appends ev and the events queued behind it, up to some 64 KiB.
func (r *streamReader) drain(ev streamEvent, buf []byte, base string) []byte {
	for {
		r.bytes.Add(-ev.size())
		buf = ev.appendTo(buf, base)
		if len(buf) >= 64<<10 {
			return buf
		}
		select {
		case ev = <-r.events:
		default:
			return buf
		}
	}
}
