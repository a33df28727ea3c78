package omtest_test

import (
	"bytes"
	"flag"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/api.txt with the package's exported API")

// TestExportedAPIIsKept holds omtest to its compatibility promise: every
// exported name of testdata/api.txt is still there with the same
// signature. The file lists one declaration a line, without parameter
// names or comments, which change no caller; `go doc -all` would fail on
// a reworded comment, and print differently from one Go release to the
// next. A name added fails too, until recorded with
// `go test ./omtest -run TestExportedAPIIsKept -update`: new API is a
// promise as well, made on purpose.
func TestExportedAPIIsKept(t *testing.T) {
	got := exportedAPI(t)
	golden := filepath.Join("testdata", "api.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("removed or changed, which breaks the programs that use it: %s", w)
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			t.Errorf("new, not in %s yet (record it with -update once it is meant to be kept): %s", golden, g)
		}
	}
}

// exportedAPI lists the exported declarations of the package's source, a
// line each, sorted.
func exportedAPI(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			lines = append(lines, declLines(fset, decl)...)
		}
	}
	slices.Sort(lines)
	return lines
}

func declLines(fset *token.FileSet, decl ast.Decl) []string {
	switch d := decl.(type) {
	case *ast.FuncDecl:
		if !d.Name.IsExported() {
			return nil
		}
		if d.Recv == nil {
			return []string{"func " + d.Name.Name + signature(fset, d.Type)}
		}
		recv := d.Recv.List[0].Type
		base := recv
		if star, ok := recv.(*ast.StarExpr); ok {
			base = star.X
		}
		if id, ok := base.(*ast.Ident); !ok || !id.IsExported() {
			return nil
		}
		return []string{"method (" + expr(fset, recv) + ") " + d.Name.Name + signature(fset, d.Type)}
	case *ast.GenDecl:
		var lines []string
		for _, spec := range d.Specs {
			switch s := spec.(type) {
			case *ast.TypeSpec:
				lines = append(lines, typeLines(fset, s)...)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.IsExported() {
						line := d.Tok.String() + " " + n.Name
						if s.Type != nil {
							line += " " + expr(fset, s.Type)
						}
						lines = append(lines, line)
					}
				}
			}
		}
		return lines
	}
	return nil
}

// typeLines is a type, and for a struct each exported field (a field
// removed breaks the programs that set it by name).
func typeLines(fset *token.FileSet, s *ast.TypeSpec) []string {
	if !s.Name.IsExported() {
		return nil
	}
	st, isStruct := s.Type.(*ast.StructType)
	if !isStruct {
		return []string{"type " + s.Name.Name + " " + expr(fset, s.Type)}
	}
	lines := []string{"type " + s.Name.Name + " struct"}
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			lines = append(lines, "field "+s.Name.Name+" embeds "+expr(fset, f.Type))
		}
		for _, n := range f.Names {
			if n.IsExported() {
				lines = append(lines, "field "+s.Name.Name+"."+n.Name+" "+expr(fset, f.Type))
			}
		}
	}
	return lines
}

// signature is a function's parameters and results, their types only.
func signature(fset *token.FileSet, fn *ast.FuncType) string {
	types := func(fl *ast.FieldList) []string {
		var out []string
		if fl == nil {
			return nil
		}
		for _, f := range fl.List {
			for range max(len(f.Names), 1) {
				out = append(out, expr(fset, f.Type))
			}
		}
		return out
	}
	sig := "(" + strings.Join(types(fn.Params), ", ") + ")"
	switch res := types(fn.Results); len(res) {
	case 0:
	case 1:
		sig += " " + res[0]
	default:
		sig += " (" + strings.Join(res, ", ") + ")"
	}
	return sig
}

func expr(fset *token.FileSet, e ast.Expr) string {
	var b bytes.Buffer
	printer.Fprint(&b, fset, e)
	return b.String()
}
