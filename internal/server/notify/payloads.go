package notify

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"encoding/json"
	"sync"

	"github.com/omctl/omctl/internal/store/engine"
)

// What the last webhook deliveries sent, for the page's notifications
// (GET /_omctl/notifications?payloads=true and the stream's delivery
// events): the body and its X-MMS-Signature header, never the secret.
// Kept apart from the notification log, and for the last few only: a
// body is as large as its alert, and the log keeps 100000 entries.
type Payloads struct {
	mu    sync.Mutex
	byID  map[string]sentPayload // by notification id
	order []string               // ids, oldest first
	bytes int
}

type sentPayload struct {
	body      []byte
	signature string
}

// The bounds of Payloads: deliveries kept, and the bytes of their
// bodies.
const (
	maxSentPayloads     = 1000
	maxSentPayloadBytes = 16 << 20
)

// signature is the X-MMS-Signature of a delivery's body: base64 of its
// HMAC-SHA1 keyed by the secret ("" without one).
func signature(d *engine.Delivery) string {
	if d.Secret == "" {
		return ""
	}
	mac := hmac.New(sha1.New, []byte(d.Secret))
	mac.Write(d.Body)
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// keep remembers what a delivery sends, dropping the oldest beyond the
// bounds.
func (p *Payloads) keep(d *engine.Delivery) {
	if len(d.Body) > maxSentPayloadBytes {
		return
	}
	sig := signature(d)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.byID == nil {
		p.byID = map[string]sentPayload{}
	}
	p.byID[d.Note.ID] = sentPayload{d.Body, sig}
	p.order = append(p.order, d.Note.ID)
	p.bytes += len(d.Body)
	for len(p.order) > maxSentPayloads || p.bytes > maxSentPayloadBytes {
		old := p.order[0]
		p.order = p.order[1:]
		p.bytes -= len(p.byID[old].body)
		delete(p.byID, old)
	}
}

// Show puts in n what its delivery sent, when it is still kept.
func (p *Payloads) Show(n *engine.Notification) {
	p.mu.Lock()
	sent, ok := p.byID[n.ID]
	p.mu.Unlock()
	if ok {
		n.Delivery.Payload = json.RawMessage(sent.body)
		n.Delivery.Signature = sent.signature
	}
}

func (p *Payloads) clear() {
	p.mu.Lock()
	p.byID, p.order, p.bytes = nil, nil, 0
	p.mu.Unlock()
}
