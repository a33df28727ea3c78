// Package secretref resolves the references a document or request body
// may give in place of a secret, so that files kept in git never hold one
// (docs/apply.md, Secrets):
//
//	${env:NAME}   the value of the environment variable NAME
//	${file:PATH}  the content of the file PATH, one trailing newline dropped
//
// A reference is the whole value of a secret field; nothing else is
// expanded and no shell is run.
package secretref

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/omctl/omctl/internal/rules"
)

// MaxFileBytes bounds a secret read from a file: a secret is short, and a
// reference to a large file is a mistake.
const MaxFileBytes = 64 << 10

// Compiled when a reference is read, not on every start
// (docs/performance.md, "Start-up").
var (
	envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })
	refRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\$\{(env|file):([^}]*)\}$`) })
)

// Ref is one reference: its source (env or file) and the variable's name
// or the file's path.
type Ref struct{ Source, Name string }

func (r Ref) String() string { return "${" + r.Source + ":" + r.Name + "}" }

// Env is the reference to the environment variable name.
func Env(name string) Ref { return Ref{"env", name} }

// Parse reads a value that is a reference; ok is false when s is not one.
func Parse(s string) (Ref, bool) {
	m := refRE().FindStringSubmatch(s)
	if m == nil {
		return Ref{}, false
	}
	return Ref{m[1], m[2]}, true
}

// mentions says whether s holds something that looks like a reference
// without being one whole: a mistake to report, not a value to send.
func mentions(s string) bool {
	return strings.Contains(s, "${env:") || strings.Contains(s, "${file:")
}

// Resolver reads references; its zero value reads the process's
// environment and files.
type Resolver struct {
	Getenv   func(string) (string, bool)
	ReadFile func(string) ([]byte, error)
}

// Value is the secret a reference gives; the error names the reference,
// never a value.
func (r Resolver) Value(ref Ref) (string, error) {
	switch ref.Source {
	case "env":
		if !envName().MatchString(ref.Name) {
			return "", fmt.Errorf("%s: %q is not an environment variable name (letters, digits and _)", ref, ref.Name)
		}
		getenv := r.Getenv
		if getenv == nil {
			getenv = os.LookupEnv
		}
		v, ok := getenv(ref.Name)
		if !ok || v == "" {
			return "", fmt.Errorf("%s: the environment variable %s is %w", ref, ref.Name, errUnset)
		}
		return v, nil
	case "file":
		if ref.Name == "" {
			return "", fmt.Errorf("%s: give a file's path, as ${file:/run/secrets/NAME}", ref)
		}
		read := r.ReadFile
		if read == nil {
			read = readLimited
		}
		data, err := read(ref.Name)
		if err != nil {
			return "", fmt.Errorf("%s: cannot read the file: %s", ref, describeFileError(err))
		}
		v := strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r")
		if v == "" {
			return "", fmt.Errorf("%s: the file is empty", ref)
		}
		return v, nil
	}
	return "", fmt.Errorf("%s: unknown source %q: use ${env:NAME} or ${file:PATH}", ref, ref.Source)
}

var (
	errTooLarge = errors.New("larger than 64 KiB, too large for a secret")
	errUnset    = errors.New("not set")
)

func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, errors.New("it is a directory")
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, errTooLarge
	}
	return data, nil
}

// describeFileError is the reason of a file error without Go's "open
// PATH:", which the reference already names.
func describeFileError(err error) string {
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		return pathErr.Err.Error()
	}
	return err.Error()
}

// Resolved is what Resolve did to a JSON value.
type Resolved struct {
	// Value is the value with every reference replaced by its secret.
	Value any
	// Refs maps the path of each resolved field to its reference.
	Refs map[string]Ref
	// Problems name each reference that could not be resolved, and each
	// value that looks like a reference where none is allowed, by path;
	// references to environment variables that are not set are in Unset.
	Problems []string
	// Unset are the references to environment variables that are not set,
	// by path: often many at once (every secret of an export), so Report
	// lists them one short line each.
	Unset []Unset
}

// Unset is a reference to an environment variable that is not set.
type Unset struct{ Path, Name string }

// Report is every problem of a resolution: Problems, then the variables
// not set, one a line after a count, each with the field that needs it.
func (r Resolved) Report() []string {
	out := append([]string(nil), r.Problems...)
	if len(r.Unset) == 0 {
		return out
	}
	width := 0
	for _, u := range r.Unset {
		width = max(width, len(u.Name))
	}
	lines := make([]string, len(r.Unset))
	for i, u := range r.Unset {
		lines[i] = fmt.Sprintf("  %-*s  %s", width, u.Name, u.Path)
	}
	head := "the environment variable of 1 secret reference is not set:"
	if len(r.Unset) > 1 {
		head = fmt.Sprintf("the environment variables of %d secret references are not set:", len(r.Unset))
	}
	return append(out, head+"\n"+strings.Join(lines, "\n"))
}

// Resolve replaces, in a copy of v (values as encoding/json decodes
// them), each reference held by a secret field (rules.SecretFields) with
// its secret.
func (r Resolver) Resolve(v any) Resolved {
	out := Resolved{Refs: map[string]Ref{}}
	out.Value = r.walk(v, "", "", &out)
	sort.Strings(out.Problems)
	sort.Slice(out.Unset, func(i, j int) bool { return out.Unset[i].Path < out.Unset[j].Path })
	return out
}

func (r Resolver) walk(v any, key, path string, out *Resolved) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = r.walk(e, k, rules.JoinPath(path, k), out)
		}
		return m
	case []any:
		l := make([]any, len(t))
		for i, e := range t {
			l[i] = r.walk(e, key, path+"["+strconv.Itoa(i)+"]", out)
		}
		return l
	case string:
		ref, isRef := Parse(t)
		switch {
		case isRef && rules.SecretFields[key]:
			s, err := r.Value(ref)
			if errors.Is(err, errUnset) {
				out.Unset = append(out.Unset, Unset{Path: path, Name: ref.Name})
				return t
			}
			if err != nil {
				out.Problems = append(out.Problems, fmt.Sprintf("%s: %s", path, err))
				return t
			}
			out.Refs[path] = ref
			return s
		case isRef || mentions(t):
			if rules.SecretFields[key] {
				out.Problems = append(out.Problems, fmt.Sprintf("%s: a reference must be the whole value, as ${env:NAME} or ${file:PATH}", path))
			} else {
				out.Problems = append(out.Problems, fmt.Sprintf("%s: references (${env:...}, ${file:...}) are read only in secret fields, and %s is not one", path, key))
			}
		}
	}
	return v
}
