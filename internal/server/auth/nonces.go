package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"hash"
	"sync"
	"time"
)

// nonces issues digest nonces that carry their own issue time and a
// sequence number, signed, so any nonce can be checked for age without
// being stored, and remembers the nonce counts used with each so a replay
// is refused. What it remembers is bounded: the oldest live nonces are
// forgotten first, and every nonce up to the last one forgotten is then
// answered stale, so the client takes a fresh one and nothing can be
// replayed.
type nonces struct {
	secret []byte
	macs   sync.Pool // of hmac hashes keyed with secret
	ttl    time.Duration
	now    func() time.Time
	limit  int

	mu     sync.Mutex
	issued uint64
	seen   map[string]*replayWindow
	order  []usedNonce // by first use, oldest from head on
	head   int
	floor  uint64 // nonces with a sequence number up to this one are stale
}

// maxLiveNonces bounds the replay memory (about 100 bytes a nonce).
const maxLiveNonces = 1 << 16

type usedNonce struct {
	nonce   string
	seq     uint64
	expires time.Time
}

// replayWindow accepts each nonce count once, out of order within the last
// 128 counts (concurrent requests may overtake each other). It belongs to
// a nonce whose MAC was checked when first used, issued then.
type replayWindow struct {
	highest int
	bits    [2]uint64
	issued  time.Time
}

func (w *replayWindow) accept(nc int) bool {
	const size = 128
	switch {
	case nc <= 0:
		return false
	case nc > w.highest:
		switch shift := uint(nc - w.highest); {
		case shift >= size:
			w.bits = [2]uint64{}
		case shift >= 64:
			w.bits = [2]uint64{0, w.bits[0] << (shift - 64)}
		default:
			w.bits = [2]uint64{w.bits[0] << shift, w.bits[1]<<shift | w.bits[0]>>(64-shift)}
		}
		w.highest = nc
		w.bits[0] |= 1
		return true
	case w.highest-nc >= size:
		return false
	}
	off := w.highest - nc
	word, bit := off/64, uint(off%64)
	if w.bits[word]&(1<<bit) != 0 {
		return false
	}
	w.bits[word] |= 1 << bit
	return true
}

// newNonces measures nonce age on now, the server's clock: under a
// virtual clock, advancing it ages nonces too, so a test can see stale=true.
func newNonces(ttl time.Duration, now func() time.Time) *nonces {
	secret := make([]byte, 32)
	rand.Read(secret)
	return &nonces{secret: secret, ttl: ttl, now: now, limit: maxLiveNonces, seen: map[string]*replayWindow{}}
}

// A nonce is the issue time in Unix seconds and nanoseconds (any year
// the clock can show), a sequence number, random bytes and a MAC of them.
const (
	nonceBody = 8 + 4 + 8 + 8
	nonceLen  = nonceBody + 16
)

func (n *nonces) issue() string {
	n.mu.Lock()
	n.issued++
	seq := n.issued
	n.mu.Unlock()
	buf := make([]byte, nonceLen)
	now := n.now()
	binary.BigEndian.PutUint64(buf, uint64(now.Unix()))
	binary.BigEndian.PutUint32(buf[8:], uint32(now.Nanosecond()))
	binary.BigEndian.PutUint64(buf[12:], seq)
	rand.Read(buf[20:nonceBody])
	copy(buf[nonceBody:], n.mac(buf[:nonceBody]))
	return base64.RawURLEncoding.EncodeToString(buf)
}

// mac signs a nonce's body. Every request checks one, so the keyed hashes
// are kept for reuse rather than set up each time.
func (n *nonces) mac(b []byte) []byte {
	m, _ := n.macs.Get().(hash.Hash)
	if m == nil {
		m = hmac.New(sha256.New, n.secret)
	}
	m.Reset()
	m.Write(b)
	sum := m.Sum(nil)[:16]
	n.macs.Put(m)
	return sum
}

// verdict on a nonce and its count.
type nonceState int

const (
	nonceFresh nonceState = iota
	nonceStale
	nonceUnknown // not ours
	nonceReplay  // ours, but this count was used before
)

// use checks a nonce and records the use of count nc with it. A nonce
// in use is checked once: a client sends the same one with each request,
// and decoding it and computing its MAC again was a fifth of the work of
// authenticating.
func (n *nonces) use(nonce string, nc int) nonceState {
	now := n.now()
	n.mu.Lock()
	n.forget(now)
	if w := n.seen[nonce]; w != nil {
		defer n.mu.Unlock()
		switch {
		case now.Sub(w.issued) > n.ttl:
			return nonceStale
		case !w.accept(nc):
			return nonceReplay
		}
		return nonceFresh
	}
	n.mu.Unlock()
	return n.useNew(nonce, nc)
}

// useNew checks a nonce not in use yet, its MAC first, and records it.
func (n *nonces) useNew(nonce string, nc int) nonceState {
	buf, err := base64.RawURLEncoding.DecodeString(nonce)
	if err != nil || len(buf) != nonceLen || !hmac.Equal(n.mac(buf[:nonceBody]), buf[nonceBody:]) {
		return nonceUnknown
	}
	issued := time.Unix(int64(binary.BigEndian.Uint64(buf)), int64(binary.BigEndian.Uint32(buf[8:])))
	seq := binary.BigEndian.Uint64(buf[12:])
	now := n.now()
	if now.Sub(issued) > n.ttl {
		return nonceStale
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.forget(now)
	w := n.seen[nonce]
	if w == nil {
		if seq <= n.floor {
			return nonceStale
		}
		w = &replayWindow{issued: issued}
		n.seen[nonce] = w
		n.order = append(n.order, usedNonce{nonce: nonce, seq: seq, expires: issued.Add(n.ttl)})
	}
	if !w.accept(nc) {
		return nonceReplay
	}
	return nonceFresh
}

// forget drops expired nonces, and the oldest ones beyond the limit, in
// constant time per nonce.
func (n *nonces) forget(now time.Time) {
	for n.head < len(n.order) {
		u := n.order[n.head]
		full := len(n.order)-n.head >= n.limit
		if !full && !now.After(u.expires) {
			break
		}
		if full {
			n.floor = max(n.floor, u.seq)
		}
		delete(n.seen, u.nonce)
		n.order[n.head] = usedNonce{}
		n.head++
	}
	if n.head > 1024 && n.head > len(n.order)/2 {
		n.order = append(n.order[:0], n.order[n.head:]...)
		n.head = 0
	}
}
