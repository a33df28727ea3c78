package listpage

import "encoding/json"

// Member finds the top-level member key of obj, an item of a page (valid
// JSON, as Parse checked), without decoding it: it returns the member's
// value bytes and where the member begins and ends (its key to its value,
// with the comma before or after it), or nil when obj has no such member
// or is not an object. Keys written with escapes are not recognised.
func Member(obj []byte, key string) (value []byte, start, end int) {
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
