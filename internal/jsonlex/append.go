package jsonlex

import (
	"unicode/utf8"
)

// AppendString appends s as a JSON string, as rules.EncodeJSON writes it (HTML characters as they are).
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	if plainString(s) {
		// Self links nearly always are: copied whole.
		dst = append(dst, '"')
		dst = append(dst, s...)
		return append(dst, '"')
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"' || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r == '\n':
			dst = append(dst, '\\', 'n')
		case r == '\r':
			dst = append(dst, '\\', 'r')
		case r == '\t':
			dst = append(dst, '\\', 't')
		case r == '\b':
			dst = append(dst, '\\', 'b')
		case r == '\f':
			dst = append(dst, '\\', 'f')
		case r < 0x20 || r == 0x2028 || r == 0x2029 || r == utf8.RuneError && size == 1:
			if r == utf8.RuneError {
				r = 0xfffd
			}
			dst = append(dst, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

// plainString reports whether s is written in JSON as it is: printable
// ASCII without quotes or backslashes.
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
