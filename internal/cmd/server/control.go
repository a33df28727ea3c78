package server

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/output"
)

// confirmCleared reports a DELETE control: one line on a terminal,
// nothing to a pipe, and the server's JSON ({}) with -o json or jsonl.
func confirmCleared(ios *iostreams.IOStreams, p *output.Printer, body []byte, message string) error {
	if p.Format() != api.FormatTable {
		return p.Resource(body, FaultTable)
	}
	if ios.IsStdoutTTY() {
		fmt.Fprintf(ios.Out, "✓ %s\n", message)
	}
	return nil
}

// RequestTable shows the journal.
var RequestTable = output.Columns([]string{"TIME", "METHOD", "PATH", "STATUS", "ERROR CODE", "CALLER", "ADDRESS"},
	func(e api.JournalEntry) []string {
		p := strings.TrimPrefix(e.Path, api.BasePath)
		if e.Query != "" {
			p += "?" + e.Query
		}
		status := strconv.Itoa(e.Status)
		if e.Status == 0 {
			status = "closed" // a fault closed the connection without an answer
		}
		return []string{e.Time, e.Method, p, status, e.ErrorCode, e.Caller, e.RemoteAddr}
	})

// FaultTable shows faults.
var FaultTable = output.Columns([]string{"ID", "METHOD", "PATH", "ANSWER", "DELAY", "TIMES LEFT", "PROBABILITY"},
	func(f api.Fault) []string {
		method := f.Method
		if method == "" {
			method = "any"
		}
		answer := "served"
		switch {
		case f.Reset:
			answer = "reset"
		case f.Status != 0:
			answer = fmt.Sprintf("%d %s", f.Status, f.ErrorCode)
			if f.RetryAfter != nil {
				answer += fmt.Sprintf(" (Retry-After %d)", *f.RetryAfter)
			}
		}
		times := "no end"
		if f.Times != nil {
			times = strconv.FormatInt(*f.Times, 10)
		}
		return []string{f.ID, method, f.Path, answer, f.Delay, times, strconv.FormatFloat(f.Probability, 'g', -1, 64)}
	})
