package emit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dave/jennifer/jen"
)

const pkgClient = "github.com/mcpgen/mcpgen/runtime/client"

// client emits the typed client: one method per tool version, taking the
// generated argument type. Every call pins the exact version it was
// generated from and that version's schema hash (seed 004): when the
// server's contract has moved under the caller, the call fails with a
// *drift.Error and the tool does not run.
func (g *gen) client() *jen.File {
	f := newFile(g.pkg)
	f.ImportName(pkgClient, "client")
	doc(f, "Client calls the estate's tools with typed arguments over any MCP connection\n"+
		"(a *client.Client of the runtime, or anything that implements\n"+
		"client.ToolCaller). Each method pins its version and schema hash.")
	f.Type().Id("Client").Struct(jen.Id("conn").Qual(pkgClient, "ToolCaller"))
	f.Line()
	doc(f, "NewClient returns a typed client over conn.")
	f.Func().Id("NewClient").Params(jen.Id("conn").Qual(pkgClient, "ToolCaller")).Op("*").Id("Client").Block(
		jen.Return(jen.Op("&").Id("Client").Values(jen.Dict{jen.Id("conn"): jen.Id("conn")})),
	)
	f.Line()
	for _, v := range g.versions() {
		life := v.Spec.Lifecycle.OrActive()
		docf(f, "%s calls %s (%s): %s.\nThe call is pinned to version %s and schema hash %s.",
			v.GoName, v.Spec.Key(), life, strings.TrimSuffix(v.Spec.Title, "."), v.Spec.Version, v.Spec.InputSchema.Hash())
		call := jen.Id("c").Dot("conn").Dot("CallTool").Call(
			jen.Id("ctx"), jen.Lit(v.Spec.Name), jen.Id("args"),
			jen.Qual(pkgClient, "WithVersion").Call(jen.Lit(v.Spec.Version.String())),
			jen.Qual(pkgClient, "WithSchemaHash").Call(jen.Lit(v.Spec.InputSchema.Hash())),
		)
		params := jen.Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("args").Add(argsType(v)))
		if v.Output == nil {
			f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id(v.GoName).Add(params).Params(
				jen.Op("*").Qual(pkgClient, "CallResult"), jen.Error(),
			).Block(jen.Return(call))
			f.Line()
			continue
		}
		// With an output schema the structured content is decoded and
		// validated by the generated decoder of the output type.
		f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id(v.GoName).Add(params).Params(
			jen.Id("out").Id(v.Output.Name), jen.Id("res").Op("*").Qual(pkgClient, "CallResult"), jen.Err().Error(),
		).Block(
			jen.List(jen.Id("res"), jen.Err()).Op("=").Add(call),
			jen.If(jen.Err().Op("!=").Nil().Op("||").Id("res").Dot("IsError").Op("||").Id("res").Dot("StructuredContent").Op("==").Nil()).Block(
				jen.Return(jen.Id("out"), jen.Id("res"), jen.Err()),
			),
			jen.List(jen.Id("out"), jen.Id("errs"), jen.Err()).Op(":=").Id("Decode"+v.Output.Name).Call(jen.Id("res").Dot("StructuredContent")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("out"), jen.Id("res"), jen.Err())),
			jen.If(jen.Len(jen.Id("errs")).Op(">").Lit(0)).Block(
				jen.Return(jen.Id("out"), jen.Id("res"), jen.Qual("fmt", "Errorf").Call(jen.Lit(fmt.Sprintf("%s: structured output breaks its schema: %%w", v.Spec.Key())), jen.Id("errs"))),
			),
			jen.Return(jen.Id("out"), jen.Id("res"), jen.Nil()),
		)
		f.Line()
	}
	g.repairDispatch(f)
	return f
}

// repairDispatch emits RepairArguments: the host-side repair step of the
// repair loop by tool name and version (seed 003 §4.3). It searches a
// statically initialised table of the versions' repair functions, sorted
// by key, rather than switching over every version in one function: a
// function's compile time grows faster than its length.
func (g *gen) repairDispatch(f *jen.File) {
	type row struct{ key, fn string }
	var rows []row
	for _, v := range g.versions() {
		rows = append(rows, row{v.Spec.Key(), "Repair" + v.ArgsName()})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].key < rows[j].key })
	repairFunc := jen.Func().Params(jen.Id("data").Index().Byte(), jen.Id("defaults").Map(jen.String()).Any()).Params(
		jen.Index().Byte(), jen.Qual(pkgSchema, "Errors"), jen.Error(),
	)
	doc(f, "repairer is the repair function of one tool version.")
	f.Type().Id("repairer").Struct(
		jen.Comment("key is the version's key, \"name@version\"."),
		jen.Id("key").String(),
		jen.Comment("repair is the version's Repair function."),
		jen.Id("repair").Add(repairFunc),
	)
	f.Line()
	doc(f, "repairers is every tool version's repair function, sorted by key for\n"+
		"RepairArguments' binary search; a table initialised statically.")
	f.Var().Id("repairers").Op("=").Index(jen.Op("...")).Id("repairer").ValuesFunc(func(gr *jen.Group) {
		for _, r := range rows {
			gr.Line().Values(jen.Lit(r.key), jen.Id(r.fn))
		}
		if len(rows) > 0 {
			gr.Line()
		}
	})
	f.Line()
	doc(f, "RepairArguments applies the deterministic repair of name@version to raw\n"+
		"model-produced arguments: it returns the repaired arguments and the errors\n"+
		"that remain, sorted; with none left, repaired is ready to send. It never\n"+
		"invents a value: only defaults the caller supplies fill missing ones\n"+
		"(client.RepairPrompt renders what remains as one model turn).")
	f.Func().Id("RepairArguments").Params(
		jen.List(jen.Id("name"), jen.Id("version")).String(), jen.Id("raw").Index().Byte(), jen.Id("defaults").Map(jen.String()).Any(),
	).Params(jen.Id("repaired").Index().Byte(), jen.Id("remaining").Qual(pkgSchema, "Errors"), jen.Err().Error()).Block(
		jen.List(jen.Id("i"), jen.Id("found")).Op(":=").Qual("slices", "BinarySearchFunc").Call(
			jen.Id("repairers").Index(jen.Op(":")), jen.Id("name").Op("+").Lit("@").Op("+").Id("version"),
			jen.Func().Params(jen.Id("r").Id("repairer"), jen.Id("key").String()).Int().Block(
				jen.Return(jen.Qual("strings", "Compare").Call(jen.Id("r").Dot("key"), jen.Id("key"))),
			),
		),
		jen.If(jen.Op("!").Id("found")).Block(
			jen.Return(jen.Nil(), jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("no tool version %s@%s in this package"), jen.Id("name"), jen.Id("version"))),
		),
		jen.Return(jen.Id("repairers").Index(jen.Id("i")).Dot("repair").Call(jen.Id("raw"), jen.Id("defaults"))),
	)
}
