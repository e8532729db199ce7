package mcp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// TestMemberNamesAreRegistered: a params object keeps only the members
// whose names are registered with jsonrpc.RegisterNames (see
// members.split), so every name this package looks up with member or str
// must be, or that member is never found.
func TestMemberNamesAreRegistered(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	seen := 0
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			lit, isLit := call.Args[0].(*ast.BasicLit)
			if !ok || !isLit || lit.Kind != token.STRING || (sel.Sel.Name != "member" && sel.Sel.Name != "str") {
				return true
			}
			name, _ := strconv.Unquote(lit.Value)
			seen++
			if _, ok := jsonrpc.Lookup([]byte(name)); !ok {
				t.Errorf("%s: %q is looked up but not registered", fset.Position(lit.Pos()), name)
			}
			return true
		})
	}
	if seen < 10 {
		t.Errorf("found only %d lookups: the test no longer sees them", seen)
	}
}
