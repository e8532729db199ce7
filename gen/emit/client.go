package emit

import (
	"fmt"
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
	f := g.newFile()
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
	return f
}
