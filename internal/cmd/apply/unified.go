package apply

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/omctl/omctl/internal/cmdutil"
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

// contextLines is how many unchanged lines a hunk shows around a change,
// as diff -u does.
const contextLines = 3

// WriteDiff prints a plan as a unified diff: the server's resource
// against what the documents make of it, secrets masked, each change with
// a few lines of context rather than the whole resource. With color, the
// lines are coloured as git does.
func WriteDiff(w io.Writer, pl *Plan, color bool) {
	before, after := cmdutil.MaskPair("", pl.Before, pl.After)
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
	for _, h := range hunks(lineDiff(a, b), contextLines) {
		fmt.Fprintln(w, paint("36", fmt.Sprintf("@@ -%s +%s @@", span(h.aStart, h.aLen), span(h.bStart, h.bLen))))
		for _, l := range h.lines {
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
}

// hunk is a run of a diff's lines: its changes and their context.
type hunk struct {
	aStart, aLen, bStart, bLen int // 1-based starts, as diff -u counts
	lines                      []string
}

// hunks groups the lines of lineDiff into hunks, each change with up to
// n unchanged lines around it; changes closer than 2n lines share one.
func hunks(diff []string, n int) []hunk {
	var changed []int
	for i, l := range diff {
		if l[0] != ' ' {
			changed = append(changed, i)
		}
	}
	var out []hunk
	for k := 0; k < len(changed); {
		from := max(changed[k]-n, 0)
		last := changed[k]
		for k++; k < len(changed) && changed[k]-last <= 2*n; k++ {
			last = changed[k]
		}
		to := min(last+n+1, len(diff))
		// Where the hunk starts in a and b: lines before it count for
		// the side they are on.
		h := hunk{aStart: 1, bStart: 1}
		for _, l := range diff[:from] {
			if l[0] != '+' {
				h.aStart++
			}
			if l[0] != '-' {
				h.bStart++
			}
		}
		for _, l := range diff[from:to] {
			if l[0] != '+' {
				h.aLen++
			}
			if l[0] != '-' {
				h.bLen++
			}
		}
		h.lines = diff[from:to]
		out = append(out, h)
	}
	return out
}

// span is a hunk's range as diff -u writes it: an empty range names the
// line before it.
func span(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	return fmt.Sprintf("%d,%d", start, n)
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
