package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// register emits the server side of the package: the Handler interface with
// one typed method per tool version, the specs as the runtime publishes
// them, the resources and prompts, and Register, which binds everything to
// a runtime server with the generated validators.
func (g *gen) register() *jen.File {
	f := newFile(g.pkg)
	srv := g.pkg.Server

	doc(f, "ServerName and ServerVersion are the serverInfo the server announces.")
	f.Const().Defs(
		jen.Id("ServerName").Op("=").Lit(srv.Name),
		jen.Id("ServerVersion").Op("=").Lit(srv.Version),
	)
	f.Line()

	// The Handler interface.
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
	doc(f, "Handler is the service's implementation of the estate: one method per tool\n"+
		"version, called only with arguments that passed the version's schema (a\n"+
		"violation never reaches it). A returned error becomes a tool failure\n"+
		"(isError: true) the model sees; a panic is contained by the server.")
	f.Type().Id("Handler").Interface(methods...)
	f.Line()

	// Specs.
	var specs []jen.Code
	for _, v := range g.versions() {
		specs = append(specs, g.specLiteral(v))
	}
	doc(f, "Specs returns every tool version of the package as the runtime publishes\n"+
		"it, in publish order (by name, then version).")
	f.Func().Id("Specs").Params().Index().Qual(pkgEstate, "ToolSpec").Block(
		jen.Return(jen.Index().Qual(pkgEstate, "ToolSpec").Values(specs...)),
	)
	f.Line()

	// Resources and prompts.
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

	// Register.
	var binds []jen.Code
	for i, v := range g.versions() {
		binds = append(binds,
			jen.If(jen.Err().Op(":=").Id("s").Dot("Bind").Call(jen.Id("specs").Index(jen.Lit(i)), jen.Qual(pkgMCP, "Tool").Values(jen.Dict{
				jen.Id("Handler"): jen.Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("call").Op("*").Qual(pkgMCP, "Call")).Params(jen.Op("*").Qual(pkgMCP, "Result"), jen.Error()).Block(
					jen.Return(jen.Id("h").Dot(v.GoName).Call(jen.Id("ctx"), jen.Id("call"), jen.Id("call").Dot("Value").Assert(argsType(v)))),
				),
				jen.Id("Validate"): jen.Qual(pkgDecode, "Adapt").Call(jen.Id(validatorName(v))),
			})), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		)
	}
	binds = append(binds, jen.Return(jen.Nil()))
	doc(f, "Register publishes every tool version into s's registry (the publish guard\n"+
		"applies) and binds it to h, with the generated decoder as its validator.")
	f.Func().Id("Register").Params(jen.Id("s").Op("*").Qual(pkgMCP, "Server"), jen.Id("h").Id("Handler")).Error().Block(
		append([]jen.Code{jen.Id("specs").Op(":=").Id("Specs").Call()}, binds...)...,
	)
	return f
}

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
