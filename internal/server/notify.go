package server

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
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

	"github.com/omctl/omctl/internal/store"
)

// notificationLog keeps every notification recorded since the start or
// the last reset; deliveries update entries under its own lock, never the
// data lock.
type notificationLog struct {
	mu      sync.Mutex
	entries []*store.Notification
}

func (l *notificationLog) add(notes []*store.Notification) {
	if len(notes) == 0 {
		return // most requests: they need not wait for a listing
	}
	l.mu.Lock()
	l.entries = append(l.entries, notes...)
	l.mu.Unlock()
}

func (l *notificationLog) clear() {
	l.mu.Lock()
	l.entries = nil
	l.mu.Unlock()
}

// page returns copies of the entries that pass keep (all when keep is
// nil) from the offset-th on, at most size of them, oldest first, and how
// many pass in all. Only the page is copied: the log may be long.
func (l *notificationLog) page(keep func(*store.Notification) bool, offset, size int) ([]store.Notification, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []store.Notification
	if keep == nil {
		for _, n := range l.entries[min(offset, len(l.entries)):min(offset+size, len(l.entries))] {
			out = append(out, *n)
		}
		return out, len(l.entries)
	}
	total := 0
	for _, n := range l.entries {
		if keep(n) {
			if total >= offset && len(out) < size {
				out = append(out, *n)
			}
			total++
		}
	}
	return out, total
}

func (l *notificationLog) update(n *store.Notification, f func(*store.DeliveryState)) {
	l.mu.Lock()
	f(&n.Delivery)
	l.mu.Unlock()
}

// Webhook delivery: the time a receiver has to answer, and the waits
// before the second and third attempts.
var (
	webhookTimeout = 10 * time.Second
	webhookRetries = []time.Duration{time.Second, 2 * time.Second}
)

// webhooks sends deliveries to the destinations it allows.
type webhooks struct {
	allow  []string       // host names
	blocks []netip.Prefix // and address blocks beyond loopback
	client *http.Client
	log    *notificationLog
}

func newWebhooks(allow []string, log *notificationLog) (*webhooks, error) {
	w := &webhooks{log: log}
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
		Transport:     &http.Transport{DialContext: w.dial, MaxIdleConnsPerHost: 4, IdleConnTimeout: 30 * time.Second},
	}
	return w, nil
}

// allowed says whether a webhook URL's destination may be sent to.
func (w *webhooks) allowed(raw string) error {
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
func (w *webhooks) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, _, _ := net.SplitHostPort(addr)
	if strings.EqualFold(host, "localhost") {
		addr = net.JoinHostPort("127.0.0.1", addr[len(host)+1:])
	}
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}

// send delivers d: when wait is set the first attempt is made before it
// returns; retries are always made in the background.
func (w *webhooks) send(d *store.Delivery, wait bool) {
	if err := w.allowed(d.URL); err != nil {
		w.log.update(d.Note, func(s *store.DeliveryState) { s.Status, s.LastError = "FAILED", err.Error() })
		return
	}
	if wait {
		if !w.attempt(d, 1) {
			go w.retry(d)
		}
		return
	}
	go func() {
		if !w.attempt(d, 1) {
			w.retry(d)
		}
	}()
}

// retry makes the second and third attempts, then gives up.
func (w *webhooks) retry(d *store.Delivery) {
	for i, wait := range webhookRetries {
		time.Sleep(wait)
		if w.attempt(d, i+2) {
			return
		}
	}
	w.log.update(d.Note, func(s *store.DeliveryState) { s.Status = "FAILED" })
}

// attempt makes one attempt and reports whether it was delivered.
func (w *webhooks) attempt(d *store.Delivery, n int) bool {
	req, err := http.NewRequest(http.MethodPost, d.URL, bytes.NewReader(d.Body))
	if err != nil {
		w.log.update(d.Note, func(s *store.DeliveryState) { s.Attempts, s.LastError = n, "the webhook URL cannot be used" })
		return false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-MMS-Event", d.Event)
	req.Header.Set("User-Agent", "omctl-server")
	if d.Secret != "" {
		mac := hmac.New(sha1.New, []byte(d.Secret))
		mac.Write(d.Body)
		req.Header.Set("X-MMS-Signature", base64.StdEncoding.EncodeToString(mac.Sum(nil)))
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
		w.log.update(d.Note, func(s *store.DeliveryState) { s.Attempts, s.LastError = n, msg })
		return false
	}
	io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
	res.Body.Close()
	ok := res.StatusCode >= 200 && res.StatusCode < 300
	w.log.update(d.Note, func(s *store.DeliveryState) {
		s.Attempts, s.LastResponseCode = n, res.StatusCode
		if ok {
			s.Status, s.LastError = "DELIVERED", ""
		} else {
			s.LastError = fmt.Sprintf("the receiver answered %d", res.StatusCode)
		}
	})
	return ok
}
