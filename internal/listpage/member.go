package listpage

import (
	"bytes"
	"encoding/json"
)

// Member finds the top-level member key of obj, an item of a page (valid
// JSON, as Parse checked), without decoding it: it returns the member's
// value bytes and where the member begins and ends (its key to its value,
// with the comma before or after it), or nil when obj has no such member
// or is not an object. Keys written with escapes are not recognised.
func Member(obj []byte, key string) (value []byte, start, end int) {
	if value, start, end, ok := lastMember(obj, key); ok {
		return value, start, end
	}
	return walkMembers(obj, key)
}

// lastMember finds key when it is obj's last member, its name written
// `"key":` and first so written: from there, without walking the members
// before it. The API writes links last, and fixtures capture cuts them
// out of every alert it reads.
func lastMember(obj []byte, key string) (value []byte, start, end int, ok bool) {
	var buf [64]byte
	if len(key)+3 > len(buf) {
		return nil, 0, 0, false
	}
	name := append(append(append(buf[:0], '"'), key...), '"', ':')
	i := bytes.Index(obj, name)
	if i <= 0 {
		return nil, 0, 0, false
	}
	// A member's name comes after a comma or a brace; the end of another
	// string (a quote escaped, or a name ending in key) does not.
	before := i - 1
	for before > 0 && isSpace(obj[before]) {
		before--
	}
	if obj[before] != ',' && obj[before] != '{' {
		return nil, 0, 0, false
	}
	v := skipSpace(obj, i+len(name))
	if v >= len(obj) {
		return nil, 0, 0, false
	}
	vEnd := skipValue(obj, v)
	// Only the brace closing obj may follow: the member is obj's own (not
	// of an object inside it) and its last.
	next := skipSpace(obj, vEnd)
	if next != len(obj)-1 || obj[next] != '}' {
		return nil, 0, 0, false
	}
	if obj[before] == '{' {
		return obj[v:vEnd], i, next, true
	}
	prevEnd := before // the comma before, and the spaces before it
	for prevEnd > 0 && isSpace(obj[prevEnd-1]) {
		prevEnd--
	}
	return obj[v:vEnd], prevEnd, next, true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// walkMembers finds key walking obj's members from the first.
func walkMembers(obj []byte, key string) (value []byte, start, end int) {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil, 0, 0
	}
	prevEnd := i + 1 // just after '{' or after the previous value
	for i = skipSpace(obj, i+1); i < len(obj) && obj[i] != '}'; {
		keyStart := i
		keyEnd := skipString(obj, i)
		v := skipSpace(obj, skipSpace(obj, keyEnd)+1)
		vEnd := skipValue(obj, v)
		next := skipSpace(obj, vEnd)
		if string(obj[keyStart+1:keyEnd-1]) == key {
			if obj[next] == ',' {
				return obj[v:vEnd], keyStart, skipSpace(obj, next+1) // the comma after
			}
			if prevEnd > skipSpace(obj, 0)+1 {
				return obj[v:vEnd], prevEnd, next // the comma before
			}
			return obj[v:vEnd], keyStart, next
		}
		prevEnd = vEnd
		if obj[next] == ',' {
			next = skipSpace(obj, next+1)
		}
		i = next
	}
	return nil, 0, 0
}

// WithoutMember is obj without its top-level member key (a copy), or obj
// itself when it has none.
func WithoutMember(obj []byte, key string) []byte {
	v, start, end := Member(obj, key)
	if v == nil {
		return obj
	}
	out := make([]byte, 0, len(obj)-(end-start))
	out = append(out, obj[:start]...)
	return append(out, obj[end:]...)
}

// StringMember is the string value of obj's top-level member key, "" when
// it has none or it is not a string.
func StringMember(obj []byte, key string) string {
	v, _, _ := Member(obj, key)
	if len(v) == 0 || v[0] != '"' {
		return ""
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return ""
	}
	return s
}
