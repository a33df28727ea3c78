package cmdutil

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/output"
)

// The machinery every write command shares (docs/writes.md): --dry-run,
// which shows a write instead of sending it, and the read-modify-write of
// an update built from flags, which changes only the fields the flags
// name and tells what the server's answer changed.

// AddDryRunFlag adds --dry-run, the same on every write command.
func AddDryRunFlag(cmd *cobra.Command, p *bool) {
	cmd.Flags().BoolVar(p, "dry-run", false, "print the request and its diff against the current resource; send nothing")
}

// Write is one write request of a command, and what it does to the
// resource it addresses.
type Write struct {
	Method, Path string
	// Body is what is sent, nil for none.
	Body any
	// Before is the resource as the server shows it now, nil when there
	// is none yet (a creation).
	Before json.RawMessage
	// After is the resource once the write is made, as far as omctl can
	// tell before sending it; nil for a deletion.
	After any
}

// Preview prints a write instead of sending it (--dry-run): with -o json
// or jsonl one JSON object a line (dryRun, method, path, body, current,
// after), with -o yaml the same as a YAML document;
// otherwise the request line, its body and a unified diff of the
// resource. Secrets are masked in all of it.
func (w Write) Preview(out io.Writer, format string) error {
	body := normalize(w.Body)
	var before any
	if w.Before != nil {
		before = normalize(json.RawMessage(w.Before))
	}
	after := normalize(w.After)
	mBefore, mAfter := MaskPair("", withoutManaged(before), withoutManaged(after))
	_, mBody := MaskPair("", nil, body)
	if format == api.FormatJSON || format == api.FormatJSONL || format == api.FormatYAML {
		doc := map[string]any{"dryRun": true, "method": w.Method, "path": w.Path, "body": mBody, "current": mBefore, "after": mAfter}
		b, _ := json.Marshal(doc)
		if format == api.FormatYAML {
			y, err := output.ToYAML(b)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(out, "---\n%s", y)
			return err
		}
		_, err := fmt.Fprintf(out, "%s\n", b)
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Dry run: nothing was sent.\n%s %s\n", w.Method, w.Path)
	if w.Body != nil {
		b.WriteString(indent(mBody))
	}
	b.WriteString(ResourceDiff(mBefore, mAfter))
	_, err := io.WriteString(out, b.String())
	return err
}

// ResourceDiff is a unified diff, three lines of context, of a resource
// before and after a write, both already masked; "No change." when they
// are alike.
func ResourceDiff(before, after any) string {
	from, to := "current", "after"
	var a, b []string
	if before != nil {
		a = difflib.SplitLines(indent(before))
	} else {
		from = "/dev/null"
	}
	if after != nil {
		b = difflib.SplitLines(indent(after))
	} else {
		to = "/dev/null"
	}
	diff, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{A: a, B: b, FromFile: from, ToFile: to, Context: 3})
	if diff == "" {
		return "No change.\n"
	}
	return diff
}

// indent is v as indented JSON, keys sorted, with a final newline.
func indent(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b) + "\n"
}

// normalize turns a body (a struct, a map, raw JSON) into the generic
// JSON value it encodes, so that every value compares and masks alike.
func normalize(v any) any {
	if v == nil {
		return nil
	}
	var raw []byte
	switch t := v.(type) {
	case json.RawMessage:
		raw = t
	case []byte:
		raw = t
	default:
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return nil
		}
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return map[string]any{}
	}
	var out any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&out) != nil {
		return nil
	}
	return out
}

// managed are the fields the server keeps itself: a write does not set
// them, so a diff leaves them out.
var managed = map[string]bool{"links": true, "created": true, "updated": true}

func withoutManaged(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, e := range m {
		if !managed[k] {
			out[k] = e
		}
	}
	return out
}

// Object decodes a resource as the server sent it into its fields, with
// exact numbers; an empty body is no fields.
func Object(raw []byte, what string) (map[string]any, error) {
	m, ok := normalize(json.RawMessage(raw)).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the server's answer is not %s", what)
	}
	return m, nil
}
