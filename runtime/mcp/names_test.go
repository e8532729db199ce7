package mcp

import (
	"go/ast"
	"go/token"
	"strconv"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/runtime/jsonrpc"
)

// TestMemberNamesAreRegistered: a params object keeps only the members
// whose names are registered with jsonrpc.RegisterNames (see
// members.split), so every name this package looks up with member or str
// must be, or that member is never found.
func TestMemberNamesAreRegistered(t *testing.T) {
	fset, files := testenv.PackageSource(t)
	seen := 0
	for _, f := range files {
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
