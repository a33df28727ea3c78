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
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/secretref"
)

// Document is one resource of an apply file: its kind and its fields in
// the API's own names, as JSON values (numbers are float64).
type Document struct {
	// Source is "FILE#N", N counting documents of the file from 1.
	Source string
	// Line is the line of the file the document begins on, from 1.
	Line   int
	Kind   *Kind
	Fields map[string]any
	// Refs maps the path of each secret the document gives by reference
	// (${env:NAME}, ${file:PATH}) to it; Fields holds the secret.
	Refs map[string]secretref.Ref
}

// ReadDocuments reads every -f argument (a file, a directory of .yaml, .yml
// and .json files, or - for standard input) and validates each document.
// Every problem of every document is reported at once; no document is
// returned when any is invalid.
func ReadDocuments(ios *iostreams.IOStreams, files []string) ([]*Document, error) {
	return ReadDocumentsOf(ios, "-f", files)
}

// ReadDocumentsOf is ReadDocuments for the arguments of another flag
// (omctl server --apply), which its messages name. An invalid document
// makes a *DocumentsError.
func ReadDocumentsOf(ios *iostreams.IOStreams, flag string, files []string) ([]*Document, error) {
	if len(files) == 0 {
		return nil, cmdutil.FlagErrorf("no documents: give %[1]s FILE, %[1]s DIR or %[1]s - (standard input)", flag)
	}
	var docs []*Document
	var problems []string
	for _, f := range files {
		names, err := expand(flag, f)
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
				return nil, cmdutil.FlagErrorf("cannot read %s %s: %s", flag, name, cmdutil.DescribeFileError(err))
			}
			d, p := parse(displayName(name), data)
			docs = append(docs, d...)
			problems = append(problems, p...)
		}
	}
	if len(problems) > 0 {
		return nil, &DocumentsError{Problems: problems}
	}
	if len(docs) == 0 {
		return nil, cmdutil.FlagErrorf("no documents in %s", strings.Join(files, ", "))
	}
	return docs, nil
}

// DocumentsError lists every problem of the invalid documents of a run,
// each naming its document and the line the document begins on.
type DocumentsError struct {
	Problems []string
}

func (e *DocumentsError) Error() string {
	return fmt.Sprintf("invalid documents, nothing was sent:\n  %s", strings.Join(e.Problems, "\n  "))
}

// atLine tells where a document begins, after what is wrong with it.
func atLine(problem string, line int) string {
	return fmt.Sprintf("%s (document at line %d)", problem, line)
}

func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}

// expand lists the files of a directory argument, sorted, so a run applies
// them in a stable order.
func expand(flag, f string) ([]string, error) {
	if f == "-" {
		return []string{f}, nil
	}
	st, err := os.Stat(f)
	if err != nil {
		return nil, cmdutil.FlagErrorf("cannot read %s %s: %s", flag, f, cmdutil.DescribeFileError(err))
	}
	if !st.IsDir() {
		return []string{f}, nil
	}
	entries, err := os.ReadDir(f)
	if err != nil {
		return nil, cmdutil.FlagErrorf("cannot read %s %s: %s", flag, f, cmdutil.DescribeFileError(err))
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
		return nil, cmdutil.FlagErrorf("%s %s: the directory holds no .yaml, .yml or .json file", flag, f)
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
			// The decoder's message says the line.
			problems = append(problems, fmt.Sprintf("%s: not YAML or JSON: %s", src, strings.TrimPrefix(err.Error(), "yaml: ")))
			break
		}
		if len(n.Content) == 0 || (n.Content[0].Kind == yaml.ScalarNode && n.Content[0].Tag == "!!null") {
			i-- // an empty document (a trailing ---) is not counted
			continue
		}
		line := n.Content[0].Line
		var v any
		if err := n.Decode(&v); err != nil {
			problems = append(problems, atLine(fmt.Sprintf("%s: %s", src, strings.TrimPrefix(err.Error(), "yaml: ")), line))
			continue
		}
		d, err := newDocument(src, v)
		if err != nil {
			problems = append(problems, atLine(err.Error(), line))
			continue
		}
		d.Line = line
		docs = append(docs, d)
	}
	return docs, problems
}

// jsonDoc is one document of a JSON file and the line it begins on.
type jsonDoc struct {
	v    any
	line int
}

func parseJSON(name string, data []byte) ([]*Document, []string) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var values []jsonDoc
	for {
		start := dec.InputOffset()
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, []string{fmt.Sprintf("%s#%d: not JSON: the file ends inside a value", name, len(values)+1)}
		}
		if err != nil {
			return nil, []string{fmt.Sprintf("%s#%d: not JSON: %s", name, len(values)+1, cmdutil.DescribeJSONError(err))}
		}
		start += int64(len(data[start:]) - len(bytes.TrimLeft(data[start:], " \t\r\n")))
		values = append(values, jsonDocs(raw, lineAt(data, start))...)
	}
	var docs []*Document
	var problems []string
	for i, jd := range values {
		d, err := newDocument(fmt.Sprintf("%s#%d", name, i+1), jd.v)
		if err != nil {
			problems = append(problems, atLine(err.Error(), jd.line))
			continue
		}
		d.Line = jd.line
		docs = append(docs, d)
	}
	return docs, problems
}

// jsonDocs are the documents of one JSON value that begins on line: the
// value, or the elements of an array, each on the line it begins on.
func jsonDocs(raw json.RawMessage, line int) []jsonDoc {
	if raw[0] != '[' {
		var v any
		_ = json.Unmarshal(raw, &v) // it decoded already
		return []jsonDoc{{v, line}}
	}
	var out []jsonDoc
	dec := json.NewDecoder(bytes.NewReader(raw))
	_, _ = dec.Token() // [
	for dec.More() {
		at := dec.InputOffset()
		at += int64(len(raw[at:]) - len(bytes.TrimLeft(raw[at:], " \t\r\n,")))
		var v any
		_ = dec.Decode(&v)
		out = append(out, jsonDoc{v, line + bytes.Count(raw[:at], []byte("\n"))})
	}
	return out
}

// lineAt is the line of data that offset falls on, from 1.
func lineAt(data []byte, offset int64) int {
	return 1 + bytes.Count(data[:offset], []byte("\n"))
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
	if err := checkSchema(k.Schema, obj); err != nil {
		return nil, fmt.Errorf("%s (%s): %w", src, k.Name, err)
	}
	d := &Document{Source: src, Kind: k, Fields: obj}
	if err := k.check(d); err != nil {
		return nil, fmt.Errorf("%s (%s): %w", src, k.Name, err)
	}
	res := secretref.Resolver{}.Resolve(obj)
	if len(res.Problems) > 0 {
		return nil, fmt.Errorf("%s (%s): %s", src, k.Name, strings.Join(res.Problems, "; "))
	}
	d.Fields, d.Refs = res.Value.(map[string]any), res.Refs
	return d, nil
}

// checkSchema checks a document's fields with the rules the server checks
// a body with (internal/rules), on a copy: the document's values stay as
// written. Fields the server reads only (an answer's own) may repeat any
// value, since apply never sends them.
func checkSchema(s rules.Schema, obj map[string]any) error {
	body, err := numbered(obj)
	if err != nil {
		return err
	}
	current, _ := numbered(obj)
	if e := s.Check(body, "", current); e != nil {
		return ruleProblem(s, obj, e)
	}
	return nil
}

// numbered is a deep copy of a JSON object with its numbers as
// json.Number, the form rules checks.
func numbered(obj map[string]any) (map[string]any, error) {
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out map[string]any
	err = dec.Decode(&out)
	return out, err
}

// ruleProblem tells a refusal of the rules in a document's terms: a value
// of the wrong type as the user wrote it, an unknown field with the fields
// there are; other refusals as the rules word them.
func ruleProblem(s rules.Schema, obj map[string]any, e *rules.Error) error {
	name := ""
	if len(e.Params) > 0 {
		name, _ = e.Params[0].(string)
	}
	switch e.Code {
	case "INVALID_ATTRIBUTE":
		if parent, field, ok := schemaAt(s, parentPath(name)); ok && len(e.Params) == 1 {
			if field != nil {
				parent = field.Attributes()
			}
			return fmt.Errorf("unknown field %s: valid fields are %s", name, strings.Join(sortedKeys(parent), ", "))
		}
	case "INVALID_JSON_ATTRIBUTE":
		if _, f, ok := schemaAt(s, name); ok && f != nil && strings.Contains(e.Detail, "does not match expected format") {
			return fmt.Errorf("field %s must be %s, not %s", name, kindName(f), describe(valueAt(obj, name)))
		}
	}
	return errors.New(e.Rule())
}

var kindNames = map[rules.Kind]string{rules.KindString: "a string", rules.KindBool: "true or false",
	rules.KindInt: "a whole number", rules.KindNumber: "a number", rules.KindTime: "an ISO 8601 timestamp",
	rules.KindObject: "a mapping", rules.KindArray: "a list", rules.KindAny: "a value"}

func kindName(f *rules.Field) string {
	if f.Kind() == rules.KindArray && f.Elem() != nil {
		switch f.Elem().Kind() {
		case rules.KindString:
			return "a list of strings"
		case rules.KindObject:
			return "a list of mappings"
		}
	}
	return kindNames[f.Kind()]
}

var pathStep = regexp.MustCompile(`[^.\[\]]+|\[\d+\]`)

func parentPath(path string) string {
	steps := pathStep.FindAllString(path, -1)
	if len(steps) == 0 {
		return ""
	}
	last := steps[len(steps)-1]
	return strings.TrimSuffix(strings.TrimSuffix(path, last), ".")
}

// schemaAt finds the field of s at path (nil for the top level), and the
// schema that holds it.
func schemaAt(s rules.Schema, path string) (rules.Schema, *rules.Field, bool) {
	var f *rules.Field
	for _, step := range pathStep.FindAllString(path, -1) {
		if strings.HasPrefix(step, "[") {
			if f == nil || f.Elem() == nil {
				return nil, nil, false
			}
			f = f.Elem()
			continue
		}
		if f != nil {
			if s = f.Attributes(); s == nil {
				return nil, nil, false
			}
		}
		if f = s[step]; f == nil {
			return nil, nil, false
		}
	}
	return s, f, true
}

// valueAt is the value at path in a document.
func valueAt(v any, path string) any {
	for _, step := range pathStep.FindAllString(path, -1) {
		if strings.HasPrefix(step, "[") {
			i, _ := strconv.Atoi(strings.Trim(step, "[]"))
			l, _ := v.([]any)
			if i >= len(l) {
				return nil
			}
			v = l[i]
			continue
		}
		m, _ := v.(map[string]any)
		v = m[step]
	}
	return v
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

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
