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

	what string // "an alert"
	// keys and want are set by Of: the fields that may name the resource
	// (the first it has counts), and the value asked for.
	keys []string
	want string
}

// Details builds a DetailDef that decodes the resource into T (a model of
// the api package) and lists its fields.
func Details[T any](what string, fields func(T) []Field) DetailDef {
	return DetailDef{what: what, Fields: func(item json.RawMessage) ([]Field, error) {
		var v T
		if err := json.Unmarshal(item, &v); err != nil {
			return nil, fmt.Errorf("the server's answer is not %s", what)
		}
		return fields(v), nil
	}}
}

// Of is d for the one resource whose field key is want: Describe then
// refuses an answer that is not that resource (a list, another resource,
// or anything else), whatever the output format.
func (d DetailDef) Of(key, want string) DetailDef {
	d.keys, d.want = []string{key}, want
	return d
}

// OfEither is d for one resource named by whichever of keys it has, as
// an access-list entry is by its ipAddress, or by its cidrBlock when it
// is a range (the API shows either).
func (d DetailDef) OfEither(keys ...string) DetailDef {
	d.keys, d.want = keys, ""
	return d
}

// check says why body is not the one resource d describes, if it is not.
func (d DetailDef) check(body []byte) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil || members == nil {
		return fmt.Errorf("the server's answer is not %s: it is not a JSON object", d.what)
	}
	if _, isList := members["results"]; isList {
		return fmt.Errorf("the server answered a list where %s was asked for", d.what)
	}
	var key, got string
	for _, k := range d.keys {
		if json.Unmarshal(members[k], &got) == nil && got != "" {
			key = k
			break
		}
	}
	if key == "" {
		return fmt.Errorf("the server's answer is not %s: it has no %s", d.what, strings.Join(d.keys, " or "))
	}
	if d.want != "" && !strings.EqualFold(got, d.want) {
		return fmt.Errorf("the server answered with %s %q where %s %q was asked for", key, got, key, d.want)
	}
	if _, err := d.Fields(body); err != nil {
		return err
	}
	return nil
}

// Describe prints one resource: with -o table on a terminal, a detail view
// of every field that has a value, times both exact and relative; with -o
// yaml on a terminal, the YAML of -o json with its secrets masked;
// otherwise as Resource does (a table row when piped, JSON as received
// with -o json).
func (p *Printer) Describe(body []byte, def TableDef, detail DetailDef) error {
	if len(detail.keys) > 0 {
		if err := detail.check(p.content(body)); err != nil {
			return err
		}
	}
	if p.opts.Format == api.FormatYAML && p.io.IsStdoutTTY() {
		// Read by a person: secrets masked, as a diff shows them; -o json
		// keeps them as the server sent them, for scripts.
		return p.writeYAML(body, true)
	}
	if p.opts.Format != api.FormatTable || !p.io.IsStdoutTTY() {
		return p.Resource(body, def)
	}
	return p.writeDetail(body, detail)
}

// OneTime prints a resource that holds a secret shown only once (a new
// API key's private key): with -o table, on a terminal or not, a line per
// field, so no value is ever cut to fit a column; other formats as
// Resource does.
func (p *Printer) OneTime(body []byte, detail DetailDef) error {
	if p.opts.Format != api.FormatTable {
		return p.Resource(body, TableDef{})
	}
	return p.writeDetail(body, detail)
}

func (p *Printer) writeDetail(body []byte, detail DetailDef) error {
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

// Wrap splits each line of s into lines of at most n columns (10 or
// more), at a space when there is one (a long URL is cut where it must be).
func Wrap(s string, n int) []string { return wrapLines(s, n) }

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
