package server

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/omctl/omctl/internal/rules"
)

// apiError is an error answer in the body shape of docs/api.md, Errors.
type apiError struct {
	status int
	code   string
	detail string
	params []any
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.status, e.code, e.detail) }

func newError(status int, code, detail string, params ...any) *apiError {
	return &apiError{status: status, code: code, detail: detail, params: params}
}

func (e *apiError) body() map[string]any {
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

func errNotFound(code, detail string, params ...any) *apiError {
	return newError(http.StatusNotFound, code, detail, params...)
}

func errBadRequest(code, detail string, params ...any) *apiError {
	return newError(http.StatusBadRequest, code, detail, params...)
}

func errResourceNotFound(path string) *apiError {
	return errNotFound("RESOURCE_NOT_FOUND", fmt.Sprintf("Cannot find resource %s.", path), path)
}

func errInvalidQuery(name, value, allowed string) *apiError {
	return errBadRequest("INVALID_QUERY_PARAMETER",
		fmt.Sprintf("Invalid query parameter %s=%q: %s.", name, value, allowed), name, value)
}

func errUnexpected() *apiError {
	return newError(http.StatusInternalServerError, "UNEXPECTED_ERROR", "Unexpected error.")
}

// ruleStatus is the HTTP status of each kind of broken rule.
var ruleStatus = map[rules.Problem]int{
	rules.Invalid:  http.StatusBadRequest,
	rules.Conflict: http.StatusConflict,
	rules.NotFound: http.StatusNotFound,
}

// answerOf is the error answer of err, the one mapping of errors to
// answers: an *apiError as it was made, a broken rule (*rules.Error) by
// its problem, anything else 500 UNEXPECTED_ERROR (unexpected: false).
func answerOf(err error) (a *apiError, expected bool) {
	if errors.As(err, &a) {
		return a, true
	}
	var broken *rules.Error
	if errors.As(err, &broken) {
		return newError(ruleStatus[broken.Problem], broken.Code, broken.Detail, broken.Params...), true
	}
	return errUnexpected(), false
}
