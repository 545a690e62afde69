package fast

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestFastFormsNeverRecord: the fast engine never reads the journal flag
// (core.Wave.JOn) or writes the journal; a journaled step never runs a
// fast form, so a form that tested the flag would be choosing an engine
// per instruction, which only emu's form does.
func TestFastFormsNeverRecord(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no sources: %v", err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(af, func(n ast.Node) bool {
			if se, ok := n.(*ast.SelectorExpr); ok && (se.Sel.Name == "JOn" || se.Sel.Name == "J") {
				t.Errorf("%s: the fast engine reads the journal (%s)", fset.Position(se.Pos()), se.Sel.Name)
			}
			return true
		})
	}
	if checked < 20 {
		t.Fatalf("checked %d files; the package has more", checked)
	}
}
