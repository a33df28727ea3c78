package server

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/store"
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
// 128 counts (concurrent requests may overtake each other).
type replayWindow struct {
	highest int
	bits    [2]uint64
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

// use checks a nonce and records the use of count nc with it.
func (n *nonces) use(nonce string, nc int) nonceState {
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
		w = &replayWindow{}
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

// challenge writes the 401 of docs/api.md (Authentication), exactly as real clients parse it.
func (s *Server) challenge(w http.ResponseWriter, stale bool) {
	w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Digest realm="%s", domain="", nonce="%s", algorithm=MD5, qop="auth", stale=%t`,
		realm, s.nonces.issue(), stale))
	w.Header().Set("Content-Type", "application/json;charset=ISO-8859-1")
	w.WriteHeader(http.StatusUnauthorized)
	w.Write([]byte(`{"error":401,"reason":"Unauthorized","detail":"You are not authorized for this resource."}` + "\n"))
}

// authenticate checks the digest credentials of r. It answers the
// challenge itself and returns nil when they are missing or wrong.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) *store.Principal {
	header := r.Header.Get("Authorization")
	cred, ok := parseDigest(header)
	if !ok || cred.Nonce == "" || cred.Response == "" {
		s.challenge(w, false)
		return nil
	}
	if alg := strings.ToUpper(cred.Algorithm); alg != "" && alg != "MD5" {
		s.challenge(w, false)
		return nil
	}
	var p *store.Principal
	var secret string
	s.store.View(func(st *store.State) {
		if p = st.Principal(cred.Username); p != nil {
			secret = p.Secret
		}
	})
	if p == nil || cred.Realm != realm || !s.uriMatches(cred.URI, r) {
		s.challenge(w, false)
		return nil
	}
	if !validResponse(cred, r.Method, secret) {
		s.challenge(w, false)
		return nil
	}
	switch s.nonces.use(cred.Nonce, cred.Nc) {
	case nonceFresh:
		return p
	case nonceStale:
		s.challenge(w, true)
	default:
		s.challenge(w, false)
	}
	return nil
}

// uriMatches accepts the request URI the client signed: the path with or
// without the query (docs/api.md, Authentication).
func (s *Server) uriMatches(uri string, r *http.Request) bool {
	return uri == r.URL.RequestURI() || uri == r.URL.EscapedPath() || uri == r.URL.Path
}

func validResponse(c *digestCredentials, method, secret string) bool {
	// The challenge offers qop="auth" only; answers without it are refused,
	// since only qop carries the nonce count that stops replays.
	if c.QOP != "auth" {
		return false
	}
	var ha1, ha2, want [32]byte
	md5Hex(ha1[:], c.Username, realm, secret)
	md5Hex(ha2[:], method, c.URI)
	var nc [8]byte
	hex.Encode(nc[:], []byte{byte(c.Nc >> 24), byte(c.Nc >> 16), byte(c.Nc >> 8), byte(c.Nc)})
	md5Hex(want[:], string(ha1[:]), c.Nonce, string(nc[:]), c.Cnonce, c.QOP, string(ha2[:]))
	got := []byte(c.Response)
	if len(got) != len(want) {
		return false
	}
	for i, b := range got {
		if 'A' <= b && b <= 'F' {
			got[i] = b + 'a' - 'A'
		}
	}
	return subtle.ConstantTimeCompare(want[:], got) == 1
}

// md5Hex writes into dst the hex MD5 of parts joined by colons, as RFC
// 2617 forms HA1, HA2 and the response, without building the joined
// string: every request computes three.
func md5Hex(dst []byte, parts ...string) {
	h := md5.New()
	for i, p := range parts {
		if i > 0 {
			h.Write([]byte{':'})
		}
		io.WriteString(h, p)
	}
	var sum [md5.Size]byte
	hex.Encode(dst, h.Sum(sum[:0]))
}

// access is what an endpoint needs of its caller (docs/api.md, Roles).
type access int

const (
	readMonitoring access = iota
	writeMonitoring
	readBackup
	writeBackup
	readAdminBackup
	writeAdminBackup
	readGlobalAlerts
	writeGlobalAlerts
	createAPIKey
	manageAccessList
)

var globalWriters = map[access][]string{
	writeMonitoring:   {"GLOBAL_OWNER", "GLOBAL_MONITORING_ADMIN"},
	writeGlobalAlerts: {"GLOBAL_OWNER", "GLOBAL_MONITORING_ADMIN"},
	writeBackup:       {"GLOBAL_OWNER", "GLOBAL_BACKUP_ADMIN"},
	writeAdminBackup:  {"GLOBAL_OWNER", "GLOBAL_BACKUP_ADMIN"},
	createAPIKey:      {"GLOBAL_OWNER"},
	manageAccessList:  {"GLOBAL_OWNER"},
}

var projectWriters = map[access][]string{
	writeMonitoring: {"GROUP_OWNER", "GROUP_MONITORING_ADMIN"},
	writeBackup:     {"GROUP_OWNER", "GROUP_BACKUP_ADMIN"},
	createAPIKey:    {"GROUP_OWNER"},
}

// authorize checks the caller may do need in project (or org), giving
// 401 NOT_IN_GROUP to a caller with no role there and 401
// USER_UNAUTHORIZED to one whose roles are not enough.
func authorize(p *store.Principal, need access, project, org string) *apiError {
	hasGlobal := false
	for _, r := range p.Roles {
		if r.Org == "" && r.Group == "" && api.OneOf(r.Name, api.GlobalRoles) {
			hasGlobal = true
			writers, isWrite := globalWriters[need]
			if !isWrite || slices.Contains(writers, r.Name) {
				return nil
			}
		}
	}
	if need == manageAccessList {
		for _, r := range p.Roles {
			if r.Org == org && r.Name == "ORG_OWNER" {
				return nil
			}
		}
		return unauthorized()
	}
	member := false
	for _, r := range p.Roles {
		if project == "" || r.Group != project {
			continue
		}
		member = true
		writers, isWrite := projectWriters[need]
		if !isWrite || slices.Contains(writers, r.Name) {
			return nil
		}
	}
	if project != "" && !member && !hasGlobal {
		return newError(http.StatusUnauthorized, "NOT_IN_GROUP",
			fmt.Sprintf("Current user is not a member of the group %s.", project), project)
	}
	return unauthorized()
}

func unauthorized() *apiError {
	return newError(http.StatusUnauthorized, "USER_UNAUTHORIZED", "Current user is not authorized to perform this action.")
}

// checkAccessList refuses a key used from outside its access list and
// counts the use of the entry that let it in (a change, saved as any other).
func (s *Server) checkAccessList(c *reqCtx) *apiError {
	if c.caller.Key == nil {
		return nil
	}
	host, _, err := net.SplitHostPort(c.r.RemoteAddr)
	if err != nil {
		host = c.r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return newError(http.StatusForbidden, "IP_ADDRESS_NOT_ON_ACCESS_LIST", "The caller's address cannot be read.")
	}
	addr = addr.Unmap()
	var p *store.Principal
	s.store.View(func(st *store.State) { p = st.Principal(c.caller.Name) })
	if p != nil && p.Key != nil && len(p.Key.AccessList) == 0 {
		c.caller = p // no list to check, nothing to count
		return nil
	}
	return s.withData(func(st *store.State) *apiError {
		// The data may have been reset since the caller was authenticated.
		p := st.Principal(c.caller.Name)
		if p == nil || p.Key == nil {
			return unauthorized()
		}
		c.caller = p
		k := p.Key
		if !k.Allows(addr, s.clock.Now()) {
			return newError(http.StatusForbidden, "IP_ADDRESS_NOT_ON_ACCESS_LIST",
				fmt.Sprintf("IP address %s is not allowed to access this resource.", addr), addr.String())
		}
		if len(k.AccessList) > 0 {
			st.TouchKey(k)
		}
		return nil
	})
}
