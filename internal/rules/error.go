// Package rules is the API's rules in one place (docs/api.md): the shape
// of every request body and fixture resource as tables, the checks that
// span fields, and the errors they report. It knows no HTTP: the server
// renders an Error as an answer, the client as a message, and the store
// refuses changes with it.
package rules

import (
	"fmt"
	"strings"
)

// Problem says what kind of rule a request broke; the server picks the
// HTTP status from it.
type Problem int

const (
	// Invalid: the request itself breaks a rule (400).
	Invalid Problem = iota
	// Conflict: it clashes with what exists already (409).
	Conflict
	// NotFound: what it names does not exist (404).
	NotFound
)

// Error is a broken rule in the shape of the API's error body
// (docs/api.md, Errors): a code, a sentence, and the values it names.
type Error struct {
	Problem Problem
	Code    string
	Detail  string
	Params  []any
	// Allowed lists the values a closed set takes (INVALID_ENUM_VALUE), for
	// a client to offer them.
	Allowed []string
}

func (e *Error) Error() string { return e.Code + ": " + e.Detail }

// Rule is the detail without its closing full stop, to quote inside a
// longer message.
func (e *Error) Rule() string { return strings.TrimSuffix(e.Detail, ".") }

// Invalidf reports a request that breaks a rule.
func Invalidf(code, detail string, params ...any) *Error {
	return &Error{Problem: Invalid, Code: code, Detail: detail, Params: params}
}

// Conflictf reports a clash with what exists.
func Conflictf(code, detail string, params ...any) *Error {
	return &Error{Problem: Conflict, Code: code, Detail: detail, Params: params}
}

// NotFoundf reports a resource the request names that does not exist.
func NotFoundf(code, detail string, params ...any) *Error {
	return &Error{Problem: NotFound, Code: code, Detail: detail, Params: params}
}

// Missing reports a required attribute that was not sent.
func Missing(name string) *Error {
	return Invalidf("MISSING_ATTRIBUTE", fmt.Sprintf("The required attribute %s was not specified.", name), name)
}

// readOnlyChanged reports an attribute sent with a value other than the
// resource's own.
func readOnlyChanged(name string) *Error {
	return Invalidf("ATTRIBUTE_READ_ONLY", fmt.Sprintf("Attribute %s is read-only and cannot be changed.", name), name)
}

// unknownAttribute reports an attribute the body may not have.
func unknownAttribute(name string) *Error {
	return Invalidf("INVALID_ATTRIBUTE", fmt.Sprintf("Invalid attribute %s specified.", name), name)
}

// notInEnum reports a value outside a closed set.
func notInEnum(value, name string, allowed []string) *Error {
	e := Invalidf("INVALID_ENUM_VALUE",
		fmt.Sprintf("An invalid enumeration value %s was specified for %s; allowed values are %s.", value, name, strings.Join(allowed, ", ")), value, name)
	e.Allowed = allowed
	return e
}

func wrongType(name string, want Kind) *Error {
	return Invalidf("INVALID_JSON_ATTRIBUTE",
		fmt.Sprintf("Received JSON for the %s attribute does not match expected format: want %s.", name, want.withArticle()), name)
}
