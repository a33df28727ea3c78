package journal

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/omctl/omctl/internal/jsonlex"
	"github.com/omctl/omctl/internal/rules"
)

// secretFields are replaced by "<redacted>" wherever they appear in a
// journaled body, whatever their case: the secrets of rules.SecretFields,
// and journalOnlySecrets.
var secretFields = func() map[string]bool {
	m := map[string]bool{}
	for f := range rules.SecretFields {
		m[strings.ToLower(f)] = true
	}
	for _, f := range journalOnlySecrets {
		m[strings.ToLower(f)] = true
	}
	return m
}()

// journalOnlySecrets are fields the API shows as stored (to those who may
// read the configuration) but the journal hides, since anyone may read it
// who has the controls' key: the routing keys of the incident integration
// under both of its names, with which one could page the team
// (docs/server.md, Request journal).
var journalOnlySecrets = []string{"victorOpsRoutingKey", "incidentRoutingKey"}

// maxSecretName is at least the length of every name in secretFields,
// all ASCII (TestSecretFieldsFitTheRedactor): a key of more runes is no
// secret.
const maxSecretName = 32

// Redacted stands in for a secret's value.
const Redacted = "<redacted>"

// maxJSONDepth is how deep encoding/json lets containers nest: a body
// deeper is not JSON to the server, so the journal does not keep it.
const maxJSONDepth = 10000

// RedactBody returns the JSON body compacted, its members in the order
// received and every secret field's value replaced, or nil when the body
// is not one JSON value as encoding/json reads it. Values other than
// secrets are copied as received, not decoded and encoded again.
//
// Every journaled request goes through it, so it reads the body once,
// checking, compacting and redacting together: it passes over the bytes
// of strings eight at a time, and copies whole the runs between the
// spaces it drops and the secrets it replaces. json.Compact takes a call
// per byte, and a decoder's tokens took an allocation each: 11% of the
// server's CPU under make bench-soak (BenchmarkRedactBody).
func RedactBody(data []byte) json.RawMessage {
	r := redactor{in: data, secret: -1}
	defer r.release()
	if !r.walk() {
		return nil
	}
	if r.scratch == nil {
		return bytes.Clone(data) // already compact, and no secret
	}
	r.flush()
	return bytes.Clone(r.out)
}

// redactor is one walk through a body.
type redactor struct {
	in   []byte
	at   int // the next byte of in to read
	from int // the first byte of in not yet copied to out
	// out is the body as written so far, on a scratch buffer taken only
	// once the body differs from in.
	out     []byte
	scratch *[]byte
	// depth is how many containers the walk is in; bit i of inObject
	// says whether the container at depth i+1 is an object.
	depth    int
	inObject [maxJSONDepth/64 + 1]uint64
	// secret is where in out the value of the secret field being read
	// starts, or -1; secretDepth is depth at its key. Secrets within it
	// need no marking of their own: the whole value is dropped.
	secret      int
	secretDepth int
}

// redactScratch holds the buffers RedactBody writes in before it copies
// the result to one of its own size. A body is at most api.MaxBodyBytes, so
// is each buffer, give or take what its redactions added.
var redactScratch = sync.Pool{New: func() any { return new([]byte) }}

// flush copies what was read and not yet copied.
func (r *redactor) flush() {
	if r.scratch == nil {
		r.scratch = redactScratch.Get().(*[]byte)
		if cap(*r.scratch) < len(r.in) {
			*r.scratch = make([]byte, 0, len(r.in))
		}
		r.out = (*r.scratch)[:0]
	}
	r.out = append(r.out, r.in[r.from:r.at]...)
	r.from = r.at
}

func (r *redactor) release() {
	if r.scratch != nil {
		*r.scratch = r.out[:0]
		redactScratch.Put(r.scratch)
	}
}

// walk reads one value and nothing else but space.
func (r *redactor) walk() bool {
	for {
		whole, ok := r.value()
		if !ok {
			return false
		}
		if !whole {
			continue // a container's first value follows
		}
		more, ok := r.afterValue()
		if !ok || !more {
			return ok
		}
	}
}

// value reads a value, or only the start of a container and, in an
// object, its first key: whole says which.
func (r *redactor) value() (whole, ok bool) {
	r.skipSpace()
	if r.at == len(r.in) {
		return false, false
	}
	switch c := r.in[r.at]; c {
	case '{', '[':
		return r.openContainer(c)
	case '"':
		start := r.at
		if !r.string() {
			return true, false
		}
		if r.secret < 0 {
			r.hideURLPasswords(start)
		}
		return true, true
	case 't':
		return true, r.literal("true")
	case 'f':
		return true, r.literal("false")
	case 'n':
		return true, r.literal("null")
	}
	return true, r.number()
}

func (r *redactor) openContainer(c byte) (whole, ok bool) {
	if r.depth == maxJSONDepth {
		return false, false
	}
	word, bit := r.depth/64, uint64(1)<<(r.depth%64)
	if c == '{' {
		r.inObject[word] |= bit
	} else {
		r.inObject[word] &^= bit
	}
	r.depth++
	r.at++
	r.skipSpace()
	closer := r.closer()
	if r.at < len(r.in) && r.in[r.at] == closer {
		r.depth--
		r.at++
		return true, true
	}
	if closer == '}' {
		return false, r.member()
	}
	return false, true
}

// closer is the bracket that closes the container the walk is in.
func (r *redactor) closer() byte {
	if r.inObject[(r.depth-1)/64]&(1<<((r.depth-1)%64)) != 0 {
		return '}'
	}
	return ']'
}

// afterValue reads what follows a value: the brackets it closes, then a
// comma and, in an object, the next key. more is false at the end of the
// body.
func (r *redactor) afterValue() (more, ok bool) {
	for {
		if r.secret >= 0 && r.depth == r.secretDepth {
			r.out = append(r.out[:r.secret], `"`+Redacted+`"`...)
			r.from, r.secret = r.at, -1
		}
		r.skipSpace()
		if r.depth == 0 {
			return false, r.at == len(r.in)
		}
		if r.at == len(r.in) {
			return false, false
		}
		switch c, closer := r.in[r.at], r.closer(); c {
		case closer:
			r.depth--
			r.at++
		case ',':
			r.at++
			if closer == '}' {
				return true, r.member()
			}
			return true, true
		default:
			return false, false
		}
	}
}

// member reads an object's key and colon, and marks where the value of a
// secret field starts.
func (r *redactor) member() bool {
	r.skipSpace()
	key := r.at
	if key == len(r.in) || r.in[key] != '"' || !r.string() {
		return false
	}
	secret := r.secret < 0 && isSecretKey(r.in[key:r.at])
	r.skipSpace()
	if r.at == len(r.in) || r.in[r.at] != ':' {
		return false
	}
	r.at++
	if secret {
		r.flush()
		r.secret, r.secretDepth = len(r.out), r.depth
	}
	return true
}

// hideURLPasswords rewrites the string that starts at in[start] and ends
// before r.at when it holds the password of a URL (hideURLPasswords):
// only a string holding an @, written as it is or escaped (\u0040), is
// decoded to be looked at.
func (r *redactor) hideURLPasswords(start int) {
	quoted := r.in[start:r.at]
	inner := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(inner, '@') < 0 && !escapedAt(inner) {
		return
	}
	escaped := bytes.IndexByte(inner, '\\') >= 0
	var s string
	if !escaped {
		s = string(inner)
	} else if json.Unmarshal(quoted, &s) != nil {
		return
	}
	hidden, ok := hideURLPasswords(s)
	if !ok {
		return
	}
	end := r.at
	r.at = start
	r.flush()
	r.out = jsonlex.AppendString(r.out, hidden)
	r.at, r.from = end, end
}

// escapedAt reports whether a string's bytes, as quoted, hold an @
// written as an escape, \u0040 (its hex digits in either case).
func escapedAt(inner []byte) bool {
	for i := bytes.IndexByte(inner, '\\'); i >= 0 && i+6 <= len(inner); {
		if inner[i+1] == 'u' && bytes.EqualFold(inner[i+2:i+6], []byte("0040")) {
			return true
		}
		// An escaped backslash is skipped whole: its second \ starts no escape.
		step := 1
		if inner[i+1] == '\\' {
			step = 2
		}
		next := bytes.IndexByte(inner[i+step:], '\\')
		if next < 0 {
			return false
		}
		i += step + next
	}
	return false
}

// hideURLPasswords replaces by <redacted> the password of each URL in s
// that carries one (scheme://user:password@host), and that of a value
// that starts as user:password@host (a connection string without its
// scheme), and reports whether it found one. A store's uri holds the
// password of the database it names (docs/server.md, Request journal).
func hideURLPasswords(s string) (string, bool) {
	var b strings.Builder
	from, found := 0, false
	// hide hides the password of the authority that starts at s[authority]
	// and returns where the authority ends.
	hide := func(authority int) int {
		end := authority + strings.IndexAny(s[authority:]+"/", "/?#\" \t\r\n")
		at := strings.LastIndexByte(s[authority:end], '@')
		if at < 0 {
			return end
		}
		colon := strings.IndexByte(s[authority:authority+at], ':')
		if colon < 0 {
			return end
		}
		b.WriteString(s[from : authority+colon+1])
		b.WriteString(Redacted)
		from, found = authority+at, true
		return end
	}
	i := 0
	if at := strings.IndexByte(s, '@'); at >= 0 && !strings.Contains(s[:at], "://") {
		i = hide(0)
	}
	for {
		j := strings.Index(s[i:], "://")
		if j < 0 {
			break
		}
		i = hide(i + j + 3)
	}
	if !found {
		return s, false
	}
	b.WriteString(s[from:])
	return b.String(), true
}

// skipSpace drops the space at r.at, if any.
func (r *redactor) skipSpace() {
	if r.at == len(r.in) || !isJSONSpace(r.in[r.at]) {
		return
	}
	r.flush()
	for r.at < len(r.in) && isJSONSpace(r.in[r.at]) {
		r.at++
	}
	r.from = r.at
}

func isJSONSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// plainInString are the bytes a string holds as they are: not its
// closing quote, not an escape, not a control character. UTF-8 is not
// checked, as encoding/json does not.
var plainInString = func() (plain [256]bool) {
	for c := 0x20; c < 256; c++ {
		plain[c] = c != '"' && c != '\\'
	}
	return plain
}()

// string reads the string at r.at, quotes included, checking its escapes.
func (r *redactor) string() bool {
	in := r.in
	for i := r.at + 1; i < len(in); {
		i = plainEnd(in, i)
		switch {
		case i == len(in) || in[i] < 0x20:
			return false
		case in[i] == '"':
			r.at = i + 1
			return true
		}
		n := jsonlex.EscapeLen(in[i:])
		if n == 0 {
			return false
		}
		i += n
	}
	return false
}

// plainEnd is where the run of plain bytes of a string from in[i] ends.
// It tests eight bytes at a time while none of them is a quote, a
// backslash or a control character: x-0x01… borrows into the top bit of
// a byte that is zero, and (x^c)-0x01… into that of a byte equal to c.
func plainEnd(in []byte, i int) int {
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(in); i += 8 {
		x := binary.LittleEndian.Uint64(in[i:])
		quote, backslash := x^(ones*'"'), x^(ones*'\\')
		if ((quote-ones)&^quote|(backslash-ones)&^backslash|(x-ones*0x20)&^x)&tops != 0 {
			break
		}
	}
	for i < len(in) && plainInString[in[i]] {
		i++
	}
	return i
}

func (r *redactor) literal(word string) bool {
	if !bytes.HasPrefix(r.in[r.at:], []byte(word)) {
		return false
	}
	r.at += len(word)
	return true
}

// number reads a number as JSON writes them.
func (r *redactor) number() bool {
	end := jsonlex.NumberEnd(r.in, r.at)
	if end < 0 {
		return false
	}
	r.at = end
	return true
}

// isSecretKey says whether an object key, as quoted in the body, names a
// secret field, as a decoder and strings.ToLower would see it: escapes
// are read, and runes beyond ASCII are folded as ToLower folds them (the
// Kelvin sign to a k); one that stays beyond ASCII is in no secret's
// name. No allocation, and no more than maxSecretName runes looked at:
// every key of a body goes through here.
func isSecretKey(quoted []byte) bool {
	key := quoted[1 : len(quoted)-1]
	var lower [maxSecretName]byte
	n := 0
	for i := 0; i < len(key); n++ {
		if n == len(lower) {
			return false // more runes than any secret's name
		}
		r, size := rune(key[i]), 1
		switch {
		case r == '\\':
			r, size = unescape(key[i:])
		case r >= utf8.RuneSelf:
			r, size = utf8.DecodeRune(key[i:])
		}
		i += size
		if r >= utf8.RuneSelf {
			if r = unicode.ToLower(r); r >= utf8.RuneSelf {
				return false
			}
		} else if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		lower[n] = byte(r)
	}
	return secretFields[string(lower[:n])]
}

// unescape is the rune a valid escape at the start of e stands for, and
// its length; half of a surrogate pair stands for a rune beyond ASCII
// here, which is all isSecretKey needs to know of it.
func unescape(e []byte) (rune, int) {
	n := jsonlex.EscapeLen(e)
	if n == 2 {
		switch e[1] {
		case 'b':
			return '\b', 2
		case 'f':
			return '\f', 2
		case 'n':
			return '\n', 2
		case 'r':
			return '\r', 2
		case 't':
			return '\t', 2
		}
		return rune(e[1]), 2 // a quote, a backslash, a slash
	}
	var r rune
	for _, h := range e[2:n] {
		r <<= 4
		switch {
		case h <= '9':
			r |= rune(h - '0')
		case h >= 'a':
			r |= rune(h - 'a' + 10)
		default:
			r |= rune(h - 'A' + 10)
		}
	}
	if utf16.IsSurrogate(r) {
		return utf8.RuneError, n
	}
	return r, n
}
