package apply

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// yamlLines renders a value as YAML lines, keys sorted; nil is no lines.
func yamlLines(v any) []string {
	if v == nil {
		return nil
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	_ = enc.Encode(v)
	_ = enc.Close()
	return strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
}

// WriteDiff prints a plan as a unified diff: the server's resource
// against what the documents make of it, secrets masked. With color, the
// lines are coloured as git does.
func WriteDiff(w io.Writer, pl *Plan, color bool) {
	before, after := maskPair("", pl.Before, pl.After)
	a, b := yamlLines(before), yamlLines(after)
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	from := "server/" + pl.Label
	if pl.Before == nil {
		from = "/dev/null"
	}
	fmt.Fprintln(w, paint("1", "--- "+from))
	fmt.Fprintln(w, paint("1", "+++ documents/"+pl.Label+" ("+pl.Doc.Source+")"))
	fmt.Fprintln(w, paint("36", fmt.Sprintf("@@ -%s +%s @@", span(len(a)), span(len(b)))))
	for _, l := range lineDiff(a, b) {
		switch l[0] {
		case '-':
			fmt.Fprintln(w, paint("31", l))
		case '+':
			fmt.Fprintln(w, paint("32", l))
		default:
			fmt.Fprintln(w, l)
		}
	}
}

func span(n int) string {
	if n == 0 {
		return "0,0"
	}
	return fmt.Sprintf("1,%d", n)
}

// lineDiff is the whole of a against b, each line prefixed by " ", "-"
// or "+", from their longest common subsequence.
func lineDiff(a, b []string) []string {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			out = append(out, " "+a[i])
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, "-"+a[i])
			i++
		default:
			out = append(out, "+"+b[j])
			j++
		}
	}
	return out
}
