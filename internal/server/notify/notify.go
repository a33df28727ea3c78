// Package notify is omctl server's notification log and webhook delivery
// (docs/server.md, Notification log and Webhook delivery): the last
// notifications the engine recorded, and a bounded pool that sends their
// webhooks, signed, to the destinations allowed, keeping what was sent.
package notify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/omctl/omctl/internal/store/engine"
)

// Log keeps the last size notifications recorded since the
// start or the last reset, oldest first, and counts those it dropped
// (docs/server.md, Notification log); deliveries update entries under its
// own lock, never the data lock. It holds them in a ring that grows to
// size as entries come, so a short log costs little.
type Log struct {
	mu      sync.Mutex
	size    int // at most this many entries (0: none)
	ring    []*engine.Notification
	head    int // the oldest entry's index in ring, once ring is full
	dropped int // dropped since the last reset
	// Finished is told of each delivery that ended, DELIVERED or FAILED,
	// with a copy of its entry (the event stream's delivery events).
	Finished func(*engine.Notification)
	sent     Payloads // what the last webhook deliveries sent
}

// DefaultLogSize is how many entries the log keeps unless
// told otherwise: some 45 MB of memory.
const DefaultLogSize = 100000

// NewLog keeps the last size notifications.
func NewLog(size int) *Log {
	return &Log{size: max(size, 0)}
}

func (l *Log) Add(notes []*engine.Notification) {
	if len(notes) == 0 {
		return // most requests: they need not wait for a listing
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, n := range notes {
		switch {
		case l.size == 0:
			l.dropped++
		case len(l.ring) < l.size:
			l.ring = append(l.ring, n)
		default:
			l.ring[l.head] = n
			l.head = (l.head + 1) % l.size
			l.dropped++
		}
	}
}

// Clear empties the log and forgets what it dropped; the memory it held
// goes back to the runtime.
func (l *Log) Clear() {
	l.mu.Lock()
	l.ring, l.head, l.dropped = nil, 0, 0
	l.mu.Unlock()
	l.sent.clear()
}

// at is the i-th entry, oldest first (under mu).
func (l *Log) at(i int) *engine.Notification {
	return l.ring[(l.head+i)%len(l.ring)]
}

// Page returns copies of the entries that pass keep (all when keep is
// nil) from the offset-th on, at most size of them, oldest first, how
// many pass in all, and how many the log dropped. Only the page is
// copied: the log may be long.
func (l *Log) Page(keep func(*engine.Notification) bool, offset, size int) (out []engine.Notification, total, dropped int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(l.ring)
	if keep == nil {
		for i := min(offset, n); i < min(offset+size, n); i++ {
			out = append(out, *l.at(i))
		}
		return out, n, l.dropped
	}
	for i := range n {
		if e := l.at(i); keep(e) {
			if total >= offset && len(out) < size {
				out = append(out, *e)
			}
			total++
		}
	}
	return out, total, l.dropped
}

func (l *Log) update(n *engine.Notification, f func(*engine.DeliveryState)) {
	l.mu.Lock()
	was := n.Delivery.Status
	f(&n.Delivery)
	var done *engine.Notification
	if st := n.Delivery.Status; st != was && (st == "DELIVERED" || st == "FAILED") && l.Finished != nil {
		c := *n
		done = &c
	}
	l.mu.Unlock()
	if done != nil {
		l.sent.Show(done)
		l.Finished(done)
	}
}

// Webhook delivery: the time a receiver has to answer, and the waits
// before the second and third attempts.
var (
	webhookTimeout = 10 * time.Second
	WebhookRetries = []time.Duration{time.Second, 2 * time.Second}
)

// Webhooks sends deliveries to the destinations it allows, through a
// bounded pool of workers fed by a bounded queue (docs/server.md, Webhook
// delivery): a burst of notifications never opens more than workers
// connections, nor holds more than the queue's deliveries in memory.
type Webhooks struct {
	allow  []string       // host names
	blocks []netip.Prefix // and address blocks beyond loopback
	client *http.Client
	log    *Log
	queue  chan hookJob
	stop   <-chan struct{}
	// ctx ends attempts in flight once stop is closed (see close);
	// workers counts the workers running.
	ctx     context.Context
	cancel  context.CancelFunc
	workers sync.WaitGroup
}

// hookJob is one attempt to make: the first (counted in first, when not
// nil) or a retry.
type hookJob struct {
	d       *engine.Delivery
	attempt int
	first   *sync.WaitGroup
}

// The pool's defaults: deliveries in flight, and deliveries waiting.
const (
	DefaultWebhookConcurrency = 16
	DefaultWebhookQueue       = 10000
)

// NewWebhooks starts workers that send until stop is closed; queue
// deliveries may wait for one (0: none wait, a delivery is taken only by
// an idle worker).
func NewWebhooks(allow []string, log *Log, workers, queue int, stop <-chan struct{}) (*Webhooks, error) {
	w := &Webhooks{log: log, queue: make(chan hookJob, queue), stop: stop}
	w.ctx, w.cancel = context.WithCancel(context.Background())
	for _, a := range allow {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		if p, err := netip.ParsePrefix(a); err == nil {
			w.blocks = append(w.blocks, p.Masked())
		} else if ip, err := netip.ParseAddr(a); err == nil {
			w.blocks = append(w.blocks, netip.PrefixFrom(ip.Unmap(), ip.Unmap().BitLen()))
		} else if strings.ContainsAny(a, "/:") {
			return nil, fmt.Errorf("--webhook-allow %q is neither a host name, an address nor a CIDR block", a)
		} else {
			w.allow = append(w.allow, strings.ToLower(a))
		}
	}
	w.client = &http.Client{
		Timeout: webhookTimeout,
		// A redirect could lead anywhere: the destination is the URL given.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		// Idle connections are kept for every worker: a busy receiver is
		// not reconnected to for each delivery.
		Transport: &http.Transport{DialContext: w.dial, MaxIdleConnsPerHost: workers, MaxConnsPerHost: workers, IdleConnTimeout: 30 * time.Second},
	}
	w.workers.Add(workers)
	for range workers {
		go func() {
			defer w.workers.Done()
			w.work()
		}()
	}
	return w, nil
}

// Close ends the attempts in flight and waits for the workers, which
// stop is closed for already, then lets the connections they kept go:
// nothing of the pool outlives it.
func (w *Webhooks) Close() {
	w.cancel()
	w.workers.Wait()
	w.client.CloseIdleConnections()
}

// work makes the attempts of the jobs it takes, one at a time.
func (w *Webhooks) work() {
	for {
		select {
		case j := <-w.queue:
			w.run(j)
		case <-w.stop:
			return
		}
	}
}

// run makes one attempt; after a failure the next one is queued once its
// wait is over, and after the last the delivery is FAILED.
func (w *Webhooks) run(j hookJob) {
	ok := w.attempt(j.d, j.attempt)
	if j.first != nil {
		j.first.Done()
	}
	if ok {
		return
	}
	if j.attempt > len(WebhookRetries) {
		w.log.update(j.d.Note, func(s *engine.DeliveryState) { s.Status = "FAILED" })
		return
	}
	time.AfterFunc(WebhookRetries[j.attempt-1], func() {
		select {
		case <-w.stop:
			return // no worker is left to take it
		default:
		}
		w.enqueue(hookJob{d: j.d, attempt: j.attempt + 1})
	})
}

// enqueue queues a job, or, when the queue is full, fails the delivery at
// once: waiting would hold the caller, and memory, without bound.
func (w *Webhooks) enqueue(j hookJob) bool {
	select {
	case w.queue <- j:
		return true
	default:
	}
	msg := fmt.Sprintf("the webhook queue was full (%d deliveries waiting; see --webhook-queue): not sent", cap(w.queue))
	w.log.update(j.d.Note, func(s *engine.DeliveryState) { s.Status, s.LastError = "FAILED", msg })
	return false
}

// allowed says whether a webhook URL's destination may be sent to.
func (w *Webhooks) allowed(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return errors.New("the webhook URL is not an http or https URL")
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || slices.Contains(w.allow, host) {
		return nil
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		ip = ip.Unmap()
		if ip.IsLoopback() {
			return nil
		}
		for _, p := range w.blocks {
			if p.Contains(ip) {
				return nil
			}
		}
	}
	return fmt.Errorf("the destination %s is not allowed: omctl server sends webhooks to loopback addresses only, unless --webhook-allow names it", host)
}

// dial connects only where allowed resolves to: a name given in
// --webhook-allow may resolve anywhere, localhost only to loopback.
func (w *Webhooks) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, _, _ := net.SplitHostPort(addr)
	if strings.EqualFold(host, "localhost") {
		addr = net.JoinHostPort("127.0.0.1", addr[len(host)+1:])
	}
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}

// Send queues d, whose body is made by body unless the delivery fails
// at once (a destination not allowed, a full queue); the first attempt
// of a queued delivery is counted in first (when not nil).
func (w *Webhooks) Send(d *engine.Delivery, first *sync.WaitGroup, body func() []byte) {
	if err := w.allowed(d.URL); err != nil {
		w.log.update(d.Note, func(s *engine.DeliveryState) { s.Status, s.LastError = "FAILED", err.Error() })
		return
	}
	if cap(w.queue) > 0 && len(w.queue) == cap(w.queue) {
		w.enqueue(hookJob{d: d}) // fails it, without making a body for nothing
		return
	}
	d.Body = body()
	w.log.sent.keep(d)
	if first != nil {
		first.Add(1)
	}
	if !w.enqueue(hookJob{d: d, attempt: 1, first: first}) && first != nil {
		first.Done()
	}
}

// attempt makes one attempt and reports whether it was delivered.
func (w *Webhooks) attempt(d *engine.Delivery, n int) bool {
	req, err := http.NewRequestWithContext(w.ctx, http.MethodPost, d.URL, bytes.NewReader(d.Body))
	if err != nil {
		w.log.update(d.Note, func(s *engine.DeliveryState) { s.Attempts, s.LastError = n, "the webhook URL cannot be used" })
		return false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-MMS-Event", d.Event)
	req.Header.Set("User-Agent", "omctl-server")
	if sig := signature(d); sig != "" {
		req.Header.Set("X-MMS-Signature", sig)
	}
	res, err := w.client.Do(req)
	if err != nil {
		msg := "the receiver did not answer"
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			msg = fmt.Sprintf("the receiver did not answer within %s", webhookTimeout)
		} else if errors.Is(err, syscall.ECONNREFUSED) {
			msg = "the receiver refused the connection"
		}
		w.log.update(d.Note, func(s *engine.DeliveryState) { s.Attempts, s.LastError = n, msg })
		return false
	}
	io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
	res.Body.Close()
	ok := res.StatusCode >= 200 && res.StatusCode < 300
	w.log.update(d.Note, func(s *engine.DeliveryState) {
		s.Attempts, s.LastResponseCode = n, res.StatusCode
		if ok {
			s.Status, s.LastError = "DELIVERED", ""
		} else {
			s.LastError = fmt.Sprintf("the receiver answered %d", res.StatusCode)
		}
	})
	return ok
}

// Sent is what the last webhook deliveries sent, for GET
// /_omctl/notifications?payloads=true.
func (l *Log) Sent() *Payloads { return &l.sent }
