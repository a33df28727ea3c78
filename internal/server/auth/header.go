package auth

import (
	"strconv"
	"strings"
)

// digestCredentials are the parameters of a Digest Authorization header
// (RFC 7616) that the server checks.
type digestCredentials struct {
	Username, Realm, Nonce, URI, Response, Algorithm, Cnonce, QOP string
	Nc                                                            int
}

// parseDigest reads an Authorization header of the Digest scheme. It is
// on the path of every request, so it reads the header in one pass
// without allocating more than the values it keeps.
func parseDigest(header string) (*digestCredentials, bool) {
	const scheme = "digest "
	if len(header) < len(scheme) || !strings.EqualFold(header[:len(scheme)], scheme) {
		return nil, false
	}
	c := &digestCredentials{}
	s := header[len(scheme):]
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return c, true
		}
		eq := strings.IndexByte(s, '=')
		if eq <= 0 {
			return nil, false
		}
		key := strings.TrimRight(s[:eq], " \t")
		s = strings.TrimLeft(s[eq+1:], " \t")
		var val string
		if strings.HasPrefix(s, `"`) {
			end, unquoted, ok := quotedString(s)
			if !ok {
				return nil, false
			}
			val, s = unquoted, s[end:]
		} else {
			end := strings.IndexByte(s, ',')
			if end < 0 {
				end = len(s)
			}
			val, s = strings.TrimRight(s[:end], " \t"), s[end:]
		}
		switch strings.ToLower(key) {
		case "username":
			c.Username = val
		case "realm":
			c.Realm = val
		case "nonce":
			c.Nonce = val
		case "uri":
			c.URI = val
		case "response":
			c.Response = val
		case "algorithm":
			c.Algorithm = val
		case "cnonce":
			c.Cnonce = val
		case "qop":
			c.QOP = val
		case "nc":
			n, err := strconv.ParseUint(val, 16, 31)
			if err != nil {
				return nil, false
			}
			c.Nc = int(n)
		}
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return c, true
		}
		if s[0] != ',' {
			return nil, false
		}
		s = s[1:]
	}
}

// quotedString reads the quoted string at the start of s: where it ends,
// and its value with escapes undone.
func quotedString(s string) (int, string, bool) {
	var b []byte
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '"':
			if b == nil {
				return i + 1, s[1:i], true
			}
			return i + 1, string(b), true
		case '\\':
			if b == nil {
				b = append([]byte{}, s[1:i]...)
			}
			i++
			if i == len(s) {
				return 0, "", false
			}
			b = append(b, s[i])
		default:
			if b != nil {
				b = append(b, s[i])
			}
		}
	}
	return 0, "", false
}
