package emit

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// toolsOf makes tools with the given numbers of versions.
func toolsOf(versions ...int) []*ir.Tool {
	tools := make([]*ir.Tool, len(versions))
	for i, n := range versions {
		tools[i] = &ir.Tool{Name: fmt.Sprintf("tool.%02d", i), Versions: make([]*ir.Version, n)}
	}
	return tools
}

// TestSplitKeepsToolsWholeAndInOrder checks the shard rule: runs of whole
// tools in publish order, each as full as it can be without passing the
// size, and a tool larger than the size alone in its shard.
func TestSplitKeepsToolsWholeAndInOrder(t *testing.T) {
	for _, c := range []struct {
		size     int
		versions []int
		want     [][]int // versions per tool, per shard
	}{
		{3, []int{1, 3, 1, 1, 2, 2, 5, 1}, [][]int{{1}, {3}, {1, 1}, {2}, {2}, {5}, {1}}},
		{4, []int{1, 3, 1, 1, 2, 2, 5, 1}, [][]int{{1, 3}, {1, 1, 2}, {2}, {5}, {1}}},
		{256, []int{3, 3, 3}, [][]int{{3, 3, 3}}},
		{2, nil, nil},
		{0, slices.Repeat([]int{3}, 100), [][]int{slices.Repeat([]int{3}, 85), slices.Repeat([]int{3}, 15)}},
	} {
		tools := toolsOf(c.versions...)
		parts := Layout{ShardSize: c.size}.split(tools)
		var got [][]int
		var flat []*ir.Tool
		for _, p := range parts {
			var counts []int
			for _, tool := range p {
				counts = append(counts, len(tool.Versions))
			}
			got = append(got, counts)
			flat = append(flat, p...)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("size %d, versions %v: shards %v, want %v", c.size, c.versions, got, c.want)
		}
		if !slices.Equal(flat, tools) {
			t.Errorf("size %d: the shards do not hold the tools once each, in order", c.size)
		}
	}
}

// TestShardNamesSortInOrder checks that shard names (and so directories
// and import paths) sort in shard order, with more digits past 1,000.
func TestShardNamesSortInOrder(t *testing.T) {
	for _, n := range []int{2, 1000, 1001} {
		parts := make([][]*ir.Tool, n)
		shards := Layout{ImportPath: "example.com/bank"}.shards(parts)
		names := make([]string, n)
		for i, s := range shards {
			names[i] = s.name
			if want := "example.com/bank/internal/" + s.name; s.path != want || s.dir != "internal/"+s.name {
				t.Errorf("shard %d: path %s, dir %s", i, s.path, s.dir)
			}
		}
		if !slices.IsSorted(names) {
			t.Errorf("%d shards: names do not sort in order: %v ... %v", n, names[:2], names[n-2:])
		}
		if want := fmt.Sprintf("shard%03d", n-1); n <= 1000 && names[n-1] != want {
			t.Errorf("%d shards: last is %s, want %s", n, names[n-1], want)
		}
		if n == 1001 && names[0] != "shard0000" {
			t.Errorf("1001 shards: first is %s, want shard0000", names[0])
		}
	}
}

// TestShardedPackage renders a package of 5 tools (10 versions) in shards
// of 4 versions: three shards of per-version code and a root whose
// functions only call them or are the package's own (client, serverInfo).
func TestShardedPackage(t *testing.T) {
	pkg := estateOf(t, 5)
	if _, err := Package(pkg, Layout{ShardSize: 4}); err == nil || !strings.Contains(err.Error(), "import path") {
		t.Fatalf("sharded without an import path: err = %v, want one asking for it", err)
	}
	files, err := Package(pkg, Layout{ShardSize: 4, ImportPath: "example.com/bank"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := Package(pkg, Layout{ShardSize: 4, ImportPath: "example.com/bank"})
	if err != nil || !slices.EqualFunc(files, again, func(a, b File) bool { return a.Name == b.Name && bytes.Equal(a.Data, b.Data) }) {
		t.Fatalf("a second rendering differs from the first (err %v): output must be deterministic", err)
	}
	byDir := map[string][]string{}
	parsed := map[string]*ast.File{}
	for _, f := range files {
		dir, name := path.Split(f.Name)
		byDir[dir] = append(byDir[dir], name)
		if !bytes.HasPrefix(f.Data, []byte("// "+Header+"\n")) {
			t.Errorf("%s does not start with the generated header", f.Name)
		}
		if formatted, err := format.Source(f.Data); err != nil || !bytes.Equal(formatted, f.Data) {
			t.Errorf("%s is not gofmt-clean (%v)", f.Name, err)
		}
		file, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Data, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		checkDocs(t, f.Name, file)
		parsed[f.Name] = file
	}
	shardFiles := []string{"client.gen.go", "decode.gen.go", "schemas.gen.go", "server.gen.go", "types.gen.go"}
	want := map[string][]string{
		"":                   {"client.gen.go", "decode.gen.go", "server.gen.go", "types.gen.go"},
		"internal/shard000/": shardFiles,
		"internal/shard001/": shardFiles,
		"internal/shard002/": shardFiles,
	}
	if fmt.Sprint(byDir) != fmt.Sprint(want) {
		t.Fatalf("files %v, want %v", byDir, want)
	}
	// The root's client calls its shards', which encode the arguments:
	// the root does not compile an encoding per argument type.
	for _, f := range files {
		if f.Name == "client.gen.go" && (bytes.Contains(f.Data, []byte("CallTool(")) || !bytes.Contains(f.Data, []byte("shard000.Call"))) {
			t.Errorf("the root's client does not call its shards:\n%s", f.Data)
		}
	}
	for i := range 3 {
		file := parsed[fmt.Sprintf("internal/shard%03d/server.gen.go", i)]
		if file.Name.Name != fmt.Sprintf("shard%03d", i) || file.Doc == nil {
			t.Errorf("shard %d: package %s, doc %v", i, file.Name.Name, file.Doc)
		}
		table := varLiteral(t, file, "toolVersions")
		if want := []int{4, 4, 2}[i]; len(table.Elts) != want {
			t.Errorf("shard %d binds %d versions, want %d", i, len(table.Elts), want)
		}
	}
	// The root holds no per-version code: each of its functions is a
	// one-line call of a shard's, or one of the package's own.
	own := []string{"Specs", "Register", "RepairArguments", "Resources", "Prompts", "Options", "NewClient"}
	for _, name := range []string{"decode.gen.go", "server.gen.go", "types.gen.go"} {
		file := parsed[name]
		imports := map[string]bool{}
		for _, imp := range file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			imports[p] = true
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || slices.Contains(own, fd.Name.Name) {
				continue
			}
			ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
			if len(fd.Body.List) != 1 || !ok {
				t.Errorf("%s: func %s is more than a call of its shard's", name, fd.Name.Name)
				continue
			}
			call := ret.Results[0].(*ast.CallExpr).Fun.(*ast.SelectorExpr)
			if pkg := call.X.(*ast.Ident).Name; call.Sel.Name != fd.Name.Name || !strings.HasPrefix(pkg, "shard") || !imports["example.com/bank/internal/"+pkg] {
				t.Errorf("%s: func %s calls %s.%s", name, fd.Name.Name, pkg, call.Sel.Name)
			}
		}
	}
}
