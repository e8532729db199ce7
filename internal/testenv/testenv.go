// Package testenv holds what the runtime's tests need to know about how
// they run and what they test: whether the race detector is on, and the
// package's own source.
package testenv

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// PackageSource parses the package the test runs in (its directory's .go
// files, tests left out), for a test that checks something of every call
// the package makes, so that a call added later is checked too.
func PackageSource(t testing.TB) (*token.FileSet, []*ast.File) {
	t.Helper()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		t.Fatal("no Go source in the test's directory")
	}
	return fset, files
}
