package api

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/omctl/omctl/internal/cmdutil"
)

// Fields are the -f and -F key=value pairs of `omctl api`, as in `gh api`.
type Fields struct {
	Raw   []string // -f: the value is a string
	Typed []string // -F: true, false, null and numbers are JSON; @FILE reads a file
}

// Empty reports whether no field was given.
func (f Fields) Empty() bool { return len(f.Raw) == 0 && len(f.Typed) == 0 }

// values turns the fields into their JSON values, in the order given.
func (f Fields) values() (keys []string, vals map[string]any, err error) {
	vals = map[string]any{}
	add := func(flag, pair string, typed bool) error {
		k, v, ok := strings.Cut(pair, "=")
		if !ok || k == "" {
			return cmdutil.FlagErrorf("invalid %s %q: want key=value", flag, pair)
		}
		if _, dup := vals[k]; dup {
			return cmdutil.FlagErrorf("field %q is given twice", k)
		}
		keys = append(keys, k)
		vals[k] = v
		if !typed {
			return nil
		}
		switch {
		case v == "true", v == "false", v == "null":
			vals[k] = map[string]any{"true": true, "false": false, "null": nil}[v]
		case strings.HasPrefix(v, "@"):
			data, err := os.ReadFile(v[1:])
			if err != nil {
				return cmdutil.FlagErrorf("cannot read -F %s: %s", k, cmdutil.DescribeFileError(err))
			}
			vals[k] = string(data)
		default:
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				vals[k] = n
			} else if x, err := strconv.ParseFloat(v, 64); err == nil {
				vals[k] = x
			}
		}
		return nil
	}
	for _, p := range f.Raw {
		if err := add("-f", p, false); err != nil {
			return nil, nil, err
		}
	}
	for _, p := range f.Typed {
		if err := add("-F", p, true); err != nil {
			return nil, nil, err
		}
	}
	return keys, vals, nil
}

// apply puts the fields where the method takes them: in the query of a GET,
// in a JSON object body otherwise.
func (f Fields) apply(method string, query url.Values) (body []byte, err error) {
	keys, vals, err := f.values()
	if err != nil || len(keys) == 0 {
		return nil, err
	}
	if method == http.MethodGet {
		for _, k := range keys {
			if vals[k] == nil {
				query.Set(k, "")
				continue
			}
			query.Set(k, fmt.Sprint(vals[k]))
		}
		return nil, nil
	}
	return json.Marshal(vals)
}

// writeHead prints the status line and headers of an answer, as -i asks.
func writeHead(w io.Writer, status int, header http.Header) error {
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP %d %s\n", status, http.StatusText(status))
	names := make([]string, 0, len(header))
	for n := range header {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for _, v := range header[n] {
			fmt.Fprintf(&b, "%s: %s\n", n, v)
		}
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}
