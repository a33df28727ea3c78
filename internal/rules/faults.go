package rules

import (
	"fmt"
	"strings"
	"time"

	"github.com/omctl/omctl/internal/api"
)

// The rules of a fault (api.AddFault; docs/server.md, Faults), which the
// server enforces and `omctl server faults add` checks before sending.
// The checks of one value take the name to report it by: the body's
// attribute for the server, the flag for the command.

func faultSchema() Schema {
	return Schema{
		"method":      Str(api.FaultMethods...),
		"path":        Str().Req(),
		"status":      Integer().Within(400, 599),
		"errorCode":   Str(),
		"retryAfter":  Integer().Within(0, api.MaxRetryAfter),
		"delay":       Str(),
		"times":       Integer().Within(1, api.MaxFaultTimes),
		"probability": Number().Within(0, 1),
		"reset":       Bool(),
	}
}

// CheckFault checks the body of AddFault, normalizing it as Schema.Check
// does.
func CheckFault(body Doc) *Error {
	if err := faultSchema().Check(body, "", nil); err != nil {
		return err
	}
	if err := FaultPath("path", body["path"].(string)); err != nil {
		return err
	}
	if v, ok := body["delay"].(string); ok {
		if _, err := FaultDelay("delay", v); err != nil {
			return err
		}
	}
	code, hasCode := body["errorCode"].(string)
	if hasCode {
		if err := ErrorCode("errorCode", code); err != nil {
			return err
		}
	}
	_, hasStatus := body["status"]
	_, hasRetry := body["retryAfter"]
	reset, _ := body["reset"].(bool)
	switch {
	case hasStatus && reset:
		return Invalidf("INVALID_JSON_ATTRIBUTE",
			"reset closes the connection without an answer, so it cannot go with status: give one of them.", "reset")
	case !hasStatus && hasCode:
		return Invalidf("MISSING_ATTRIBUTE", "errorCode is the code of a status answer: give status (400 to 599) too.", "status")
	case !hasStatus && hasRetry:
		return Invalidf("MISSING_ATTRIBUTE", "retryAfter is a header of a status answer: give status (400 to 599) too.", "status")
	}
	return nil
}

// FaultPath checks a fault's path glob: after the API base path (or with
// it), starting with /, "**" only as a whole segment.
func FaultPath(name, p string) *Error {
	why := ""
	switch {
	case p == "" || p[0] != '/':
		why = "want a path after the API base path, starting with /, such as /groups/*/alerts"
	case len(p) > api.MaxFaultPath:
		why = fmt.Sprintf("longer than %d characters", api.MaxFaultPath)
	default:
		for _, s := range strings.Split(p[1:], "/") {
			if strings.Contains(s, "**") && s != "**" {
				why = "** must be a whole segment (/groups/**), matching zero or more of them"
			}
		}
	}
	if why == "" {
		return nil
	}
	return Invalidf("INVALID_JSON_ATTRIBUTE", fmt.Sprintf("%s %q: %s.", name, p, why), name)
}

// FaultDelay reads a fault's delay: a Go duration from 0 to
// api.MaxFaultDelay.
func FaultDelay(name, v string) (time.Duration, *Error) {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || d > api.MaxFaultDelay {
		return 0, Invalidf("INVALID_JSON_ATTRIBUTE",
			fmt.Sprintf("%s %q is not a Go duration from 0 to %s, such as 1500ms or 2s.", name, v, api.MaxFaultDelay), name)
	}
	return d, nil
}

// ErrorCode checks the errorCode of a fault's answer: 1 to
// api.MaxErrorCodeLen capital letters, digits and underscores.
func ErrorCode(name, s string) *Error {
	ok := s != "" && len(s) <= api.MaxErrorCodeLen
	for _, r := range s {
		ok = ok && (r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_')
	}
	if ok {
		return nil
	}
	return Invalidf("INVALID_JSON_ATTRIBUTE",
		fmt.Sprintf("%s %q must be 1 to %d capital letters, digits and underscores, such as SERVICE_UNAVAILABLE.", name, s, api.MaxErrorCodeLen), name)
}
