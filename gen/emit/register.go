package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// register emits the server side of the package.
//
// A package in one piece holds the serverInfo, the resources and prompts,
// the Handler interface with one typed method per tool version, and Specs
// and Register as loops over a static table of per-version functions. A
// shard holds the table part for its versions, under a Handler of its own
// that the root's Handler satisfies. A root of shards holds the serverInfo
// part and the whole Handler, and its Specs and Register call the shards'
// in publish order.
func (g *gen) register() *jen.File {
	f := g.newFile()
	if g.role == shardPart {
		g.shardDoc(f)
	}
	if g.role != shardPart {
		g.serverInfo(f)
	}
	g.handlerInterface(f)
	if g.role == rootOfShards {
		g.shardedRegistry(f)
	} else {
		g.versionTable(f)
	}
	return f
}

// serverInfo emits ServerName and ServerVersion, Resources, Prompts and
// Options: what server.yaml declares.
func (g *gen) serverInfo(f *jen.File) {
	srv := g.pkg.Server
	doc(f, "ServerName and ServerVersion are the serverInfo the server announces.")
	f.Const().Defs(
		jen.Id("ServerName").Op("=").Lit(srv.Name),
		jen.Id("ServerVersion").Op("=").Lit(srv.Version),
	)
	f.Line()

	var resources []jen.Code
	for _, r := range srv.Resources {
		resources = append(resources, jen.Values(jen.Dict{
			jen.Id("URI"): jen.Lit(r.URI), jen.Id("Name"): jen.Lit(r.Name), jen.Id("MIMEType"): jen.Lit(r.MIMEType),
			jen.Id("Text"): jen.Lit(r.Text), jen.Id("Tenants"): stringSlice(r.Tenants),
		}))
	}
	doc(f, "Resources returns the resources server.yaml declares.")
	f.Func().Id("Resources").Params().Index().Qual(pkgMCP, "Resource").Block(
		jen.Return(jen.Index().Qual(pkgMCP, "Resource").Values(resources...)),
	)
	f.Line()
	var prompts []jen.Code
	for _, p := range srv.Prompts {
		var args []jen.Code
		for _, a := range p.Arguments {
			args = append(args, jen.Values(jen.Dict{
				jen.Id("Name"): jen.Lit(a.Name), jen.Id("Description"): jen.Lit(a.Description), jen.Id("Required"): jen.Lit(a.Required),
			}))
		}
		prompts = append(prompts, jen.Values(jen.Dict{
			jen.Id("Name"): jen.Lit(p.Name), jen.Id("Description"): jen.Lit(p.Description), jen.Id("Template"): jen.Lit(p.Template),
			jen.Id("Arguments"): jen.Index().Qual(pkgMCP, "PromptArgument").Values(args...),
		}))
	}
	doc(f, "Prompts returns the prompts server.yaml declares.")
	f.Func().Id("Prompts").Params().Index().Qual(pkgMCP, "Prompt").Block(
		jen.Return(jen.Index().Qual(pkgMCP, "Prompt").Values(prompts...)),
	)
	f.Line()

	doc(f, "Options returns server options carrying the package's serverInfo,\n"+
		"resources and prompts; set the registry, logger and limits on the result.")
	f.Func().Id("Options").Params().Qual(pkgMCP, "Options").Block(
		jen.Return(jen.Qual(pkgMCP, "Options").Values(jen.Dict{
			jen.Id("Name"): jen.Id("ServerName"), jen.Id("Version"): jen.Id("ServerVersion"),
			jen.Id("Resources"): jen.Id("Resources").Call(), jen.Id("Prompts"): jen.Id("Prompts").Call(),
		})),
	)
	f.Line()
}

// handlerInterface emits Handler: one method per tool version of the
// package (of the shard, in a shard).
func (g *gen) handlerInterface(f *jen.File) {
	var methods []jen.Code
	for _, v := range g.versions() {
		life := v.Spec.Lifecycle.OrActive()
		methods = append(methods,
			jen.Comment(fmt.Sprintf("%s handles %s (%s, %s): %s.", v.GoName, v.Spec.Key(), life, v.Spec.SideEffect, strings.TrimSuffix(v.Spec.Title, "."))),
			jen.Id(v.GoName).Params(
				jen.Id("ctx").Qual("context", "Context"),
				jen.Id("call").Op("*").Qual(pkgMCP, "Call"),
				jen.Id("args").Add(argsType(v)),
			).Params(jen.Op("*").Qual(pkgMCP, "Result"), jen.Error()),
		)
	}
	if g.role == shardPart {
		doc(f, "Handler is the part of the service's Handler this shard binds: one method\n"+
			"per tool version of the shard. The Handler of the package that imports\n"+
			"the shard has every method of it.")
	} else {
		doc(f, "Handler is the service's implementation of the estate: one method per tool\n"+
			"version, called only with arguments that passed the version's schema (a\n"+
			"violation never reaches it). A returned error becomes a tool failure\n"+
			"(isError: true) the model sees; a panic is contained by the server.")
	}
	f.Type().Id("Handler").Interface(methods...)
	f.Line()
}

// Docs of Specs and Register, the same whatever the layout.
const (
	specsDoc = "Specs returns every tool version of the package as the runtime publishes\n" +
		"it, in publish order (by name, then version)."
	registerDoc = "Register publishes every tool version into s's registry (the publish guard\n" +
		"applies) and binds it to h, with the generated decoder as its validator."
)

// versionTable emits the table of tool versions, and Specs and Register as
// loops over it. Each version has small functions of its own (specX and
// bindX, at the end of the file) and the table only names them, so it is
// static data: no function grows with the estate. (One Register binding
// every version compiled in quadratic time: escape analysis walks the
// whole enclosing function for every call of a function value, here one
// per version's inlined decode.Adapt closure.)
func (g *gen) versionTable(f *jen.File) {
	doc(f, "toolVersion is one tool version of the package: how to build its spec and how\n"+
		"to bind it to a Handler.")
	f.Type().Id("toolVersion").Struct(
		jen.Comment("spec returns the version's spec as the runtime publishes it."),
		jen.Id("spec").Func().Params().Qual(pkgEstate, "ToolSpec"),
		jen.Comment("bind returns the version's runtime tool: h's method for it, with the"),
		jen.Comment("generated decoder as its validator."),
		jen.Id("bind").Func().Params(jen.Id("h").Id("Handler")).Qual(pkgMCP, "Tool"),
	)
	f.Line()
	doc(f, "toolVersions is every tool version of the package in publish order (by name,\n"+
		"then version); a table of functions, initialised statically.")
	f.Var().Id("toolVersions").Op("=").Index(jen.Op("...")).Id("toolVersion").ValuesFunc(func(gr *jen.Group) {
		for _, v := range g.versions() {
			gr.Line().Values(jen.Id(specFunc(v)), jen.Id(bindFunc(v)))
		}
		if len(g.versions()) > 0 {
			gr.Line()
		}
	})
	f.Line()
	specs, register := specsDoc, registerDoc
	if g.role == shardPart {
		specs = "Specs returns the shard's tool versions as the runtime publishes them, in\n" +
			"publish order (by name, then version)."
		register = "Register publishes the shard's tool versions into s's registry (the publish\n" +
			"guard applies) and binds each to h, with the generated decoder as its validator."
	}
	doc(f, specs)
	f.Func().Id("Specs").Params().Index().Qual(pkgEstate, "ToolSpec").Block(
		jen.Id("specs").Op(":=").Make(jen.Index().Qual(pkgEstate, "ToolSpec"), jen.Len(jen.Id("toolVersions"))),
		jen.For(jen.List(jen.Id("i"), jen.Id("t")).Op(":=").Range().Id("toolVersions")).Block(
			jen.Id("specs").Index(jen.Id("i")).Op("=").Id("t").Dot("spec").Call(),
		),
		jen.Return(jen.Id("specs")),
	)
	f.Line()

	doc(f, register)
	f.Func().Id("Register").Params(jen.Id("s").Op("*").Qual(pkgMCP, "Server"), jen.Id("h").Id("Handler")).Error().Block(
		jen.For(jen.List(jen.Id("_"), jen.Id("t")).Op(":=").Range().Id("toolVersions")).Block(
			jen.If(jen.Err().Op(":=").Id("s").Dot("Bind").Call(jen.Id("t").Dot("spec").Call(), jen.Id("t").Dot("bind").Call(jen.Id("h"))), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Err()),
			),
		),
		jen.Return(jen.Nil()),
	)
	f.Line()

	// Per version, its spec and its binding.
	for _, v := range g.versions() {
		docf(f, "%s returns the spec of %s.", specFunc(v), v.Spec.Key())
		f.Func().Id(specFunc(v)).Params().Qual(pkgEstate, "ToolSpec").Block(
			jen.Return(jen.Qual(pkgEstate, "ToolSpec").Add(g.specLiteral(v))),
		)
		f.Line()
		docf(f, "%s binds %s to h.%s,\nwith the generated decoder %s as its validator.", bindFunc(v), v.Spec.Key(), v.GoName, validatorName(v))
		f.Func().Id(bindFunc(v)).Params(jen.Id("h").Id("Handler")).Qual(pkgMCP, "Tool").Block(
			jen.Return(jen.Qual(pkgMCP, "Tool").Values(jen.Dict{
				jen.Id("Handler"): jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("call").Op("*").Qual(pkgMCP, "Call")).Params(jen.Op("*").Qual(pkgMCP, "Result"), jen.Error()).Block(
					jen.Return(jen.Id("h").Dot(v.GoName).Call(jen.Id("ctx"), jen.Id("call"), jen.Id("call").Dot("Value").Assert(argsType(v)))),
				),
				jen.Id("Validate"): jen.Qual(pkgDecode, "Adapt").Call(jen.Id(validatorName(v))),
			})),
		)
		f.Line()
	}
}

// specFunc and bindFunc name the functions that build v's spec and bind v
// to a Handler (lower case: not part of the package's API).
func specFunc(v *ir.Version) string { return "spec" + v.GoName }
func bindFunc(v *ir.Version) string { return "bind" + v.GoName }

func stringSlice(s []string) jen.Code {
	if len(s) == 0 {
		return jen.Nil()
	}
	vals := make([]jen.Code, len(s))
	for i, x := range s {
		vals[i] = jen.Lit(x)
	}
	return jen.Index().String().Values(vals...)
}

// specLiteral is the estate.ToolSpec of v as a composite literal.
func (g *gen) specLiteral(v *ir.Version) jen.Code {
	s := v.Spec
	d := jen.Dict{
		jen.Id("Name"):               jen.Lit(s.Name),
		jen.Id("Version"):            jen.Qual(pkgEstate, "MustParseVersion").Call(jen.Lit(s.Version.String())),
		jen.Id("Title"):              jen.Lit(s.Title),
		jen.Id("Description"):        jen.Lit(s.Description),
		jen.Id("InputSchema"):        jen.Id(inputVar(v)),
		jen.Id("SideEffect"):         jen.Qual(pkgEstate, "SideEffect").Call(jen.Lit(string(s.SideEffect))),
		jen.Id("RequiredScopes"):     stringSlice(s.RequiredScopes),
		jen.Id("DataClassification"): jen.Qual(pkgEstate, "Classification").Call(jen.Lit(string(s.DataClassification))),
		jen.Id("Owner"):              jen.Lit(s.Owner),
		jen.Id("Tenants"):            stringSlice(s.Tenants),
		jen.Id("Lifecycle"):          jen.Qual(pkgEstate, "Lifecycle").Call(jen.Lit(string(s.Lifecycle))),
		jen.Id("SupersededBy"):       jen.Lit(s.SupersededBy),
	}
	if s.OutputSchema != nil {
		d[jen.Id("OutputSchema")] = jen.Id(outputVar(v))
	}
	return jen.Values(d)
}

// validatorName is the decoder Register binds: the one that skips the
// strictness scan the server's envelope decoder has already made, except
// for a team's struct, whose decoder fills the struct after validating.
func validatorName(v *ir.Version) string {
	if v.ArgsType != nil {
		return "Decode" + v.ArgsName()
	}
	return checkedName(v.Args)
}
