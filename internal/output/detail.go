package output

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/omctl/omctl/internal/api"
)

// Field is one line of a detail view: a name and its value.
type Field struct{ Name, Value string }

// DetailDef says how `describe` shows one resource on a terminal: a line
// per field, as `kubectl describe` and `gh ... view` do.
type DetailDef struct {
	Fields func(item json.RawMessage) ([]Field, error)
}

// Details builds a DetailDef that decodes the resource into T (a model of
// the api package) and lists its fields.
func Details[T any](what string, fields func(T) []Field) DetailDef {
	return DetailDef{Fields: func(item json.RawMessage) ([]Field, error) {
		var v T
		if err := json.Unmarshal(item, &v); err != nil {
			return nil, fmt.Errorf("the server's answer is not %s", what)
		}
		return fields(v), nil
	}}
}

// Describe prints one resource: with -o table on a terminal, a detail view
// of every field that has a value, times both exact and relative; otherwise
// as Resource does (a table row when piped, JSON as received with -o json).
func (p *Printer) Describe(body []byte, def TableDef, detail DetailDef) error {
	if p.opts.Format != api.FormatTable || !p.io.IsStdoutTTY() {
		return p.Resource(body, def)
	}
	fields, err := detail.Fields(p.content(body))
	if err != nil {
		return err
	}
	width := 0
	for _, f := range fields {
		if f.Value != "" {
			width = max(width, twwidth.Width(f.Name))
		}
	}
	var b strings.Builder
	for _, f := range fields {
		if f.Value == "" {
			continue
		}
		v := f.Value
		if t, err := time.Parse(time.RFC3339, v); err == nil {
			v += " (" + relativeTime(t, p.opts.Now()) + ")"
		} else if code, ok := statusColors[v]; ok && f.Name == "Status" && p.io.ColorEnabled() {
			v = code + v + ansiReset
		}
		// One item a line; a line longer than the terminal wraps; the
		// continuation lines line up under the first.
		v = strings.Join(wrapLines(v, p.io.TerminalWidth()-width-2), "\n"+strings.Repeat(" ", width+2))
		fmt.Fprintf(&b, "%s:%s %s\n", f.Name, strings.Repeat(" ", width-twwidth.Width(f.Name)), v)
	}
	_, err = fmt.Fprint(p.io.Out, b.String())
	return err
}

// wrapLines splits each line of s into lines of at most n columns, at a
// space when there is one (a long URL is cut where it must be).
func wrapLines(s string, n int) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		for n >= 10 && twwidth.Width(line) > n {
			cut := twwidth.Truncate(line, n)
			if i := strings.LastIndexByte(cut, ' '); i > 0 {
				cut = cut[:i]
			}
			out = append(out, strings.TrimRight(cut, " "))
			line = strings.TrimLeft(line[len(cut):], " ")
		}
		out = append(out, line)
	}
	return out
}
