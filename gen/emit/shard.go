package emit

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// DefaultShardSize is the most tool versions one Go package of the output
// holds unless Layout says otherwise. The Go compiler keeps a whole
// package in memory until it writes it, about 1.4 MiB per generated tool
// version of the benchmark's estate (300 versions compile in 0.45 GiB,
// 3,000 in 4.2 GiB as one package), so a package of 15,000 versions would
// need some 20 GiB; 256 versions compile in under 0.5 GiB, and the shards
// of a large estate compile in parallel. Shards pay from about a thousand
// versions, where one package would need more memory than a CI runner
// gives a compile; below that they cost a little build time and nothing
// else.
const DefaultShardSize = 256

// Layout says how Package lays a package out in Go packages.
//
// A package of at most ShardSize tool versions is one Go package. A larger
// one is a root package and shards: the shards, in the directories
// internal/shardNNN under the root, each hold the per-version code (types,
// decoders, schemas, repair, spec and binding) of a run of whole tools in
// publish order, at most ShardSize versions unless one tool alone has more.
// The root keeps the package's API as it is in one piece: the Handler and
// the Client, the argument and output types as aliases of the shards'
// types, and Decode, Repair and Client functions that call the shards'
// (which do the work, so that the root compiles a call per version and no
// encoding or generic instantiation of the shards' types). Code that
// uses the package does not see the layout, and the layout can change as
// the estate grows.
type Layout struct {
	// ShardSize is the most tool versions one Go package of the output
	// holds; zero or less means DefaultShardSize.
	ShardSize int
	// ImportPath is the generated package's import path, under which the
	// root imports its shards; needed only when the package is sharded.
	ImportPath string
}

func (l Layout) shardSize() int {
	if l.ShardSize <= 0 {
		return DefaultShardSize
	}
	return l.ShardSize
}

// Sharded reports whether a package of these tools is emitted as shards.
func (l Layout) Sharded(tools []*ir.Tool) bool { return len(l.split(tools)) > 1 }

// split cuts tools (in publish order) into runs of whole tools of at most
// ShardSize versions each; a tool with more versions than that is a run of
// its own.
func (l Layout) split(tools []*ir.Tool) [][]*ir.Tool {
	size := l.shardSize()
	var parts [][]*ir.Tool
	n := 0 // versions in the last part
	for _, t := range tools {
		if len(parts) == 0 || n > 0 && n+len(t.Versions) > size {
			parts = append(parts, nil)
			n = 0
		}
		parts[len(parts)-1] = append(parts[len(parts)-1], t)
		n += len(t.Versions)
	}
	return parts
}

// shard is one shard of a root package.
type shard struct {
	name  string // its package name, shard000
	dir   string // its directory under the root's, internal/shard000
	path  string // its import path
	tools []*ir.Tool
}

// shards names the parts: shard000, shard001 and so on (more digits when
// there are more than a thousand), so that their order is their names'.
func (l Layout) shards(parts [][]*ir.Tool) []*shard {
	width := max(3, len(strconv.Itoa(len(parts)-1)))
	out := make([]*shard, len(parts))
	for i, tools := range parts {
		name := fmt.Sprintf("shard%0*d", width, i)
		dir := path.Join("internal", name)
		out[i] = &shard{name: name, dir: dir, path: path.Join(l.ImportPath, dir), tools: tools}
	}
	return out
}

// countVersions is the number of tool versions of tools.
func countVersions(tools []*ir.Tool) int {
	n := 0
	for _, t := range tools {
		n += len(t.Versions)
	}
	return n
}

// forward emits, in a root of shards, the function name as a call of the
// function of the same name in the shard home, passing the parameters
// args on.
func forward(f *jen.File, home, name string, params, results *jen.Statement, args ...string) {
	ids := make([]jen.Code, len(args))
	for i, a := range args {
		ids[i] = jen.Id(a)
	}
	f.Func().Id(name).Add(params).Add(results).Block(jen.Return(jen.Qual(home, name).Call(ids...)))
	f.Line()
}

// shardDoc writes a shard's package comment.
func (g *gen) shardDoc(f *jen.File) {
	tools := g.pkg.Tools
	first, last := tools[0].Versions[0], tools[len(tools)-1].Versions[len(tools[len(tools)-1].Versions)-1]
	text := fmt.Sprintf("Package %s holds the code of the tool versions %s to\n"+
		"%s of package %s, which imports it. A large generated\n"+
		"package is compiled as several Go packages, so that no one compilation\n"+
		"holds it all; use package %s, whose API is the same however its shards\n"+
		"fall.", g.pkg.Name, first.Spec.Key(), last.Spec.Key(), g.rootName, g.rootName)
	for _, line := range strings.Split(text, "\n") {
		f.PackageComment(line)
	}
}

// shardedRegistry emits a root's Specs and Register: the shards' in turn.
// The shards hold runs of tools in publish order, so their versions one
// after the other are the package's in publish order.
func (g *gen) shardedRegistry(f *jen.File) {
	specs := make([]jen.Code, len(g.shards))
	for i, s := range g.shards {
		specs[i] = jen.Qual(s.path, "Specs").Call()
	}
	doc(f, specsDoc)
	f.Func().Id("Specs").Params().Index().Qual(pkgEstate, "ToolSpec").Block(
		jen.Return(jen.Qual("slices", "Concat").Call(specs...)),
	)
	f.Line()
	doc(f, registerDoc)
	f.Func().Id("Register").Params(jen.Id("s").Op("*").Qual(pkgMCP, "Server"), jen.Id("h").Id("Handler")).Error().BlockFunc(func(gr *jen.Group) {
		for _, s := range g.shards {
			gr.If(jen.Err().Op(":=").Qual(s.path, "Register").Call(jen.Id("s"), jen.Id("h")), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Err()),
			)
		}
		gr.Return(jen.Nil())
	})
	f.Line()
}

// shardedRepairDispatch emits a root's RepairArguments: a binary search for
// the shard of the tool, whose RepairArguments then finds the version.
func (g *gen) shardedRepairDispatch(f *jen.File) {
	doc(f, "shardRepair is the RepairArguments of one shard, with the first tool name\n"+
		"the shard holds.")
	f.Type().Id("shardRepair").Struct(
		jen.Comment("first is the name of the first tool of the shard."),
		jen.Id("first").String(),
		jen.Comment("repair is the shard's RepairArguments."),
		jen.Id("repair").Func().Add(repairArgumentsSignature()),
	)
	f.Line()
	doc(f, "shardRepairs is every shard's RepairArguments in tool-name order: the\n"+
		"shards hold runs of tools in that order, so a tool is in the last shard\n"+
		"whose first tool does not sort after it. A table initialised statically.")
	f.Var().Id("shardRepairs").Op("=").Index(jen.Op("...")).Id("shardRepair").ValuesFunc(func(gr *jen.Group) {
		for _, s := range g.shards {
			gr.Line().Values(jen.Lit(s.tools[0].Name), jen.Qual(s.path, "RepairArguments"))
		}
		gr.Line()
	})
	f.Line()
	doc(f, repairArgumentsDoc)
	f.Func().Id("RepairArguments").Add(repairArgumentsSignature()).Block(
		jen.List(jen.Id("i"), jen.Id("found")).Op(":=").Qual("slices", "BinarySearchFunc").Call(
			jen.Id("shardRepairs").Index(jen.Op(":")), jen.Id("name"),
			jen.Func().Params(jen.Id("s").Id("shardRepair"), jen.Id("name").String()).Int().Block(
				jen.Return(jen.Qual("strings", "Compare").Call(jen.Id("s").Dot("first"), jen.Id("name"))),
			),
		),
		jen.If(jen.Op("!").Id("found").Op("&&").Id("i").Op(">").Lit(0)).Block(
			jen.Id("i").Op("--"),
		),
		jen.Return(jen.Id("shardRepairs").Index(jen.Id("i")).Dot("repair").Call(jen.Id("name"), jen.Id("version"), jen.Id("raw"), jen.Id("defaults"))),
	)
}
