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
	problems := res.Report()
	for _, p := range rules.RedactedSecrets(res.Value) {
		problems = append(problems, p+" holds a redacted value, as the server shows it, not the secret")
	}
	if len(problems) > 0 {
		for i, p := range problems {
			problems[i] = strings.ReplaceAll(p, "\n", "\n  ") // a problem's own lines stay under it
		}
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

// Mask shows a secret the way the server shows redacted ones (rules.Mask).
func Mask(key, s string) string { return rules.Mask(key, s) }

// MaskPair masks the secrets of a value before and after a change (either
// may be nil). Two different secrets that mask alike are told apart by
// "(changed)", so a diff still shows that a secret changes.
func MaskPair(key string, before, after any) (any, any) {
	bm, bIsMap := before.(map[string]any)
	am, aIsMap := after.(map[string]any)
	if bIsMap || aIsMap {
		ob, oa := map[string]any{}, map[string]any{}
		for k, b := range bm {
			mb, _ := MaskPair(k, b, am[k])
			ob[k] = mb
		}
		for k, a := range am {
			_, ma := MaskPair(k, bm[k], a)
			oa[k] = ma
		}
		return pick(ob, bIsMap, before), pick(oa, aIsMap, after)
	}
	bl, bIsList := before.([]any)
	al, aIsList := after.([]any)
	if bIsList || aIsList {
		ob, oa := make([]any, len(bl)), make([]any, len(al))
		for i := range max(len(bl), len(al)) {
			var b, a any
			if i < len(bl) {
				b = bl[i]
			}
			if i < len(al) {
				a = al[i]
			}
			mb, ma := MaskPair(key, b, a)
			if i < len(bl) {
				ob[i] = mb
			}
			if i < len(al) {
				oa[i] = ma
			}
		}
		return pick(ob, bIsList, before), pick(oa, aIsList, after)
	}
	if !rules.SecretFields[key] {
		return before, after
	}
	bs, bok := before.(string)
	as, aok := after.(string)
	mb, ma := before, after
	if bok {
		mb = Mask(key, bs)
	}
	if aok {
		ma = Mask(key, as)
	}
	if bok && aok && bs != as && mb == ma {
		ma = Mask(key, as) + " (changed)"
	}
	return mb, ma
}

// pick is the masked copy when the value was of its kind, else the value.
func pick[T any](masked T, ok bool, orig any) any {
	if ok {
		return masked
	}
	return orig
}
