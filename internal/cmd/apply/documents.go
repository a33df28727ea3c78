package apply

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
)

// Document is one resource of an apply file: its kind and its fields in
// the API's own names, as JSON values (numbers are float64).
type Document struct {
	// Source is "FILE#N", N counting documents of the file from 1.
	Source string
	Kind   *Kind
	Fields map[string]any
}

// ReadDocuments reads every -f argument (a file, a directory of .yaml, .yml
// and .json files, or - for standard input) and validates each document.
// Every problem of every document is reported at once; no document is
// returned when any is invalid.
func ReadDocuments(ios *iostreams.IOStreams, files []string) ([]*Document, error) {
	if len(files) == 0 {
		return nil, cmdutil.FlagErrorf("no documents: give -f FILE, -f DIR or -f - (standard input)")
	}
	var docs []*Document
	var problems []string
	for _, f := range files {
		names, err := expand(f)
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			var data []byte
			if name == "-" {
				data, err = io.ReadAll(ios.In)
			} else {
				data, err = os.ReadFile(name)
			}
			if err != nil {
				return nil, cmdutil.FlagErrorf("cannot read -f %s: %s", name, cmdutil.DescribeFileError(err))
			}
			d, p := parse(displayName(name), data)
			docs = append(docs, d...)
			problems = append(problems, p...)
		}
	}
	if len(problems) > 0 {
		return nil, cmdutil.FlagErrorf("invalid documents, nothing was sent:\n  %s", strings.Join(problems, "\n  "))
	}
	if len(docs) == 0 {
		return nil, cmdutil.FlagErrorf("no documents in %s", strings.Join(files, ", "))
	}
	return docs, nil
}

func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}

// expand lists the files of a directory argument, sorted, so a run applies
// them in a stable order.
func expand(f string) ([]string, error) {
	if f == "-" {
		return []string{f}, nil
	}
	st, err := os.Stat(f)
	if err != nil {
		return nil, cmdutil.FlagErrorf("cannot read -f %s: %s", f, cmdutil.DescribeFileError(err))
	}
	if !st.IsDir() {
		return []string{f}, nil
	}
	entries, err := os.ReadDir(f)
	if err != nil {
		return nil, cmdutil.FlagErrorf("cannot read -f %s: %s", f, cmdutil.DescribeFileError(err))
	}
	var names []string
	for _, e := range entries {
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".yaml", ".yml", ".json":
			if !e.IsDir() {
				names = append(names, filepath.Join(f, e.Name()))
			}
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, cmdutil.FlagErrorf("-f %s: the directory holds no .yaml, .yml or .json file", f)
	}
	return names, nil
}

// parse splits a file into documents (YAML separated by ---, or JSON
// values one after another, a JSON array counting as its elements) and
// validates each.
func parse(name string, data []byte) ([]*Document, []string) {
	if t := bytes.TrimSpace(data); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		return parseJSON(name, data)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*Document
	var problems []string
	for i := 1; ; i++ {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			break
		}
		src := fmt.Sprintf("%s#%d", name, i)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: not YAML or JSON: %s", src, strings.TrimPrefix(err.Error(), "yaml: ")))
			break
		}
		if len(n.Content) == 0 || (n.Content[0].Kind == yaml.ScalarNode && n.Content[0].Tag == "!!null") {
			i-- // an empty document (a trailing ---) is not counted
			continue
		}
		var v any
		if err := n.Decode(&v); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %s", src, strings.TrimPrefix(err.Error(), "yaml: ")))
			continue
		}
		d, err := newDocument(src, v)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		docs = append(docs, d)
	}
	return docs, problems
}

func parseJSON(name string, data []byte) ([]*Document, []string) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var values []any
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, []string{fmt.Sprintf("%s#%d: not JSON: the file ends inside a value", name, len(values)+1)}
		}
		if err != nil {
			return nil, []string{fmt.Sprintf("%s#%d: not JSON: %s", name, len(values)+1, cmdutil.DescribeJSONError(err))}
		}
		if list, ok := v.([]any); ok {
			values = append(values, list...)
		} else {
			values = append(values, v)
		}
	}
	var docs []*Document
	var problems []string
	for i, v := range values {
		d, err := newDocument(fmt.Sprintf("%s#%d", name, i+1), v)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		docs = append(docs, d)
	}
	return docs, problems
}

// newDocument checks one decoded document against its kind.
func newDocument(src string, v any) (*Document, error) {
	obj, ok := jsonValue(v).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: a document must be a mapping of fields, with a kind", src)
	}
	kindName, _ := obj["kind"].(string)
	if kindName == "" {
		return nil, fmt.Errorf("%s: field kind is missing: give one of %s", src, strings.Join(KindNames(), ", "))
	}
	k := KindByName(kindName)
	if k == nil {
		return nil, fmt.Errorf("%s: unknown kind %q: valid kinds are %s", src, kindName, strings.Join(KindNames(), ", "))
	}
	delete(obj, "kind")
	if err := checkFields(k.Fields, obj, ""); err != nil {
		return nil, fmt.Errorf("%s (%s): %w", src, k.Name, err)
	}
	d := &Document{Source: src, Kind: k, Fields: obj}
	if err := k.check(d); err != nil {
		return nil, fmt.Errorf("%s (%s): %w", src, k.Name, err)
	}
	return d, nil
}

// jsonValue turns what the YAML decoder made into the values encoding/json
// makes (map[string]any, []any, float64, string, bool, nil), so documents
// compare equal to the server's answers.
func jsonValue(v any) any {
	raw, err := json.Marshal(yamlToJSONable(v))
	if err != nil {
		return nil
	}
	var out any
	_ = json.Unmarshal(raw, &out)
	return out
}

func yamlToJSONable(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = yamlToJSONable(e)
		}
		return m
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[fmt.Sprint(k)] = yamlToJSONable(e)
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = yamlToJSONable(e)
		}
		return out
	}
	return v
}

// Field types of a document.
type fieldType int

const (
	tString fieldType = iota
	tBool
	tInt
	tNumber
	tStrings
	tObject  // an object whose fields are checked by sub
	tObjects // a list of such objects
	tAny     // read-only fields of an answer: accepted, never compared
)

type field struct {
	t   fieldType
	sub map[string]field
	// managed fields are the server's (links, created, counters, ids it
	// assigns): accepted in a document, ignored by the comparison.
	managed bool
}

func str() field                        { return field{t: tString} }
func boolean() field                    { return field{t: tBool} }
func integer() field                    { return field{t: tInt} }
func number() field                     { return field{t: tNumber} }
func strs() field                       { return field{t: tStrings} }
func object(sub map[string]field) field { return field{t: tObject, sub: sub} }
func objects(sub map[string]field) field {
	return field{t: tObjects, sub: sub}
}
func managed() field { return field{t: tAny, managed: true} }

var typeNames = map[fieldType]string{tString: "a string", tBool: "true or false", tInt: "a whole number",
	tNumber: "a number", tStrings: "a list of strings", tObject: "a mapping", tObjects: "a list of mappings"}

// checkFields reports the first unknown field or value of the wrong type,
// named by its path (notifications[0].delayMin).
func checkFields(schema map[string]field, obj map[string]any, prefix string) error {
	for _, k := range sortedKeys(obj) {
		v := obj[k]
		path := prefix + k
		f, ok := schema[k]
		if !ok {
			return fmt.Errorf("unknown field %s: valid fields are %s", path, strings.Join(sortedKeys(schema), ", "))
		}
		if v == nil || f.t == tAny {
			continue
		}
		bad := func() error { return fmt.Errorf("field %s must be %s, not %s", path, typeNames[f.t], describe(v)) }
		switch f.t {
		case tString:
			if _, ok := v.(string); !ok {
				return bad()
			}
		case tBool:
			if _, ok := v.(bool); !ok {
				return bad()
			}
		case tInt:
			n, ok := v.(float64)
			if !ok || n != float64(int64(n)) {
				return bad()
			}
		case tNumber:
			if _, ok := v.(float64); !ok {
				return bad()
			}
		case tStrings:
			l, ok := v.([]any)
			if !ok {
				return bad()
			}
			for i, e := range l {
				if _, ok := e.(string); !ok {
					return fmt.Errorf("field %s[%d] must be a string, not %s", path, i, describe(e))
				}
			}
		case tObject:
			m, ok := v.(map[string]any)
			if !ok {
				return bad()
			}
			if err := checkFields(f.sub, m, path+"."); err != nil {
				return err
			}
		case tObjects:
			l, ok := v.([]any)
			if !ok {
				return bad()
			}
			for i, e := range l {
				m, ok := e.(map[string]any)
				if !ok {
					return fmt.Errorf("field %s[%d] must be a mapping, not %s", path, i, describe(e))
				}
				if err := checkFields(f.sub, m, fmt.Sprintf("%s[%d].", path, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func describe(v any) string {
	switch t := v.(type) {
	case string:
		return fmt.Sprintf("the string %q", t)
	case bool:
		return fmt.Sprintf("%t", t)
	case float64:
		return fmt.Sprintf("the number %v", t)
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return "null"
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
