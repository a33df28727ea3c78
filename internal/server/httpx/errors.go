// Package httpx is the ground of omctl server's HTTP parts: the API's
// error answer (docs/api.md, Errors), the one mapping of errors to it, and
// the bounds of what the server reads of a request.
package httpx

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/omctl/omctl/internal/rules"
)

// Error is an error answer in the body shape of docs/api.md, Errors.
type Error struct {
	status int
	code   string
	detail string
	params []any
}

// Status is the answer's HTTP status.
func (e *Error) Status() int { return e.status }

// Code is the answer's errorCode.
func (e *Error) Code() string { return e.code }

// Detail is the answer's detail.
func (e *Error) Detail() string { return e.detail }

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.status, e.code, e.detail) }

// New is an error answer of status.
func New(status int, code, detail string, params ...any) *Error {
	return &Error{status: status, code: code, detail: detail, params: params}
}

// Body is the error as the API's JSON body.
func (e *Error) Body() map[string]any {
	b := map[string]any{
		"detail":    e.detail,
		"error":     e.status,
		"errorCode": e.code,
		"reason":    http.StatusText(e.status),
	}
	params := e.params
	if params == nil {
		params = []any{}
	}
	b["parameters"] = params
	return b
}

// NotFound is a 404 answer.
func NotFound(code, detail string, params ...any) *Error {
	return New(http.StatusNotFound, code, detail, params...)
}

// BadRequest is a 400 answer.
func BadRequest(code, detail string, params ...any) *Error {
	return New(http.StatusBadRequest, code, detail, params...)
}

// ResourceNotFound is the 404 of a path that names nothing.
func ResourceNotFound(path string) *Error {
	return NotFound("RESOURCE_NOT_FOUND", fmt.Sprintf("Cannot find resource %s.", path), path)
}

// InvalidQuery is the 400 of a query parameter's value.
func InvalidQuery(name, value, allowed string) *Error {
	return BadRequest("INVALID_QUERY_PARAMETER",
		fmt.Sprintf("Invalid query parameter %s=%q: %s.", name, value, allowed), name, value)
}

// Unexpected is the 500 of an error nobody expected.
func Unexpected() *Error {
	return New(http.StatusInternalServerError, "UNEXPECTED_ERROR", "Unexpected error.")
}

// ruleStatus is the HTTP status of each kind of broken rule.
var ruleStatus = map[rules.Problem]int{
	rules.Invalid:  http.StatusBadRequest,
	rules.Conflict: http.StatusConflict,
	rules.NotFound: http.StatusNotFound,
}

// Answer is the error answer of err, the one mapping of errors to
// answers: an *Error as it was made, a broken rule (*rules.Error) by
// its problem, anything else 500 UNEXPECTED_ERROR (unexpected: false).
func Answer(err error) (a *Error, expected bool) {
	if errors.As(err, &a) {
		return a, true
	}
	var broken *rules.Error
	if errors.As(err, &broken) {
		return New(ruleStatus[broken.Problem], broken.Code, broken.Detail, broken.Params...), true
	}
	return Unexpected(), false
}
