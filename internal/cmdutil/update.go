package cmdutil

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/rules"
)

// AddReplaceFlag adds --replace to an update built from flags: the body is
// the flags alone, as a full replacement, instead of the current resource
// with the flags' fields changed.
func AddReplaceFlag(cmd *cobra.Command, p *bool) {
	cmd.Flags().BoolVar(p, "replace", false, "send only the flags' fields, as a full replacement: fields not given are dropped")
}

// MergeUpdate is the body of a read-modify-write: current (the resource as
// read, without links) with the fields of changes put in its place. A
// secret of current that the server showed only redacted, and that changes
// does not replace, cannot be sent back: MergeUpdate refuses, naming the
// field and, from flags, the flag that gives its real value.
func MergeUpdate(current, changes map[string]any, flags map[string]string) (map[string]any, error) {
	body := make(map[string]any, len(current)+len(changes))
	for k, v := range current {
		if !managed[k] {
			body[k] = v
		}
	}
	for k, v := range changes {
		body[k] = v
	}
	if hidden := rules.RedactedSecrets(normalize(body)); len(hidden) > 0 {
		var how []string
		for _, p := range hidden {
			top, _, _ := strings.Cut(p, ".")
			top, _, _ = strings.Cut(top, "[")
			if f := flags[top]; f != "" && !slices.Contains(how, f) {
				how = append(how, f)
			}
		}
		hint := "give the whole resource with --file and --replace"
		if len(how) > 0 {
			hint = "give " + strings.Join(how, ", ") + ", or the whole resource with --file and --replace"
		}
		return nil, FlagErrorf("the server shows %s only redacted, and omctl never sends back a value it only saw redacted: %s",
			strings.Join(hidden, ", "), hint)
	}
	return body, nil
}

// ChangedFields lists, in name order, the fields whose value differs
// between a resource before a write and the server's answer to it, the
// fields the server keeps itself left out.
func ChangedFields(before, after map[string]any) []string {
	var changed []string
	for _, k := range rules.SortedKeys(union(before, after)) {
		if managed[k] {
			continue
		}
		if !reflect.DeepEqual(normalize(before[k]), normalize(after[k])) {
			changed = append(changed, k)
		}
	}
	return changed
}

// Unapplied lists, in name order, the fields of sent whose value the
// server's answer shows otherwise (differ: the answer says the change did
// not happen), and those the answer does not show at all (unshown). A
// client reads an answer by the API's object for it, which need not hold
// every field a request sends (docs/writes.md): a field the answer leaves
// out is no sign of failure, and the 2xx is then the server's word.
// Secrets are left out, since an answer may show them redacted or not at
// all.
func Unapplied(sent, answer map[string]any) (differ, unshown []string) {
	for _, k := range rules.SortedKeys(sent) {
		if rules.SecretFields[k] || managed[k] {
			continue
		}
		got, shown := answer[k]
		switch {
		case !shown:
			unshown = append(unshown, k)
		case !reflect.DeepEqual(normalize(sent[k]), normalize(got)):
			differ = append(differ, k)
		}
	}
	return differ, unshown
}

// ErrNotApplied is the error of a write the server answered with success
// but whose answer shows the change was not made.
func ErrNotApplied(what string, fields []string) error {
	return fmt.Errorf("the server answered with success, but its answer does not show the new %s of %s: the change may not have been made; check with describe",
		strings.Join(fields, ", "), what)
}

// NotShown is what a confirmation adds when the answer does not show some
// fields that were sent ("" when it shows them all).
func NotShown(fields []string) string {
	if len(fields) == 0 {
		return ""
	}
	return "; the answer does not show " + strings.Join(fields, ", ") + ", so that is the server's word"
}

// ChangeSummary says in words which fields a write changed.
func ChangeSummary(changed []string) string {
	if len(changed) == 0 {
		return "nothing changed"
	}
	return "changed " + strings.Join(changed, ", ")
}

func union(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// Current reads the resource a write addresses, as the server shows it,
// out of its envelope. With missingOK, a 404 is no resource yet (nil): the
// write creates it.
func Current(ctx context.Context, c *client.Client, path string, missingOK bool) (json.RawMessage, error) {
	body, err := c.Get(ctx, path, nil)
	var apiErr *client.APIError
	if missingOK && errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return c.Content(body), nil
}
