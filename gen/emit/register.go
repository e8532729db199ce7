package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/estate"
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
		g.shardedRepairDispatch(f)
	} else {
		g.versionTable(f)
		g.repairDispatch(f)
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
			arg := jen.Dict{jen.Id("Name"): jen.Lit(a.Name), jen.Id("Required"): jen.Lit(a.Required)}
			if a.Description != "" {
				arg[jen.Id("Description")] = jen.Lit(a.Description)
			}
			args = append(args, jen.Values(arg))
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

// handlerInterface emits Handler: one method per major line of a tool of
// the package (of the shard, in a shard), taking the arguments of the
// line's newest version. The method is named after the line
// (PaymentsLookupV2), and its argument type is the line's alias
// (PaymentsLookupV2Args), so that releasing a compatible minor changes
// neither: the team's handler gains the new optional fields and nothing
// else. An older version of the line reaches the same method (see bind).
func (g *gen) handlerInterface(f *jen.File) {
	var methods []jen.Code
	for _, l := range g.lines() {
		n := l.Newest
		methods = append(methods,
			jen.Comment(fmt.Sprintf("%s handles %s %d.x (%s), with the arguments of %s (%s): %s.",
				l.GoName, n.Spec.Name, l.Major, lineVersions(l), n.Spec.Version, n.Spec.SideEffect, strings.TrimSuffix(n.Spec.Title, "."))),
			jen.Id(l.GoName).Params(
				jen.Id("ctx").Qual("context", "Context"),
				jen.Id("call").Op("*").Qual(pkgMCP, "Call"),
				jen.Id("args").Add(lineArgsType(l)),
			).Params(jen.Op("*").Qual(pkgMCP, "Result"), jen.Error()),
		)
	}
	if g.role == shardPart {
		doc(f, "Handler is the part of the service's Handler this shard binds: one method\n"+
			"per major line of a tool of the shard. The Handler of the package that\n"+
			"imports the shard has every method of it.")
	} else {
		doc(f, "Handler is the service's implementation of the estate: one method per major\n"+
			"line of a tool, called with the arguments of the line's newest version. A\n"+
			"call of an older version of the line is first validated against that\n"+
			"version's own contract, then decoded as the newest: a minor only loosens\n"+
			"the contract, so the arguments are valid for both, and Call.Spec says which\n"+
			"version was called. A violation never reaches the handler. A returned\n"+
			"error becomes a tool failure (isError: true) the model sees; a panic is\n"+
			"contained by the server.")
	}
	f.Type().Id("Handler").Interface(methods...)
	f.Line()
}

// lineVersions lists a line's versions with their lifecycles, as the
// Handler's doc names them: "2.0.0 active, 2.1.0 preview".
func lineVersions(l *ir.Line) string {
	parts := make([]string, len(l.Versions))
	for i, v := range l.Versions {
		parts[i] = fmt.Sprintf("%s %s", v.Spec.Version, v.Spec.Lifecycle.OrActive())
	}
	return strings.Join(parts, ", ")
}

// lineArgsType is the argument type of a line's Handler method: the line's
// alias of its newest version's generated argument type, or the struct the
// team wrote for that version (whose name is the team's to keep).
func lineArgsType(l *ir.Line) jen.Code {
	if l.Newest.ArgsType != nil {
		return argsType(l.Newest)
	}
	return jen.Id(l.ArgsAlias())
}

// lines is every major line of the tools of g's package, in publish order.
func (g *gen) lines() []*ir.Line {
	var out []*ir.Line
	for _, t := range g.pkg.Tools {
		out = append(out, t.Lines...)
	}
	return out
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
	doc(f, "toolVersions is every tool version of the package in publish order (by name,\n"+
		"then version); a table of functions, initialised statically.")
	f.Var().Id("toolVersions").Op("=").Index(jen.Op("...")).Qual(pkgMCP, "Version").Types(jen.Id("Handler")).ValuesFunc(func(gr *jen.Group) {
		for _, v := range g.versions() {
			gr.Line().Values(jen.Dict{jen.Id("Spec"): jen.Id(specFunc(v)), jen.Id("Bind"): jen.Id(bindFunc(v))})
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
		jen.Return(jen.Qual(pkgMCP, "Specs").Call(jen.Id("toolVersions").Index(jen.Op(":")))),
	)
	f.Line()
	doc(f, register)
	f.Func().Id("Register").Params(jen.Id("s").Op("*").Qual(pkgMCP, "Server"), jen.Id("h").Id("Handler")).Error().Block(
		jen.Return(jen.Qual(pkgMCP, "RegisterAll").Call(jen.Id("s"), jen.Id("h"), jen.Id("toolVersions").Index(jen.Op(":")))),
	)
	f.Line()

	// Per version, its spec and its binding.
	for _, v := range g.versions() {
		docf(f, "%s returns the spec of %s.", specFunc(v), v.Spec.Key())
		f.Func().Id(specFunc(v)).Params().Qual(pkgEstate, "ToolSpec").Block(
			jen.Return(jen.Qual(pkgEstate, "ToolSpec").Add(g.specLiteral(v))),
		)
		f.Line()
		l := v.Line
		validator := g.validator(v)
		if v == l.Newest {
			docf(f, "%s binds %s to h.%s%s.", bindFunc(v), v.Spec.Key(), l.GoName, outputDoc(v))
		} else {
			docf(f, "%s binds %s to h.%s: the arguments are validated against\n"+
				"%s's contract, then decoded as %s's, the newest of the line%s.", bindFunc(v), v.Spec.Key(), l.GoName, v.Spec.Version, l.Newest.Spec.Version, outputDoc(v))
			validator = jen.Qual(pkgDecode, "Forward").Call(validator, g.validator(l.Newest))
		}
		tool := jen.Qual(pkgMCP, "TypedTool").Call(jen.Id("h").Dot(l.GoName), validator)
		if v.Output == nil {
			f.Func().Id(bindFunc(v)).Params(jen.Id("h").Id("Handler")).Qual(pkgMCP, "Tool").Block(jen.Return(tool))
		} else {
			f.Func().Id(bindFunc(v)).Params(jen.Id("h").Id("Handler")).Qual(pkgMCP, "Tool").Block(
				jen.Id("t").Op(":=").Add(tool),
				jen.Id("t").Dot("CheckOutput").Op("=").Qual(pkgDecode, "Checker").Call(
					jen.Func().Params(jen.Id("r").Op("*").Qual(pkgDecode, "Reader")).Block(
						jen.Var().Id("out").Id(v.Output.Name),
						jen.Id("out").Dot("DecodeFrom").Call(jen.Id("r"), jen.Nil()),
					)),
				jen.Return(jen.Id("t")),
			)
		}
		f.Line()
	}
}

// outputDoc is what a bind function's doc says of v's structured output:
// nothing when v declares no output schema.
func outputDoc(v *ir.Version) string {
	if v.Output == nil {
		return ""
	}
	return ";\nits structured output is checked as " + v.Output.Name + " reads itself (decode.Checker)"
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

// specLiteral is the estate.ToolSpec of v as a composite literal; fields
// that hold their zero value are left out.
func (g *gen) specLiteral(v *ir.Version) jen.Code {
	s := v.Spec
	d := jen.Dict{
		jen.Id("Name"):               jen.Lit(s.Name),
		jen.Id("Version"):            jen.Qual(pkgEstate, "MustParseVersion").Call(jen.Lit(s.Version.String())),
		jen.Id("Title"):              jen.Lit(s.Title),
		jen.Id("Description"):        jen.Lit(s.Description),
		jen.Id("InputSchema"):        jen.Id(g.schemaVarName(v, "inputSchema")),
		jen.Id("SideEffect"):         jen.Qual(pkgEstate, "SideEffect").Call(jen.Lit(string(s.SideEffect))),
		jen.Id("DataClassification"): jen.Qual(pkgEstate, "Classification").Call(jen.Lit(string(s.DataClassification))),
		jen.Id("Owner"):              jen.Lit(s.Owner),
	}
	if s.Lifecycle != "" && s.Lifecycle != estate.Active {
		d[jen.Id("Lifecycle")] = jen.Qual(pkgEstate, "Lifecycle").Call(jen.Lit(string(s.Lifecycle)))
	}
	if len(s.RequiredScopes) > 0 {
		d[jen.Id("RequiredScopes")] = stringSlice(s.RequiredScopes)
	}
	if len(s.Tenants) > 0 {
		d[jen.Id("Tenants")] = stringSlice(s.Tenants)
	}
	if s.WireName != "" {
		d[jen.Id("WireName")] = jen.Lit(s.WireName)
	}
	if s.SupersededBy != "" {
		d[jen.Id("SupersededBy")] = jen.Lit(s.SupersededBy)
	}
	if s.OutputSchema != nil {
		d[jen.Id("OutputSchema")] = jen.Id(g.schemaVarName(v, "outputSchema"))
	}
	return jen.Values(d)
}

// validator is the validator Register binds: the generated decoder of the
// arguments, without the strictness scan the server's envelope reader has
// already made; for a team's struct, its Decode function, which fills the
// struct after validating.
func (g *gen) validator(v *ir.Version) jen.Code {
	if v.ArgsType != nil {
		return jen.Qual(pkgDecode, "Adapt").Call(jen.Id("Decode" + v.ArgsName()))
	}
	return jen.Qual(pkgDecode, "Validator").Types(jen.Id(v.Args.Name)).Call()
}
