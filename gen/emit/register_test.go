package emit

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"testing"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// estateOf lays out a package of tools tool.0 … tool.(n-1), two versions
// each.
func estateOf(t *testing.T, n int) *ir.Package {
	t.Helper()
	var specs []estate.ToolSpec
	for i := range n {
		for _, v := range []string{"1.0.0", "2.0.0"} {
			specs = append(specs, estate.ToolSpec{
				Name: fmt.Sprintf("tool.t%d", i), Version: estate.MustParseVersion(v), Title: "t", Description: "d",
				InputSchema: schema.MustParseJSON(`{"type":"object","properties":{"reference":{"type":"string","pattern":"^P"}},"required":["reference"]}`),
				SideEffect:  estate.Read, DataClassification: estate.Internal, Owner: "o",
			})
		}
	}
	p, err := ir.Build("bank", specs, ir.Server{Name: "bank", Version: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// generated renders p and parses the file name of it.
func generated(t *testing.T, p *ir.Package, name string) *ast.File {
	t.Helper()
	files, err := Package(p, Layout{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Name != name {
			continue
		}
		if formatted, err := format.Source(f.Data); err != nil || string(formatted) != string(f.Data) {
			t.Fatalf("%s is not gofmt-clean (%v)", name, err)
		}
		file, err := parser.ParseFile(token.NewFileSet(), name, f.Data, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		return file
	}
	t.Fatalf("no %s generated", name)
	return nil
}

// varLiteral is the composite literal the package-level var name of file
// is initialised with.
func varLiteral(t *testing.T, file *ast.File, name string) *ast.CompositeLit {
	t.Helper()
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			if vs.Names[0].Name == name && len(vs.Values) == 1 {
				if lit, ok := vs.Values[0].(*ast.CompositeLit); ok {
					return lit
				}
				t.Fatalf("var %s is initialised with %T, not a composite literal", name, vs.Values[0])
			}
		}
	}
	t.Fatalf("no var %s in %s", name, file.Name.Name)
	return nil
}

// checkDocs reports every declaration of file without a doc comment.
func checkDocs(t *testing.T, name string, file *ast.File) {
	t.Helper()
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Doc == nil {
				t.Errorf("%s: func %s has no doc comment", name, d.Name.Name)
			}
		case *ast.GenDecl:
			if d.Tok != token.IMPORT && d.Doc == nil {
				t.Errorf("%s: %s declaration at offset %d has no doc comment", name, d.Tok, d.Pos())
			}
		}
	}
}

// nodes counts the syntax nodes under n.
func nodes(n ast.Node) int {
	c := 0
	ast.Inspect(n, func(ast.Node) bool { c++; return true })
	return c
}

// TestRegisterIsATable checks the shape that keeps go build of a large
// package linear: Specs and Register are loops over a table whose size
// alone grows with the estate, each version has small functions of its
// own, and the table is a literal of function names (static data, no init
// code).
func TestRegisterIsATable(t *testing.T) {
	sizes := map[string]int{}
	for _, tools := range []int{1, 5} {
		pkg := estateOf(t, tools)
		file := generated(t, pkg, "server.gen.go")
		funcs := map[string]*ast.FuncDecl{}
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				funcs[fd.Name.Name] = fd
			}
		}
		for _, name := range []string{"Specs", "Register"} {
			fd := funcs[name]
			if fd == nil {
				t.Fatalf("%d tools: no func %s", tools, name)
			}
			size := nodes(fd.Body)
			if prev, ok := sizes[name]; ok && prev != size {
				t.Errorf("%s has %d syntax nodes for %d tools and %d for 1: it grows with the estate", name, size, tools, prev)
			}
			sizes[name] = size
		}
		table := varLiteral(t, file, "toolVersions")
		if len(table.Elts) != 2*tools {
			t.Errorf("%d tools: toolVersions has %d rows, want %d", tools, len(table.Elts), 2*tools)
		}
		versions := newGen(pkg, wholePackage).versions()
		for i, e := range table.Elts {
			row := e.(*ast.CompositeLit)
			if len(row.Elts) != 2 {
				t.Fatalf("row %d has %d fields, want 2", i, len(row.Elts))
			}
			want := map[string]string{"Spec": specFunc(versions[i]), "Bind": bindFunc(versions[i])} // publish order
			for j, x := range row.Elts {
				kv, ok := x.(*ast.KeyValueExpr)
				if !ok {
					t.Fatalf("row %d field %d is %T, not Key: value", i, j, x)
				}
				id, ok := kv.Value.(*ast.Ident)
				if !ok {
					t.Fatalf("row %d field %d is %T, not a function name: the table would need init code", i, j, kv.Value)
				}
				if key := kv.Key.(*ast.Ident).Name; id.Name != want[key] {
					t.Errorf("row %d field %d is %s, want %s", i, j, id.Name, want[kv.Key.(*ast.Ident).Name])
				}
				fd := funcs[id.Name]
				if fd == nil || fd.Recv != nil {
					t.Fatalf("row %d names %s, which is no function of the file", i, id.Name)
				}
				if n := nodes(fd.Body); n > 200 {
					t.Errorf("%s has %d syntax nodes: a version's function should be small", id.Name, n)
				}
			}
		}
		checkDocs(t, "server.gen.go", file)
	}
}

// TestRepairArgumentsSearchesTheTable checks that RepairArguments is a call
// over the table of versions (runtime/mcp searches it) that does not grow
// with the estate.
func TestRepairArgumentsSearchesTheTable(t *testing.T) {
	size := -1
	for _, tools := range []int{1, 12} {
		file := generated(t, estateOf(t, tools), "server.gen.go")
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "RepairArguments" {
				if n := nodes(fd.Body); size >= 0 && n != size {
					t.Errorf("RepairArguments has %d syntax nodes for %d tools and %d for 1: it grows with the estate", n, tools, size)
				} else {
					size = n
				}
				found := false
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok && id.Name == "toolVersions" {
						found = true
					}
					return true
				})
				if !found {
					t.Error("RepairArguments does not search toolVersions")
				}
			}
		}
		if size < 0 {
			t.Fatal("no func RepairArguments")
		}
	}
}
