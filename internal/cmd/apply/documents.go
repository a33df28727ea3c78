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
	"sync"

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

// Invalid is a document apply cannot take, with every problem found in
// it: of its form, its fields, what identifies it and its secret
// references, all at once.
type Invalid struct {
	Source string
	// Line is the line of the file the document begins on (0 where the
	// file could not be read as far as its beginning).
	Line int
	// Kind is nil when the document names no known kind.
	Kind     *Kind
	Problems []string
}

// String names the document and its problems, one a line when several;
// the lines of a problem keep their own indentation under it.
func (iv Invalid) String() string {
	head := iv.Source
	if iv.Kind != nil {
		head += " (" + iv.Kind.Name + ")"
	}
	at := ""
	if iv.Line > 0 {
		at = fmt.Sprintf(" (document at line %d)", iv.Line)
	}
	if len(iv.Problems) == 1 {
		return head + ": " + strings.ReplaceAll(iv.Problems[0], "\n", "\n  ") + at
	}
	var b strings.Builder
	b.WriteString(head + at + ":")
	for _, p := range iv.Problems {
		b.WriteString("\n  " + strings.ReplaceAll(p, "\n", "\n  "))
	}
	return b.String()
}

// ReadDocuments reads every -f argument (a file, a directory of .yaml, .yml
// and .json files, or - for standard input) and validates each document.
// Every problem of every document is reported at once; no document is
// returned when any is invalid.
func ReadDocuments(ios *iostreams.IOStreams, files []string) ([]*Document, error) {
	return ReadDocumentsOf(ios, "-f", files)
}

// ReadDocumentsOf is ReadDocuments for the arguments of another flag
// (omctl server --apply), which its messages name. Invalid documents
// make a *DocumentsError.
func ReadDocumentsOf(ios *iostreams.IOStreams, flag string, files []string) ([]*Document, error) {
	docs, invalid, err := readDocuments(ios, flag, files)
	if err != nil {
		return nil, err
	}
	if len(invalid) > 0 {
		problems := make([]string, len(invalid))
		for i, iv := range invalid {
			problems[i] = iv.String()
		}
		return nil, &DocumentsError{Problems: problems}
	}
	return docs, nil
}

// DocumentsError lists every invalid document of a run, each with its
// problems, naming the document and the line it begins on.
type DocumentsError struct {
	Problems []string
}

func (e *DocumentsError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = strings.ReplaceAll(p, "\n", "\n  ")
	}
	return fmt.Sprintf("invalid documents, nothing was sent:\n  %s", strings.Join(lines, "\n  "))
}

// readDocuments is ReadDocumentsOf with the valid documents and the
// invalid ones apart, so that apply can still read and check the valid
// ones and report every problem of the run at once.
func readDocuments(ios *iostreams.IOStreams, flag string, files []string) ([]*Document, []Invalid, error) {
	if len(files) == 0 {
		return nil, nil, cmdutil.FlagErrorf("no documents: give %[1]s FILE, %[1]s DIR or %[1]s - (standard input)", flag)
	}
	var docs []*Document
	var invalid []Invalid
	for _, f := range files {
		names, err := expand(flag, f)
		if err != nil {
			return nil, nil, err
		}
		for _, name := range names {
			var data []byte
			if name == "-" {
				data, err = io.ReadAll(ios.In)
			} else {
				data, err = os.ReadFile(name)
			}
			if err != nil {
				return nil, nil, cmdutil.FlagErrorf("cannot read %s %s: %s", flag, name, cmdutil.DescribeFileError(err))
			}
			d, iv := parse(displayName(name), data)
			docs = append(docs, d...)
			invalid = append(invalid, iv...)
		}
	}
	if len(docs)+len(invalid) == 0 {
		return nil, nil, cmdutil.FlagErrorf("no documents in %s", strings.Join(files, ", "))
	}
	return docs, invalid, nil
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
func parse(name string, data []byte) ([]*Document, []Invalid) {
	if t := bytes.TrimSpace(data); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		return parseJSON(name, data)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*Document
	var invalid []Invalid
	for i := 1; ; i++ {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			break
		}
		src := fmt.Sprintf("%s#%d", name, i)
		if err != nil {
			invalid = append(invalid, Invalid{Source: src, Problems: []string{"not YAML or JSON: " + yamlProblem(err)}})
			break
		}
		if len(n.Content) == 0 || (n.Content[0].Kind == yaml.ScalarNode && n.Content[0].Tag == "!!null") {
			i-- // an empty document (a trailing ---) is not counted
			continue
		}
		line := n.Content[0].Line
		var v any
		if err := n.Decode(&v); err != nil {
			invalid = append(invalid, Invalid{Source: src, Line: line, Problems: []string{yamlProblem(err)}})
			continue
		}
		d, iv := newDocument(src, v)
		if iv != nil {
			iv.Line = line
			invalid = append(invalid, *iv)
			continue
		}
		d.Line = line
		docs = append(docs, d)
	}
	return docs, invalid
}

// yamlParserProblems are the problems of the YAML parser (not of its
// scanner), whose line the YAML library counts from 0 (line 2 is said to
// be line 1, and line 1 has no number at all), where it counts the
// scanner's from 1: yamlProblem counts them all from 1.
var yamlParserProblems = []string{
	"did not find expected ',' or ']'", "did not find expected ',' or '}'", "did not find expected '-' indicator",
	"did not find expected <document start>", "did not find expected <stream-start>", "did not find expected key",
	"did not find expected node content", "found duplicate %TAG directive", "found duplicate %YAML directive",
	"found incompatible YAML document", "found undefined tag handle",
}

// yamlLine is compiled when a document is wrong, not on every start
// (docs/performance.md, "Start-up").
var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^line (\d+): (.*)$`) })

// yamlProblem is the YAML library's error in a user's words: without its
// "yaml: " prefix, and with the line of the file it is on, counted from 1.
func yamlProblem(err error) string {
	var typeErr *yaml.TypeError
	if errors.As(err, &typeErr) {
		return strings.Join(typeErr.Errors, "; ") // each "line N: ...", counted from 1
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	problem, line := msg, 0
	if m := yamlLine().FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		problem = m[2]
	}
	if !slices.Contains(yamlParserProblems, problem) {
		return msg
	}
	return fmt.Sprintf("line %d: %s", line+1, problem)
}

func parseJSON(name string, data []byte) ([]*Document, []Invalid) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var values []jsonDoc
	for {
		start := dec.InputOffset()
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if errors.Is(err, io.EOF) {
			break
		}
		src := fmt.Sprintf("%s#%d", name, len(values)+1)
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, []Invalid{{Source: src, Problems: []string{"not JSON: the file ends inside a value"}}}
		}
		if err != nil {
			return nil, []Invalid{{Source: src, Problems: []string{"not JSON: " + cmdutil.DescribeJSONError(err)}}}
		}
		start += int64(len(data[start:]) - len(bytes.TrimLeft(data[start:], " \t\r\n")))
		values = append(values, jsonDocs(raw, lineAt(data, start))...)
	}
	var docs []*Document
	var invalid []Invalid
	for i, jd := range values {
		d, iv := newDocument(fmt.Sprintf("%s#%d", name, i+1), jd.v)
		if iv != nil {
			iv.Line = jd.line
			invalid = append(invalid, *iv)
			continue
		}
		d.Line = jd.line
		docs = append(docs, d)
	}
	return docs, invalid
}

// jsonDoc is one document of a JSON file and the line it begins on.
type jsonDoc struct {
	v    any
	line int
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

// newDocument checks one decoded document against its kind: its fields,
// what identifies it, and its secret references, every problem of each.
func newDocument(src string, v any) (*Document, *Invalid) {
	obj, ok := jsonValue(v).(map[string]any)
	if !ok {
		return nil, &Invalid{Source: src, Problems: []string{"a document must be a mapping of fields, with a kind"}}
	}
	kindName, _ := obj["kind"].(string)
	if kindName == "" {
		return nil, &Invalid{Source: src, Problems: []string{"field kind is missing: give one of " + strings.Join(KindNames(), ", ")}}
	}
	k := KindByName(kindName)
	if k == nil {
		return nil, &Invalid{Source: src, Problems: []string{fmt.Sprintf("unknown kind %q: valid kinds are %s", kindName, strings.Join(KindNames(), ", "))}}
	}
	delete(obj, "kind")
	iv := &Invalid{Source: src, Kind: k, Problems: checkSchema(k.Schema, obj)}
	d := &Document{Source: src, Kind: k, Fields: obj}
	if len(iv.Problems) == 0 {
		// What identifies it, once its fields are of the right types
		// (a wrong one is said once, by the schema).
		if err := k.check(d); err != nil {
			iv.Problems = append(iv.Problems, err.Error())
		}
	}
	res := secretref.Resolver{}.Resolve(obj)
	iv.Problems = append(iv.Problems, res.Report()...)
	if len(iv.Problems) > 0 {
		return nil, iv
	}
	d.Fields, d.Refs = res.Value.(map[string]any), res.Refs
	return d, nil
}

// checkSchema checks a document's fields with the rules the server checks
// a body with (internal/rules), on a copy: the document's values stay as
// written. Fields the server reads only (an answer's own) may repeat any
// value, since apply never sends them. The rules stop at a body's first
// problem, so each field is checked alone, and every field's is found.
func checkSchema(s rules.Schema, obj map[string]any) []string {
	current, err := numbered(obj)
	if err != nil {
		return []string{err.Error()}
	}
	var problems []string
	for _, k := range sortedKeys(obj) {
		one, _ := numbered(map[string]any{k: obj[k]})
		if e := s.Check(one, "", current); e != nil {
			problems = append(problems, ruleProblem(s, obj, e).Error())
		}
	}
	if len(problems) == 0 {
		// What only the whole body shows (none of the kinds' partial
		// schemas has such a rule today).
		body, _ := numbered(obj)
		if e := s.Check(body, "", current); e != nil {
			problems = append(problems, ruleProblem(s, obj, e).Error())
		}
	}
	return problems
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

// pathStep is compiled when apply reads documents, not on every start
// (docs/performance.md, "Start-up").
var pathStep = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^.\[\]]+|\[\d+\]`) })

func parentPath(path string) string {
	steps := pathStep().FindAllString(path, -1)
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
	for _, step := range pathStep().FindAllString(path, -1) {
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
	for _, step := range pathStep().FindAllString(path, -1) {
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
