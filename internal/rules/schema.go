package rules

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Doc is a resource or body as JSON decodes it: fields the API does not
// name (from fixtures) survive and are returned.
type Doc = map[string]any

// Kind is the JSON type a field wants.
type Kind int

const (
	KindString Kind = iota
	KindBool
	KindNumber
	KindInt
	KindTime
	KindObject
	KindArray
	KindAny
)

func (k Kind) String() string {
	return [...]string{"string", "boolean", "number", "integer", "ISO 8601 timestamp", "object", "array", "value"}[k]
}

// withArticle names the kind as a sentence does: "an integer".
func (k Kind) withArticle() string {
	if s := k.String(); strings.IndexByte("aeiouAEIOU", s[0]) >= 0 {
		return "an " + s
	}
	return "a " + k.String()
}

// Field describes one attribute of a request body.
type Field struct {
	kind     Kind
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
	obj      Schema
	elem     *Field
	// refusals are values settled before anything is found missing
	// (acceptedTos false): see Refuse.
	refusals []refusal
}

type refusal struct {
	value any
	err   *Error
}

// Schema is the table of a body's attributes.
type Schema map[string]*Field

// Str is a string, one of enum when enum is given.
func Str(enum ...string) *Field { return &Field{kind: KindString, enum: enum} }

// Bool is true or false.
func Bool() *Field { return &Field{kind: KindBool} }

// Number is any JSON number.
func Number() *Field { return &Field{kind: KindNumber} }

// Integer is a whole number.
func Integer() *Field { return &Field{kind: KindInt} }

// Timestamp is an ISO 8601 date-time, stored as FormatTime writes it.
func Timestamp() *Field { return &Field{kind: KindTime} }

// Object is a JSON object; with s, its attributes are checked too.
func Object(s Schema) *Field { return &Field{kind: KindObject, obj: s} }

// Array is a JSON array of elem.
func Array(elem *Field) *Field { return &Field{kind: KindArray, elem: elem} }

// Ignored attributes are accepted and dropped (links, created, updated).
func Ignored() *Field { return &Field{kind: KindAny, ignored: true} }

// ReadOnly attributes may be sent only with the value the resource
// already has (docs/api.md, Request bodies).
func ReadOnly() *Field { return &Field{kind: KindAny, readOnly: true} }

// Kind is the JSON type the attribute wants.
func (f *Field) Kind() Kind { return f.kind }

// Elem is what an array holds.
func (f *Field) Elem() *Field { return f.elem }

// Attributes is an object's schema; nil when its attributes are free.
func (f *Field) Attributes() Schema { return f.obj }

// Managed reports whether the attribute is the server's: ignored when
// sent, or read-only.
func (f *Field) Managed() bool { return f.ignored || f.readOnly }

// Req makes the attribute required.
func (f *Field) Req() *Field { f.required = true; return f }

// Pos wants a number above zero.
func (f *Field) Pos() *Field { f.positive = true; return f }

// OrNull lets the attribute be null.
func (f *Field) OrNull() *Field { f.nullable = true; return f }

// Within wants a number from lo to hi.
func (f *Field) Within(lo, hi float64) *Field {
	f.bounded, f.min, f.max = true, lo, hi
	return f
}

// Refuse settles a request that sends value with err, checked after the
// types and values of every attribute and before any required one is
// found missing: such a value is final whatever else is wrong
// (acceptedTos false, docs/api.md, S3 stores).
func (f *Field) Refuse(value any, err *Error) *Field {
	f.refusals = append(f.refusals, refusal{value, err})
	return f
}

// Required lists the attributes that must be sent, in name order.
func (s Schema) Required() []string {
	var names []string
	for _, k := range SortedKeys(s) {
		if s[k].required {
			names = append(names, k)
		}
	}
	return names
}

// Optional is a copy of s with nothing required or refused: fixture
// resources may leave out what a request must send, and hold what the
// server would refuse to create.
func (s Schema) Optional() Schema {
	out := make(Schema, len(s))
	for k, f := range s {
		c := *f
		c.required, c.refusals = false, nil
		out[k] = &c
	}
	return out
}

// Check validates m against s, in the order a user fixes things: unknown
// attributes, then types and values, then what is missing. It normalizes
// m in place: timestamps to UTC with Z, whole numbers to integers, and
// ignored attributes removed. current holds the resource's values that
// read-only attributes may repeat.
func (s Schema) Check(m Doc, prefix string, current Doc) *Error {
	return s.checkMode(m, prefix, current, false)
}

// CheckFixture validates a fixture resource: like a request body, except
// that attributes the schema does not know, and read-only ones, are kept.
func (s Schema) CheckFixture(m Doc, prefix string) *Error {
	return s.checkMode(m, prefix, nil, true)
}

func (s Schema) checkMode(m Doc, prefix string, current Doc, lenient bool) *Error {
	refusing := false
	for _, f := range s {
		refusing = refusing || len(f.refusals) > 0
	}
	if !lenient {
		for _, k := range SortedKeys(m) {
			if _, ok := s[k]; !ok {
				return unknownAttribute(prefix + k)
			}
		}
	}
	for _, k := range SortedKeys(m) {
		f, known := s[k]
		name := prefix + k
		if !known {
			m[k] = NormalizeNumbers(m[k])
			continue
		}
		if lenient && (f.ignored || f.readOnly) {
			m[k] = NormalizeNumbers(m[k])
			continue
		}
		if f.ignored {
			delete(m, k)
			continue
		}
		if f.readOnly {
			if current == nil || !SameValue(current[k], m[k]) {
				return readOnlyChanged(name)
			}
			continue
		}
		if m[k] == nil && f.required && !f.nullable && refusing {
			// Where a value settles the request (Refuse), a null is a wrong
			// value, reported with the others before it is looked at.
			return notNull(name, f.kind)
		}
		v, err := f.value(name, m[k], lenient)
		if err != nil {
			return err
		}
		m[k] = v
	}
	for _, k := range SortedKeys(s) {
		for _, r := range s[k].refusals {
			if v, ok := m[k]; ok && v == r.value {
				return r.err
			}
		}
	}
	for _, k := range SortedKeys(s) {
		if s[k].required {
			if v, ok := m[k]; !ok || v == nil {
				return Missing(prefix + k)
			}
		}
	}
	return nil
}

func notNull(name string, want Kind) *Error {
	return Invalidf("INVALID_JSON_ATTRIBUTE",
		fmt.Sprintf("Received JSON for the %s attribute does not match expected format: want %s, not null.", name, want.withArticle()), name)
}

// value checks one attribute and returns it normalized.
func (f *Field) value(name string, v any, lenient bool) (any, *Error) {
	if v == nil {
		switch {
		case f.nullable || f.kind == KindAny:
			return nil, nil
		case f.required:
			return nil, Missing(name)
		}
		return nil, notNull(name, f.kind)
	}
	switch f.kind {
	case KindAny:
		return NormalizeNumbers(v), nil
	case KindString:
		s, ok := v.(string)
		if !ok {
			return nil, wrongType(name, KindString)
		}
		if len(f.enum) > 0 && !slices.Contains(f.enum, s) {
			return nil, notInEnum(s, name, f.enum)
		}
		return s, nil
	case KindBool:
		if _, ok := v.(bool); !ok {
			return nil, wrongType(name, KindBool)
		}
		return v, nil
	case KindNumber, KindInt:
		n, ok := v.(json.Number)
		if !ok {
			return nil, wrongType(name, f.kind)
		}
		fl, err := n.Float64()
		if err != nil {
			return nil, wrongType(name, f.kind)
		}
		if f.kind == KindInt && (fl != math.Trunc(fl) || math.Abs(fl) > 1<<53) {
			return nil, wrongType(name, KindInt)
		}
		if f.positive && fl <= 0 {
			return nil, Invalidf("ATTRIBUTE_NEGATIVE_OR_ZERO", fmt.Sprintf("%s must be a positive number, not %s.", name, n), name, n.String())
		}
		if f.bounded && (fl < f.min || fl > f.max) {
			return nil, Invalidf("INVALID_JSON_ATTRIBUTE",
				fmt.Sprintf("%s must be from %g to %g, not %s.", name, f.min, f.max, n), name, n.String())
		}
		return NormalizeNumbers(n), nil
	case KindTime:
		s, ok := v.(string)
		if !ok {
			return nil, wrongType(name, KindTime)
		}
		t, err := ParseTimestamp(s)
		if err != nil {
			return nil, Invalidf("INVALID_JSON_ATTRIBUTE",
				fmt.Sprintf("Received JSON for the %s attribute does not match expected format: %q is not an ISO 8601 timestamp.", name, s), name)
		}
		return FormatTime(t), nil
	case KindObject:
		m, ok := v.(map[string]any)
		if !ok {
			return nil, wrongType(name, KindObject)
		}
		if f.obj != nil {
			if err := f.obj.checkMode(m, name+".", nil, lenient); err != nil {
				return nil, err
			}
		}
		return m, nil
	case KindArray:
		a, ok := v.([]any)
		if !ok {
			return nil, wrongType(name, KindArray)
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
