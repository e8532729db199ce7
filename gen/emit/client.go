package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/estate"
)

const pkgClient = "github.com/mcpgen/mcpgen/runtime/client"

// client emits the typed client: one method per tool version, taking the
// generated argument type. Every call pins the exact version it was
// generated from and that version's schema hash: when the server's
// contract has moved under the caller, the call fails with a *drift.Error
// and the tool does not run.
//
// In a root of shards each method calls its shard's CallX function
// (shardCalls), which does the work: the root then compiles one call per
// version, not the encoding of every argument type, whose type
// descriptors and generic instantiations would all be compiled again in
// the root.
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
		text := fmt.Sprintf("%s calls %s (%s): %s.\nThe call is pinned to version %s and schema hash %s.",
			v.GoName, v.Spec.Key(), life, strings.TrimSuffix(v.Spec.Title, "."), v.Spec.Version, v.Spec.InputSchema.Hash())
		if life == estate.Preview {
			text += "\nThe version is a preview: the pin reaches it, an unpinned caller does not\nuntil it is promoted to active."
		}
		doc(f, text)
		params := jen.Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("args").Add(argsType(v)))
		method := f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id(v.GoName).Add(params).Add(callResults(v))
		if home := g.home(v); home != "" {
			method.Block(jen.Return(jen.Qual(home, "Call"+v.GoName).Call(jen.Id("ctx"), jen.Id("c").Dot("conn"), jen.Id("args"))))
		} else {
			method.Block(g.callBody(v, jen.Id("c").Dot("conn"))...)
		}
		f.Line()
	}
	return f
}

// shardCalls emits a shard's CallX functions, the bodies of its root's
// Client methods (see client).
func (g *gen) shardCalls() *jen.File {
	f := g.newFile()
	f.ImportName(pkgClient, "client")
	for _, v := range g.versions() {
		docf(f, "Call%s is the root's Client.%s: it calls %s over conn.", v.GoName, v.GoName, v.Spec.Key())
		params := jen.Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("conn").Qual(pkgClient, "ToolCaller"), jen.Id("args").Add(argsType(v)))
		f.Func().Id("Call" + v.GoName).Add(params).Add(callResults(v)).Block(g.callBody(v, jen.Id("conn"))...)
		f.Line()
	}
	return f
}

// callResults are the results of a version's call: the tool's result,
// and first the decoded structured output when the version declares an
// output schema.
func callResults(v *ir.Version) *jen.Statement {
	if v.Output == nil {
		return jen.Params(jen.Op("*").Qual(pkgClient, "CallResult"), jen.Error())
	}
	return jen.Params(jen.Id("out").Id(v.Output.Name), jen.Id("res").Op("*").Qual(pkgClient, "CallResult"), jen.Err().Error())
}

// callBody calls v over conn, pinned to its version and schema hash; with
// an output schema the structured content is decoded and validated by the
// generated decoder of the output type.
func (g *gen) callBody(v *ir.Version, conn jen.Code) []jen.Code {
	call := jen.Add(conn).Dot("CallTool").Call(
		jen.Id("ctx"), jen.Lit(v.Spec.Published()), jen.Id("args"),
		jen.Qual(pkgClient, "WithVersion").Call(jen.Lit(v.Spec.Version.String())),
		jen.Qual(pkgClient, "WithSchemaHash").Call(jen.Lit(v.Spec.InputSchema.Hash())),
	)
	if v.Output == nil {
		return []jen.Code{jen.Return(call)}
	}
	return []jen.Code{
		jen.List(jen.Id("res"), jen.Err()).Op("=").Add(call),
		jen.If(jen.Err().Op("!=").Nil().Op("||").Id("res").Dot("IsError").Op("||").Id("res").Dot("StructuredContent").Op("==").Nil()).Block(
			jen.Return(jen.Id("out"), jen.Id("res"), jen.Err()),
		),
		jen.List(jen.Id("out"), jen.Id("errs"), jen.Err()).Op(":=").Id("Decode" + v.Output.Name).Call(jen.Id("res").Dot("StructuredContent")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("out"), jen.Id("res"), jen.Err())),
		jen.If(jen.Len(jen.Id("errs")).Op(">").Lit(0)).Block(
			jen.Return(jen.Id("out"), jen.Id("res"), jen.Qual("fmt", "Errorf").Call(jen.Lit(fmt.Sprintf("%s: structured output breaks its schema: %%w", v.Spec.Key())), jen.Id("errs"))),
		),
		jen.Return(jen.Id("out"), jen.Id("res"), jen.Nil()),
	}
}
