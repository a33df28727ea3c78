package cmdutil

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/secretref"
)

// HowToGiveSecrets ends every message about a secret omctl will not send.
const HowToGiveSecrets = "give the real value, or a reference the file can keep: ${env:NAME} or ${file:PATH} (see docs/apply.md, Secrets)"

// ReadBodyInput reads the JSON body of a write (--file FILE or -) and makes
// it safe to send: each secret given by reference (${env:NAME},
// ${file:PATH}) is replaced by its value, and a secret still in the
// redacted form the server shows (a describe's output) refuses the body,
// each such field named, before anything is sent. A body without
// references is sent exactly as read.
func ReadBodyInput(ios *iostreams.IOStreams, flag, file string) ([]byte, error) {
	raw, err := ReadJSONInput(ios, flag, file)
	if err != nil {
		return nil, err
	}
	return PrepareBody(raw, file)
}

// PrepareBody resolves the references of a JSON body and refuses redacted
// secrets; source names the body in messages.
func PrepareBody(raw []byte, source string) ([]byte, error) {
	if source == "-" {
		source = "standard input"
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, FlagErrorf("%s is not valid JSON: %s", source, DescribeJSONError(err))
	}
	res := secretref.Resolver{}.Resolve(v)
	problems := res.Problems
	for _, p := range rules.RedactedSecrets(res.Value) {
		problems = append(problems, p+" holds a redacted value, as the server shows it, not the secret")
	}
	if len(problems) > 0 {
		return nil, FlagErrorf("%s: nothing was sent:\n  %s\n%s", source, strings.Join(problems, "\n  "), HowToGiveSecrets)
	}
	if len(res.Refs) == 0 {
		return raw, nil
	}
	out, err := json.Marshal(res.Value)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// WarnRedactedSecrets writes a warning for each secret field of a JSON
// body that holds a redacted form, for commands that send bodies as given
// (omctl api).
func WarnRedactedSecrets(ios *iostreams.IOStreams, body []byte) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return
	}
	for _, p := range rules.RedactedSecrets(v) {
		fmt.Fprintf(ios.ErrOut, "Warning: the body's %s holds a redacted value, not the secret; the server will store it as given\n", p)
	}
}
