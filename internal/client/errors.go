package client

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// APIError is a non-2xx answer of the server.
type APIError struct {
	StatusCode int
	ErrorCode  string
	Detail     string
	Reason     string
	// RetryAfter is the Retry-After header of a 429, if any.
	RetryAfter string
}

func newAPIError(res *http.Response, body []byte) *APIError {
	e := &APIError{StatusCode: res.StatusCode, RetryAfter: res.Header.Get("Retry-After")}
	var payload struct {
		Detail    string `json:"detail"`
		ErrorCode string `json:"errorCode"`
		Reason    string `json:"reason"`
	}
	if json.Unmarshal(body, &payload) == nil {
		e.Detail, e.ErrorCode, e.Reason = payload.Detail, payload.ErrorCode, payload.Reason
	}
	if e.Reason == "" {
		e.Reason = http.StatusText(res.StatusCode)
	}
	if e.Detail == "" {
		// A body that is not the API's error shape (a proxy's page, say) is
		// shown briefly so the user sees what answered.
		text := strings.TrimSpace(string(body))
		if len(text) > 200 {
			text = text[:200] + "…"
		}
		e.Detail = text
	}
	return e
}

// Error reads like `404 ALERT_NOT_FOUND: No alert with ID … exists in group ….`
func (e *APIError) Error() string {
	code := e.ErrorCode
	if code == "" {
		code = strings.ToUpper(strings.ReplaceAll(e.Reason, " ", "_"))
	}
	msg := fmt.Sprintf("%d %s", e.StatusCode, code)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if e.RetryAfter != "" {
		msg += " (retry after " + e.RetryAfter + "s)"
	}
	return msg
}
