// Package funclen bounds the length of a package's functions, which make
// lint's gocyclo does not: a function of more lines than a screen holds
// is one a reader cannot take in at once.
package funclen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Check fails t for each function or method of the Go files in dir,
// tests included, longer than max lines.
func Check(t *testing.T, dir string, max int) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			start, end := fset.Position(fd.Pos()), fset.Position(fd.End())
			if n := end.Line - start.Line + 1; n > max {
				t.Errorf("%s: %s is %d lines long; split it to %d or fewer", start, fd.Name.Name, n, max)
			}
		}
	}
}
