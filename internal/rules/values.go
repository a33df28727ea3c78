package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"time"
)

// NormalizeNumbers turns whole JSON numbers into integers, so that 3.0
// is written back as 3: real clients fail on floats where they expect ints.
func NormalizeNumbers(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, err := t.Float64()
		if err != nil {
			return t
		}
		if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return int64(f)
		}
		return f
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<53 {
			return int64(t)
		}
	case map[string]any:
		for k, e := range t {
			t[k] = NormalizeNumbers(e)
		}
	case []any:
		for i, e := range t {
			t[i] = NormalizeNumbers(e)
		}
	}
	return v
}

// SameValue reports whether two JSON values are equal once numbers are
// normalized. It changes neither: one may be a stored record's.
func SameValue(a, b any) bool {
	ja, _ := json.Marshal(NormalizeNumbers(CopyJSON(a)))
	jb, _ := json.Marshal(NormalizeNumbers(CopyJSON(b)))
	return bytes.Equal(ja, jb)
}

// CopyJSON copies a JSON value's objects and arrays, so the copy can be
// changed without changing v.
func CopyJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = CopyJSON(e)
		}
		return m
	case []any:
		a := make([]any, len(t))
		for i, e := range t {
			a[i] = CopyJSON(e)
		}
		return a
	}
	return v
}

// SortedKeys lists a map's keys in order, so checks report the same
// attribute first every time.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ParseTimestamp reads ISO 8601 date-times with any offset, and dates.
func ParseTimestamp(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05.999Z0700", "2006-01-02T15:04Z07:00", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("not an ISO 8601 timestamp: %q", s)
}

// timeLayout is how the API writes a timestamp.
const timeLayout = "2006-01-02T15:04:05Z"

// FormatTime writes a timestamp as the API does: UTC, whole seconds, Z.
// It writes the digits itself: a year's clock move formats the time of
// millions of notifications under the data lock, and time.Format, which
// reads its layout each time, was a third of that work
// (docs/performance.md).
func FormatTime(t time.Time) string {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 1 || year > 9999 {
		return t.Truncate(time.Second).Format(timeLayout)
	}
	hour, minute, second := t.Clock()
	var b [len(timeLayout)]byte
	digits(b[0:4], year)
	b[4] = '-'
	digits(b[5:7], int(month))
	b[7] = '-'
	digits(b[8:10], day)
	b[10] = 'T'
	digits(b[11:13], hour)
	b[13] = ':'
	digits(b[14:16], minute)
	b[16] = ':'
	digits(b[17:19], second)
	b[19] = 'Z'
	return string(b[:])
}

// digits writes n's last len(b) decimal digits into b, zero-padded.
func digits(b []byte, n int) {
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = byte('0' + n%10)
		n /= 10
	}
}

// EncodeJSON writes v as the API's answers do: compact, with <, > and &
// as they are.
func EncodeJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("encoding %T: %v", v, err))
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func StringList(v any) []string {
	a, _ := v.([]any)
	out := make([]string, 0, len(a))
	for _, e := range a {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
