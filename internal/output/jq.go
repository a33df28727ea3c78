package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/itchyny/gojq"
)

type jqFilter struct{ code *gojq.Code }

func compileJQ(expr string) (*jqFilter, error) {
	q, err := gojq.Parse(expr)
	if err != nil {
		return nil, fmt.Errorf("invalid --jq expression %q: %w", expr, err)
	}
	code, err := gojq.Compile(q, gojq.WithEnvironLoader(os.Environ))
	if err != nil {
		return nil, fmt.Errorf("invalid --jq expression %q: %w", expr, err)
	}
	return &jqFilter{code: code}, nil
}

// run applies the filter to one JSON document. Strings print raw (like
// `jq -r`) so results feed shell pipelines directly.
func (f *jqFilter) run(w io.Writer, doc []byte, indent bool) error {
	input, err := decodeForJQ(doc)
	if err != nil {
		return fmt.Errorf("the server sent invalid JSON: %w", err)
	}
	return f.runValue(w, input, indent)
}

// runValue applies the filter to a decoded document.
func (f *jqFilter) runValue(w io.Writer, input any, indent bool) error {
	iter := f.code.Run(input)
	for {
		v, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, isErr := v.(error); isErr {
			if h, halt := err.(*gojq.HaltError); halt && h.Value() == nil {
				return nil
			}
			return fmt.Errorf("--jq: %w", err)
		}
		if s, isString := v.(string); isString {
			if _, err := fmt.Fprintln(w, s); err != nil {
				return err
			}
			continue
		}
		out, err := gojq.Marshal(v)
		if err != nil {
			return fmt.Errorf("--jq: %w", err)
		}
		if indent {
			var buf bytes.Buffer
			if json.Indent(&buf, out, "", "  ") == nil {
				out = buf.Bytes()
			}
		}
		if _, err := fmt.Fprintf(w, "%s\n", out); err != nil {
			return err
		}
	}
}

// decodeForJQ decodes JSON into the value types gojq works with, keeping
// whole numbers whole (ids, counts) rather than turning them into floats.
func decodeForJQ(doc []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return normalizeNumbers(v), nil
}

func normalizeNumbers(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return int(i)
		}
		f, _ := t.Float64()
		return f
	case map[string]any:
		for k, e := range t {
			t[k] = normalizeNumbers(e)
		}
	case []any:
		for i, e := range t {
			t[i] = normalizeNumbers(e)
		}
	}
	return v
}
