package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
)

// doc is a resource as stored: JSON-shaped, so fields the API does not
// name (from fixtures) survive and are returned.
type doc = map[string]any

type kind int

const (
	kString kind = iota
	kBool
	kNumber
	kInt
	kTime
	kObject
	kArray
	kAny
)

func (k kind) String() string {
	return [...]string{"string", "boolean", "number", "integer", "ISO 8601 timestamp", "object", "array", "value"}[k]
}

// withArticle names the kind as a sentence does: "an integer".
func (k kind) withArticle() string {
	if s := k.String(); strings.IndexByte("aeiouAEIOU", s[0]) >= 0 {
		return "an " + s
	}
	return "a " + k.String()
}

// field describes one attribute of a request body.
type field struct {
	kind     kind
	enum     []string
	required bool
	// readOnly attributes may be sent only with the value the resource
	// already has (docs/api.md, Request bodies).
	readOnly bool
	// ignored attributes are accepted and dropped (links, created, updated).
	ignored  bool
	positive bool
	nullable bool
	// bounded numbers lie within [min, max].
	bounded  bool
	min, max float64
	obj      schema
	elem     *field
}

type schema map[string]*field

func str(enum ...string) *field { return &field{kind: kString, enum: enum} }
func boolean() *field           { return &field{kind: kBool} }
func number() *field            { return &field{kind: kNumber} }
func integer() *field           { return &field{kind: kInt} }
func timestamp() *field         { return &field{kind: kTime} }
func object(s schema) *field    { return &field{kind: kObject, obj: s} }
func array(elem *field) *field  { return &field{kind: kArray, elem: elem} }
func ignored() *field           { return &field{kind: kAny, ignored: true} }
func readOnly() *field          { return &field{kind: kAny, readOnly: true} }

func (f *field) req() *field    { f.required = true; return f }
func (f *field) pos() *field    { f.positive = true; return f }
func (f *field) orNull() *field { f.nullable = true; return f }
func (f *field) within(lo, hi float64) *field {
	f.bounded, f.min, f.max = true, lo, hi
	return f
}

// check validates m against s, in the order a user fixes things: unknown
// attributes, then types and values, then what is missing. It normalizes
// m in place: timestamps to UTC with Z, whole numbers to integers, and
// ignored attributes removed. current holds the resource's values that
// read-only attributes may repeat.
func (s schema) check(m doc, prefix string, current doc) *apiError {
	return s.checkMode(m, prefix, current, false)
}

// checkFixture validates a fixture resource: like a request body, except
// that attributes the schema does not know, and read-only ones, are kept.
func (s schema) checkFixture(m doc, prefix string) *apiError {
	return s.checkMode(m, prefix, nil, true)
}

func (s schema) checkMode(m doc, prefix string, current doc, lenient bool) *apiError {
	if !lenient {
		for _, k := range sortedKeys(m) {
			if _, ok := s[k]; !ok {
				return errBadRequest("INVALID_ATTRIBUTE", fmt.Sprintf("Invalid attribute %s specified.", prefix+k), prefix+k)
			}
		}
	}
	for _, k := range sortedKeys(m) {
		f, known := s[k]
		name := prefix + k
		if !known {
			m[k] = normalizeNumbers(m[k])
			continue
		}
		if lenient && (f.ignored || f.readOnly) {
			m[k] = normalizeNumbers(m[k])
			continue
		}
		if f.ignored {
			delete(m, k)
			continue
		}
		if f.readOnly {
			if current == nil || !sameValue(current[k], m[k]) {
				return errBadRequest("ATTRIBUTE_READ_ONLY", fmt.Sprintf("Attribute %s is read-only and cannot be changed.", name), name)
			}
			continue
		}
		v, err := f.value(name, m[k], lenient)
		if err != nil {
			return err
		}
		m[k] = v
	}
	for _, k := range sortedKeys(s) {
		if s[k].required {
			if v, ok := m[k]; !ok || v == nil {
				return errMissing(prefix + k)
			}
		}
	}
	return nil
}

func errMissing(name string) *apiError {
	return errBadRequest("MISSING_ATTRIBUTE", fmt.Sprintf("The required attribute %s was not specified.", name), name)
}

func errWrongType(name string, want kind) *apiError {
	return errBadRequest("INVALID_JSON_ATTRIBUTE",
		fmt.Sprintf("Received JSON for the %s attribute does not match expected format: want %s.", name, want.withArticle()), name)
}

// value checks one attribute and returns it normalized.
func (f *field) value(name string, v any, lenient bool) (any, *apiError) {
	if v == nil {
		switch {
		case f.nullable || f.kind == kAny:
			return nil, nil
		case f.required:
			return nil, errMissing(name)
		}
		return nil, errBadRequest("INVALID_JSON_ATTRIBUTE",
			fmt.Sprintf("Received JSON for the %s attribute does not match expected format: want %s, not null.", name, f.kind.withArticle()), name)
	}
	switch f.kind {
	case kAny:
		return normalizeNumbers(v), nil
	case kString:
		s, ok := v.(string)
		if !ok {
			return nil, errWrongType(name, kString)
		}
		if len(f.enum) > 0 && !contains(f.enum, s) {
			return nil, errBadRequest("INVALID_ENUM_VALUE",
				fmt.Sprintf("An invalid enumeration value %s was specified for %s; allowed values are %s.", s, name, strings.Join(f.enum, ", ")), s, name)
		}
		return s, nil
	case kBool:
		if _, ok := v.(bool); !ok {
			return nil, errWrongType(name, kBool)
		}
		return v, nil
	case kNumber, kInt:
		n, ok := v.(json.Number)
		if !ok {
			return nil, errWrongType(name, f.kind)
		}
		fl, err := n.Float64()
		if err != nil {
			return nil, errWrongType(name, f.kind)
		}
		if f.kind == kInt && (fl != math.Trunc(fl) || math.Abs(fl) > 1<<53) {
			return nil, errWrongType(name, kInt)
		}
		if f.positive && fl <= 0 {
			return nil, errBadRequest("ATTRIBUTE_NEGATIVE_OR_ZERO", fmt.Sprintf("%s must be a positive number, not %s.", name, n), name, n.String())
		}
		if f.bounded && (fl < f.min || fl > f.max) {
			return nil, errBadRequest("INVALID_JSON_ATTRIBUTE",
				fmt.Sprintf("%s must be from %g to %g, not %s.", name, f.min, f.max, n), name, n.String())
		}
		return normalizeNumbers(n), nil
	case kTime:
		s, ok := v.(string)
		if !ok {
			return nil, errWrongType(name, kTime)
		}
		t, err := parseTimestamp(s)
		if err != nil {
			return nil, errBadRequest("INVALID_JSON_ATTRIBUTE",
				fmt.Sprintf("Received JSON for the %s attribute does not match expected format: %q is not an ISO 8601 timestamp.", name, s), name)
		}
		return formatTime(t), nil
	case kObject:
		m, ok := v.(map[string]any)
		if !ok {
			return nil, errWrongType(name, kObject)
		}
		if f.obj != nil {
			if err := f.obj.checkMode(m, name+".", nil, lenient); err != nil {
				return nil, err
			}
		}
		return m, nil
	case kArray:
		a, ok := v.([]any)
		if !ok {
			return nil, errWrongType(name, kArray)
		}
		for i, e := range a {
			ev, err := f.elem.value(fmt.Sprintf("%s[%d]", name, i), e, lenient)
			if err != nil {
				return nil, err
			}
			a[i] = ev
		}
		return a, nil
	}
	return v, nil
}

// normalizeNumbers turns whole JSON numbers into integers, so that 3.0
// is written back as 3: real clients fail on floats where they expect ints.
func normalizeNumbers(v any) any {
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
			t[k] = normalizeNumbers(e)
		}
	case []any:
		for i, e := range t {
			t[i] = normalizeNumbers(e)
		}
	}
	return v
}

func sameValue(a, b any) bool {
	ja, _ := json.Marshal(normalizeNumbers(a))
	jb, _ := json.Marshal(normalizeNumbers(b))
	return bytes.Equal(ja, jb)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// parseTimestamp reads ISO 8601 date-times with any offset, and dates.
func parseTimestamp(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05.999Z0700", "2006-01-02T15:04Z07:00", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("not an ISO 8601 timestamp: %q", s)
}

// formatTime writes a timestamp as the API does: UTC, whole seconds, Z.
func formatTime(t time.Time) string {
	return t.UTC().Truncate(time.Second).Format("2006-01-02T15:04:05Z")
}
