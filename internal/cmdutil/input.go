package cmdutil

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/omctl/omctl/internal/iostreams"
)

// MaxInputBytes bounds a request body read from a file: the server refuses
// more than 1 MiB anyway.
const MaxInputBytes = 1 << 20

// ReadJSONInput reads the JSON document of --file (a path, or - for
// standard input) and checks that it is JSON.
func ReadJSONInput(ios *iostreams.IOStreams, file string) ([]byte, error) {
	var r io.Reader
	name := file
	switch file {
	case "":
		return nil, FlagErrorf("no input: give --file FILE, or --file - to read standard input")
	case "-":
		r, name = ios.In, "standard input"
	default:
		fh, err := os.Open(file)
		if err != nil {
			return nil, FlagErrorf("reading --file: %v", err)
		}
		defer fh.Close()
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
		var v any
		err := json.Unmarshal(data, &v)
		return nil, FlagErrorf("%s is not valid JSON: %v", name, err)
	}
	return data, nil
}

// Title capitalises the first letter of a word.
func Title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
