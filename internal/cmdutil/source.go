package cmdutil

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"

	"github.com/omctl/omctl/internal/client"
)

// Source names where a setting's value came from this run: the flag
// ("--project"), the variable ("OMCTL_PROJECT_ID") or the profile
// ("project_id in profile \"ci\""); "" when settings were not read or
// the key kept its default.
func (f *Factory) Source(key string) string {
	if f.settings == nil {
		return ""
	}
	return f.settings.From[key]
}

// sourceError is an error with where the values it is about came from.
type sourceError struct {
	err  error
	note string
}

func (e *sourceError) Error() string { return e.err.Error() + " (" + e.note + ")" }
func (e *sourceError) Unwrap() error { return e.err }

// NoteSource adds to an error that the server or the network gave to a
// setting's value where that value came from, so that a user who did not
// know OMCTL_PROJECT_ID was set (or a profile's key, or OMCTL_BASE_URL)
// learns it from the error: a project or organization the server does not
// know, a key it refuses, a server that cannot be reached or trusted.
// Other errors, and errors that name the source already, are as they were.
func (f *Factory) NoteSource(err error) error {
	if err == nil || f.settings == nil {
		return err
	}
	var keys []string
	var apiErr *client.APIError
	var dns *net.DNSError
	var unknownCA x509.UnknownAuthorityError
	var badHost x509.HostnameError
	switch {
	case errors.As(err, &apiErr):
		switch {
		case apiErr.StatusCode == 401 && apiErr.ErrorCode == "":
			keys = []string{"public_key", "private_key", "private_key_file"} // the key itself was refused
		case f.projectUsed && (apiErr.ErrorCode == "INVALID_GROUP_ID" || apiErr.ErrorCode == "GROUP_NOT_FOUND" || apiErr.ErrorCode == "NOT_IN_GROUP"):
			keys = []string{"project_id"}
		case f.orgUsed && apiErr.ErrorCode == "ORG_NOT_FOUND":
			keys = []string{"org_id"}
		case apiErr.StatusCode == 404 && apiErr.ErrorCode == "":
			keys = []string{"base_url"} // not the API's answer at all
		}
	case errors.As(err, &unknownCA):
		keys = []string{"base_url", "ca_cert"}
	case errors.Is(err, syscall.ECONNREFUSED), errors.As(err, &dns), errors.As(err, &badHost):
		keys = []string{"base_url"}
	case ExitCode(err) == ExitUsage && strings.Contains(err.Error(), "-o "+f.settings.Output) && !strings.HasPrefix(f.Source("output"), "-"):
		// A format a command does not take, which the user did not type:
		// OMCTL_OUTPUT or the profile's output gave it.
		keys = []string{"output"}
	}
	var notes []string
	for _, k := range keys {
		from := f.Source(k)
		if from == "" || strings.Contains(err.Error(), from) {
			continue
		}
		v := f.settings.Get(k)
		if v == "" || k == "private_key" {
			notes = append(notes, fmt.Sprintf("%s from %s", k, from))
			continue
		}
		notes = append(notes, fmt.Sprintf("%s %q from %s", k, v, from))
	}
	if len(notes) == 0 {
		return err
	}
	return &sourceError{err, strings.Join(notes, ", ")}
}
