// Package cmdutil holds what every command shares: the factory that builds
// clients and printers from settings, exit codes, and flag helpers.
package cmdutil

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/output"
	"github.com/omctl/omctl/internal/prompt"
)

// Exit codes, documented in README and `omctl help exit-codes`.
const (
	ExitOK       = 0
	ExitError    = 1
	ExitUsage    = 2
	ExitNotFound = 3
	ExitAuth     = 4
	// ExitInterrupted is the shell's code for a run ended by SIGINT.
	ExitInterrupted = 130
)

// FlagError is a usage mistake: a bad flag, argument or local value.
type FlagError struct{ Err error }

func (e *FlagError) Error() string { return e.Err.Error() }
func (e *FlagError) Unwrap() error { return e.Err }

// FlagErrorf builds a FlagError.
func FlagErrorf(format string, a ...any) error {
	return &FlagError{Err: fmt.Errorf(format, a...)}
}

// ErrSilent ends a run with exit code 1 and no further message, for
// commands that already told the user what happened.
var ErrSilent = errors.New("silent error")

// ExitCodeError ends a run with Code and no message, for commands whose
// exit code is itself the answer (diff --exit-code: 2 when something
// would change).
type ExitCodeError struct{ Code int }

func (e *ExitCodeError) Error() string { return fmt.Sprintf("exit code %d", e.Code) }

// ExitCode maps an error to the process exit code.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var codeErr *ExitCodeError
	if errors.As(err, &codeErr) {
		return codeErr.Code
	}
	if errors.Is(err, ErrInterrupted) || errors.Is(err, prompt.ErrCancelled) {
		// Ctrl-C at a prompt reaches it as a key, not as SIGINT.
		return ExitInterrupted
	}
	var flagErr *FlagError
	var outErr *output.UsageError
	if errors.As(err, &flagErr) || errors.As(err, &outErr) {
		return ExitUsage
	}
	var apiErr *client.APIError
	if errors.As(err, &apiErr) {
		switch apiErr.StatusCode {
		case http.StatusNotFound:
			return ExitNotFound
		case http.StatusUnauthorized, http.StatusForbidden:
			return ExitAuth
		}
	}
	return ExitError
}
