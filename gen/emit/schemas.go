package emit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// schemas emits the parsed schema of every version (as declared, x-secret
// markers included: the runtime needs them to redact the call log), the
// compiled patterns the decoders use, and the sub-schemas handed to the
// reference validator.
func (g *gen) schemas() *jen.File {
	f := g.newFile()
	for _, v := range g.versions() {
		g.schemaVar(f, inputVar(v), "inputSchema", v, v.Spec.InputSchema)
		if v.Spec.OutputSchema != nil {
			g.schemaVar(f, outputVar(v), "outputSchema", v, v.Spec.OutputSchema)
		}
	}
	if len(g.patOrder) > 0 {
		doc(f, "The patterns of the schemas, compiled once (Go RE2, unanchored, as the\nreference validator matches them).")
		defs := make([]jen.Code, 0, len(g.patOrder))
		for _, p := range g.patOrder {
			defs = append(defs, jen.Id(g.patterns[p]).Op("=").Qual("regexp", "MustCompile").Call(jen.Lit(p)))
		}
		f.Var().Defs(defs...)
		f.Line()
	}
	if len(g.anyOrder) > 0 {
		doc(f, "Sub-schemas checked by the reference validator (type unions, untyped\nvalues, undeclared properties of open objects).")
		defs := make([]jen.Code, 0, len(g.anyOrder))
		for _, t := range g.anyOrder {
			args := []jen.Code{}
			for _, seg := range t.Path {
				args = append(args, jen.Lit(seg))
			}
			defs = append(defs, jen.Id(g.anyVars[t]).Op("=").Id(g.anyOwner[t]).Dot("At").Call(args...))
		}
		f.Var().Defs(defs...)
		f.Line()
	}
	return f
}

func (g *gen) schemaVar(f *jen.File, name, field string, v *ir.Version, s *schema.Schema) {
	doc, err := schema.Encode(s.Document()) // literals as declared, never rounded
	if err != nil {
		// Parse accepted only JSON values; this cannot happen for a
		// loaded manifest.
		panic(fmt.Sprintf("emit: %s %s: %v", v.Spec.Key(), field, err))
	}
	docf(f, "%s is the %s of %s, as declared (hash %s).", name, field, v.Spec.Key(), s.Hash())
	f.Var().Id(name).Op("=").Qual(pkgSchema, "MustParseJSON").Call(jen.Lit(string(doc)))
	f.Line()
}

// repairs emits one repair function per version and RepairArguments, which
// finds one by name and version. In a root of shards each is a call of the
// shard's, and RepairArguments finds the shard.
func (g *gen) repairs() *jen.File {
	f := g.newFile()
	params, results := repairSignature()
	for _, v := range g.versions() {
		name := "Repair" + v.ArgsName()
		doc(f, strings.Join([]string{
			fmt.Sprintf("%s applies the deterministic repairs to raw arguments of %s:", name, v.Spec.Key()),
			"numeric strings to numbers, numbers to strings, \"true\"/\"false\" to booleans,",
			"integral floats to integers, undeclared properties of closed objects dropped,",
			"missing required properties filled from defaults (keyed by path, \"$.currency\").",
			"It fixes syntax, never meaning: it returns the repaired arguments and the",
			"errors that remain for the model to fix, sorted. err reports input that is",
			"not one well-formed JSON value.",
		}, "\n"))
		if home := g.home(v); home != "" {
			forward(f, home, name, params, results, "data", "defaults")
			continue
		}
		f.Func().Id(name).Add(params).Add(results).Block(
			jen.List(jen.Id("v"), jen.Err()).Op(":=").Qual(pkgSchema, "DecodeJSON").Call(jen.Id("data")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Nil(), jen.Err())),
			jen.List(jen.Id("fixed"), jen.Id("remaining")).Op(":=").Qual(pkgSchema, "Repair").Call(jen.Id("v"), jen.Id(inputVar(v)), jen.Id("defaults")),
			jen.List(jen.Id("repaired"), jen.Err()).Op("=").Qual(pkgSchema, "Encode").Call(jen.Id("fixed")),
			jen.Return(jen.Id("repaired"), jen.Id("remaining"), jen.Err()),
		)
		f.Line()
	}
	if g.role == rootOfShards {
		g.shardedRepairDispatch(f)
	} else {
		g.repairDispatch(f)
	}
	return f
}

// repairSignature is the parameters and results of a version's Repair
// function.
func repairSignature() (params, results *jen.Statement) {
	return jen.Params(jen.Id("data").Index().Byte(), jen.Id("defaults").Map(jen.String()).Any()),
		jen.Params(jen.Id("repaired").Index().Byte(), jen.Id("remaining").Qual(pkgSchema, "Errors"), jen.Err().Error())
}

// repairArgumentsSignature is the parameters and results of RepairArguments.
func repairArgumentsSignature() *jen.Statement {
	return jen.Params(
		jen.List(jen.Id("name"), jen.Id("version")).String(), jen.Id("raw").Index().Byte(), jen.Id("defaults").Map(jen.String()).Any(),
	).Params(jen.Id("repaired").Index().Byte(), jen.Id("remaining").Qual(pkgSchema, "Errors"), jen.Err().Error())
}

// repairArgumentsDoc is the doc of RepairArguments, whatever the layout.
const repairArgumentsDoc = "RepairArguments applies the deterministic repair of name@version to raw\n" +
	"model-produced arguments: it returns the repaired arguments and the errors\n" +
	"that remain, sorted; with none left, repaired is ready to send. It never\n" +
	"invents a value: only defaults the caller supplies fill missing ones\n" +
	"(client.RepairPrompt renders what remains as one model turn)."

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
	params, results := repairSignature()
	doc(f, "repairer is the repair function of one tool version.")
	f.Type().Id("repairer").Struct(
		jen.Comment("key is the version's key, \"name@version\"."),
		jen.Id("key").String(),
		jen.Comment("repair is the version's Repair function."),
		jen.Id("repair").Func().Add(params).Add(results),
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
	doc(f, repairArgumentsDoc)
	f.Func().Id("RepairArguments").Add(repairArgumentsSignature()).Block(
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
