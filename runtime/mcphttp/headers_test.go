package mcphttp

import (
	"go/ast"
	"go/token"
	"net/http"
	"strconv"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testenv"
)

// TestHeaderNamesAreCanonical: header and headerValue read a request's
// Header map as it is, which holds only canonical names, so every name
// this package passes them, or indexes a Header with, must be canonical;
// one that is not would never be found. The package's source is read for
// the calls, so a new one is checked too: a name is a string literal or
// one of the package's string constants.
func TestHeaderNamesAreCanonical(t *testing.T) {
	fset, files := testenv.PackageSource(t)
	consts := map[string]string{}
	for _, f := range files {
		for _, decl := range f.Decls {
			if d, ok := decl.(*ast.GenDecl); ok && d.Tok == token.CONST {
				for _, spec := range d.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if i < len(vs.Values) {
							if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
								consts[name.Name], _ = strconv.Unquote(lit.Value)
							}
						}
					}
				}
			}
		}
	}
	checked := 0
	check := func(at token.Pos, e ast.Expr) {
		var name string
		switch e := e.(type) {
		case *ast.BasicLit:
			name, _ = strconv.Unquote(e.Value)
		case *ast.Ident:
			v, ok := consts[e.Name]
			if !ok {
				return // not a name of this package's: one the request chose
			}
			name = v
		default:
			return
		}
		checked++
		if c := http.CanonicalHeaderKey(name); c != name {
			t.Errorf("%v: header name %q is not canonical (%q)", fset.Position(at), name, c)
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && (id.Name == "header" || id.Name == "headerValue") && len(n.Args) == 2 {
					check(n.Pos(), n.Args[1])
				}
			case *ast.IndexExpr:
				// r.Header[...] and a response's header map, h[...].
				if sel, ok := n.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Header" {
					check(n.Pos(), n.Index)
				} else if id, ok := n.X.(*ast.Ident); ok && id.Name == "h" {
					check(n.Pos(), n.Index)
				}
			}
			return true
		})
	}
	if checked < 10 {
		t.Fatalf("only %d header names found in the source: the test no longer sees the calls", checked)
	}
	if http.CanonicalHeaderKey(HeaderLastEventID) != lastEventIDKey {
		t.Errorf("lastEventIDKey %q is not %s's canonical form", lastEventIDKey, HeaderLastEventID)
	}
}

// TestParseAccept: the answer forms an Accept header admits, media types
// compared without regard to case and read without their parameters.
func TestParseAccept(t *testing.T) {
	for _, tc := range []struct {
		values    []string
		json, sse bool
	}{
		{nil, true, true},
		{[]string{"application/json, text/event-stream"}, true, true},
		{[]string{"application/json"}, true, false},
		{[]string{"text/event-stream;q=0.9"}, false, true},
		{[]string{"Application/JSON"}, true, false},
		{[]string{"TEXT/Event-Stream ; q=1"}, false, true},
		{[]string{"*/*"}, true, true},
		{[]string{"application/*", "text/*"}, true, true},
		{[]string{"text/html, image/png"}, false, false},
		{[]string{""}, false, false},
	} {
		if got := parseAccept(tc.values); got.json != tc.json || got.sse != tc.sse {
			t.Errorf("%q: json %v sse %v, want %v %v", tc.values, got.json, got.sse, tc.json, tc.sse)
		}
	}
}
