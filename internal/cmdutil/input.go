package cmdutil

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/iostreams"
)

// MaxInputBytes bounds a request body read from a file: the server refuses
// more than 1 MiB anyway.
const MaxInputBytes = api.MaxBodyBytes

// ReadJSONInput reads the JSON document named by a flag (--file or
// --input): a path, or - for standard input. It checks that it is JSON.
func ReadJSONInput(ios *iostreams.IOStreams, flag, file string) ([]byte, error) {
	var r io.Reader
	name := file
	switch file {
	case "":
		return nil, FlagErrorf("no input: give %s FILE, or %s - to read standard input", flag, flag)
	case "-":
		r, name = ios.In, "standard input"
	default:
		fh, err := os.Open(file)
		if err != nil {
			return nil, FlagErrorf("cannot read %s %s: %s", flag, file, DescribeFileError(err))
		}
		defer fh.Close()
		if st, err := fh.Stat(); err == nil && st.IsDir() {
			return nil, FlagErrorf("cannot read %s %s: it is a directory; give a JSON file, or - for standard input", flag, file)
		}
		r = fh
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if len(data) > MaxInputBytes {
		return nil, FlagErrorf("%s is larger than %d bytes, the most the server accepts", name, MaxInputBytes)
	}
	if !json.Valid(data) {
		return nil, FlagErrorf("%s is not valid JSON: %s", name, describeJSONError(data))
	}
	return data, nil
}

// DescribeFileError says why a file could not be read, without Go's
// "open PATH:" prefix.
func DescribeFileError(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		return pathErr.Err.Error()
	}
	return err.Error()
}

// describeJSONError says where invalid JSON goes wrong, by line and column.
func describeJSONError(data []byte) string {
	var v any
	err := json.Unmarshal(data, &v)
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		line, col := lineCol(data, syn.Offset)
		return fmt.Sprintf("line %d, column %d: %s", line, col, syn.Error())
	}
	if err != nil {
		return err.Error()
	}
	return "unexpected content"
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(data []byte, offset int64) (line, col int) {
	line, col = 1, 1
	for i := int64(0); i < offset-1 && i < int64(len(data)); i++ {
		if data[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// Title capitalises the first letter of a word.
func Title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// DecodeAnswer reads the resource of a server's answer (unwrapping an
// envelope) into v, so a confirmation can say what the server did rather
// than what was asked.
func DecodeAnswer(content []byte, what string, v any) error {
	if err := json.Unmarshal(content, v); err != nil {
		return fmt.Errorf("the server's answer is not %s", what)
	}
	return nil
}

// DescribeJSONError says what is wrong with a JSON document in a user's
// terms ("s3MaxConnections: got a string, want an integer"), never in Go's
// ("cannot unmarshal string into Go struct field S3Store.s3MaxConnections
// of type int64").
func DescribeJSONError(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		got := typeErr.Value
		if i := strings.IndexByte(got, ' '); i > 0 {
			got = got[:i] // "number 1.5" -> "number"
		}
		msg := fmt.Sprintf("got %s %s, want %s", article(got), got, jsonKind(typeErr.Type))
		if typeErr.Field != "" {
			msg = typeErr.Field + ": " + msg
		}
		return msg
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return syn.Error()
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// jsonKind names what JSON a Go type takes.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "another value"
}

func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}
