// Package bulk runs one action on many resources for the commands that take
// several ids (`alerts ack|unack`, `alertconfigs enable|disable`): it reads
// the ids from arguments or standard input, runs the action on each with a
// bounded number at a time, and prints one result line per resource.
package bulk

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/output"
)

// Workers is how many actions run at once.
const Workers = 8

// ReadIDs returns the ids of args, where "-" stands for the ids of standard
// input: one a line, the first whitespace-separated field of each (so the
// first column of a list's TSV), blank lines skipped. Every id must be 24
// hexadecimal digits; an id given twice is acted on once.
func ReadIDs(ios *iostreams.IOStreams, args []string, what string) ([]string, error) {
	var ids []string
	seen := map[string]bool{}
	add := func(id, from string) error {
		if err := cmdutil.CheckID(what, id); err != nil {
			return cmdutil.FlagErrorf("%v%s", err, from)
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
		return nil
	}
	stdinRead := false
	for _, a := range args {
		if a != "-" {
			if err := add(a, ""); err != nil {
				return nil, err
			}
			continue
		}
		if stdinRead {
			return nil, cmdutil.FlagErrorf("- (standard input) may be given once")
		}
		stdinRead = true
		if ios.IsStdinTTY() {
			// A person typing: say what is awaited, and how to end it.
			fmt.Fprintf(ios.ErrOut, "Reading %s ids from standard input, one a line; end with Ctrl-D (Ctrl-Z Enter on Windows):\n", what)
		}
		sc := bufio.NewScanner(ios.In)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for n := 1; sc.Scan(); n++ {
			fields := strings.Fields(sc.Text())
			if len(fields) == 0 {
				continue
			}
			if err := add(fields[0], fmt.Sprintf(" (standard input, line %d)", n)); err != nil {
				return nil, err
			}
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("cannot read ids from standard input: %v", err)
		}
	}
	return ids, nil
}

// Result is what happened to one resource.
type Result struct {
	ID string
	// Outcome is a word: the action's past tense ("acknowledged"), "would
	// VERB" for a dry run, "failed", or "unknown" for a write whose answer
	// was lost.
	Outcome string
	// Detail says more: the new state, or why it failed.
	Detail string
	// Body is the server's answer, for JSON output.
	Body json.RawMessage
	Err  error
}

// Outcomes of the actions an interruption stopped, apart from failures.
const (
	OutcomeInterrupted = "interrupted"
	OutcomeNotStarted  = "not started"
)

// OutcomeUnknown is the outcome of an action whose request was sent but
// whose answer never came (the connection was lost): it may or may not
// have been applied, so it is neither done nor failed.
const OutcomeUnknown = "unknown"

// stopped is the error of an action that the end of the run's context
// kept from starting or finishing: an interruption (Ctrl-C, SIGTERM) or
// the command's --timeout, its cause.
type stopped struct{ cause error }

func (e stopped) Error() string { return "stopped: " + e.cause.Error() }
func (e stopped) Unwrap() error { return e.cause }

func isStopped(err error) bool {
	var s stopped
	return errors.As(err, &s)
}

// Run calls act for each id, Workers at a time, and returns the results in
// the order of ids. Every id is tried, whatever the others gave, until
// ctx ends: then no action starts (those ids are "not started"), and an
// action in flight that fails because of it is "interrupted", since its
// request may or may not have reached the server.
func Run(ctx context.Context, ids []string, act func(context.Context, string) Result) []Result {
	results := make([]Result, len(ids))
	sem := make(chan struct{}, Workers)
	var wg sync.WaitGroup
	for i, id := range ids {
		started := false
		select {
		case sem <- struct{}{}:
			started = ctx.Err() == nil
			if !started {
				<-sem // a slot came free just as ctx ended
			}
		case <-ctx.Done():
		}
		if !started {
			results[i] = Result{ID: id, Outcome: OutcomeNotStarted, Detail: "no request was sent", Err: stopped{cmdutil.StopCause(ctx)}}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			r := act(ctx, id)
			if r.Err != nil && ctx.Err() != nil {
				r = Result{ID: id, Outcome: OutcomeInterrupted, Detail: "stopped in flight: it may or may not have been applied", Err: stopped{cmdutil.StopCause(ctx)}}
			}
			results[i] = r
		}()
	}
	wg.Wait()
	return results
}

// Report prints the results (see Print), then says what an interruption
// or the command's --timeout left undone on stderr, and returns the error
// the run ends with: what stopped it (ErrInterrupted: exit 130, no error
// line), else the count of failures (see Failed).
func Report(ios *iostreams.IOStreams, format string, results []Result, what string) error {
	if err := Print(ios, format, results); err != nil {
		return err
	}
	n := map[string]int{}
	var cause error
	for _, r := range results {
		switch {
		case isStopped(r.Err):
			n[r.Outcome]++
			cause = errors.Unwrap(r.Err)
		case r.Outcome == OutcomeUnknown:
			n[OutcomeUnknown]++
		case r.Err != nil:
			n["failed"]++
		default:
			n["done"]++
		}
	}
	if n[OutcomeInterrupted]+n[OutcomeNotStarted] == 0 {
		return Failed(results, what)
	}
	how := "Interrupted"
	if !errors.Is(cause, cmdutil.ErrInterrupted) {
		how = "Stopped by --timeout"
	}
	unknown := ""
	if n[OutcomeUnknown] > 0 {
		unknown = fmt.Sprintf(", %d unknown (answer lost; may or may not have been applied)", n[OutcomeUnknown])
	}
	fmt.Fprintf(ios.ErrOut, "%s: of %d %s, %d done, %d failed%s, %d interrupted in flight (may or may not have been applied), %d not started.\n",
		how, len(results), what, n["done"], n["failed"], unknown, n[OutcomeInterrupted], n[OutcomeNotStarted])
	return cause
}

// Print writes one line per result: an aligned table with a header on a
// terminal, tab-separated values without one when piped (ID, OUTCOME,
// DETAIL), a JSON object per line with -o json or jsonl, or a YAML
// document per result with -o yaml.
func Print(ios *iostreams.IOStreams, format string, results []Result) error {
	if format == api.FormatJSON || format == api.FormatJSONL || format == api.FormatYAML {
		var lines bytes.Buffer
		enc := json.NewEncoder(&lines)
		for _, r := range results {
			line := struct {
				ID       string          `json:"id"`
				OK       bool            `json:"ok"`
				Outcome  string          `json:"outcome"`
				Detail   string          `json:"detail,omitempty"`
				Resource json.RawMessage `json:"resource,omitempty"`
			}{r.ID, r.Err == nil, r.Outcome, r.Detail, r.Body}
			if err := enc.Encode(line); err != nil {
				return err
			}
		}
		if format != api.FormatYAML {
			_, err := ios.Out.Write(lines.Bytes())
			return err
		}
		for i, line := range bytes.Split(bytes.TrimSpace(lines.Bytes()), []byte("\n")) {
			y, err := output.ToYAML(line)
			if err != nil {
				return err
			}
			if i > 0 {
				io.WriteString(ios.Out, "---\n")
			}
			if _, err := ios.Out.Write(y); err != nil {
				return err
			}
		}
		return nil
	}
	if !ios.IsStdoutTTY() {
		for _, r := range results {
			if _, err := fmt.Fprintf(ios.Out, "%s\t%s\t%s\n", r.ID, r.Outcome, oneLine(r.Detail)); err != nil {
				return err
			}
		}
		return nil
	}
	// Ids and outcomes whole, each detail (an error says why) wrapped
	// under its column within the terminal's width, or, when that leaves
	// it too little room, on lines of its own below.
	idWidth, outcomeWidth := len("ID"), len("RESULT")
	for _, r := range results {
		idWidth, outcomeWidth = max(idWidth, twwidth.Width(r.ID)), max(outcomeWidth, twwidth.Width(r.Outcome))
	}
	col := idWidth + 2 + outcomeWidth + 2
	room, indent := ios.TerminalWidth()-col, col
	if room < 24 {
		room, indent = ios.TerminalWidth()-4, 4
	}
	var b strings.Builder
	row := func(id, outcome, detail string) {
		head := fmt.Sprintf("%-*s  %-*s  ", idWidth, id, outcomeWidth, outcome)
		lines := output.Wrap(oneLine(detail), room)
		if indent != col && detail != "" {
			head = strings.TrimRight(head, " ") + "\n" + strings.Repeat(" ", indent)
		}
		b.WriteString(strings.TrimRight(head+strings.Join(lines, "\n"+strings.Repeat(" ", indent)), " ") + "\n")
	}
	row("ID", "RESULT", "DETAIL")
	for _, r := range results {
		row(r.ID, r.Outcome, r.Detail)
	}
	_, err := io.WriteString(ios.Out, b.String())
	return err
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Failed returns an error saying how many of the results failed, and how
// many may or may not have been applied, nil when none did either.
func Failed(results []Result, what string) error {
	failed, unknown := 0, 0
	for _, r := range results {
		switch {
		case r.Err == nil || isStopped(r.Err):
		case r.Outcome == OutcomeUnknown:
			unknown++
		default:
			failed++
		}
	}
	lost := fmt.Sprintf("%d of %d %s may or may not have been applied: their answers were lost (list them again to see)", unknown, len(results), what)
	switch {
	case failed+unknown == 0:
		return nil
	case unknown == 0:
		return fmt.Errorf("%d of %d %s failed", failed, len(results), what)
	case failed == 0:
		return errors.New(lost)
	}
	return fmt.Errorf("%d of %d %s failed, and %s", failed, len(results), what, lost)
}

// Failure is the result of an action that failed, or whose answer was
// lost after its request was sent (client.ErrOutcomeUnknown): that one's
// outcome is unknown, not failed, as it may have been applied.
func Failure(id string, err error) Result {
	if errors.Is(err, client.ErrOutcomeUnknown) {
		return Result{ID: id, Outcome: OutcomeUnknown, Detail: "the answer was lost: it may or may not have been applied; " + err.Error(), Err: err}
	}
	return Result{ID: id, Outcome: "failed", Detail: err.Error(), Err: err}
}

// Select walks every page of the list at path (with the query q) and
// returns the ids that keep picks out of its items, each read as a T
// (what names one, for an answer that is not), with each picked item as
// the server sent it, by id: what an action or its dry run starts from.
func Select[T any](ctx context.Context, c *client.Client, path string, q url.Values, what string, keep func(T) (string, bool)) ([]string, map[string][]byte, error) {
	var ids []string
	items := map[string][]byte{}
	for page, err := range c.Pages(ctx, path, client.ListOptions{PageNum: 1, ItemsPerPage: 500, All: true, Query: q}) {
		if err != nil {
			return nil, nil, err
		}
		for _, item := range page.Results {
			var v T
			if err := cmdutil.DecodeAnswer(item, what, &v); err != nil {
				return nil, nil, err
			}
			if id, ok := keep(v); ok {
				ids = append(ids, id)
				items[id] = item
			}
		}
	}
	return ids, items, nil
}
