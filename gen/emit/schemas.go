package emit

import (
	"fmt"
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
	f := newFile(g.pkg)
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

// repairs emits one repair function per version.
func (g *gen) repairs() *jen.File {
	f := newFile(g.pkg)
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
		f.Func().Id(name).Params(jen.Id("data").Index().Byte(), jen.Id("defaults").Map(jen.String()).Any()).Params(
			jen.Id("repaired").Index().Byte(), jen.Id("remaining").Qual(pkgSchema, "Errors"), jen.Err().Error(),
		).Block(
			jen.List(jen.Id("v"), jen.Err()).Op(":=").Qual(pkgSchema, "DecodeJSON").Call(jen.Id("data")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Nil(), jen.Err())),
			jen.List(jen.Id("fixed"), jen.Id("remaining")).Op(":=").Qual(pkgSchema, "Repair").Call(jen.Id("v"), jen.Id(inputVar(v)), jen.Id("defaults")),
			jen.List(jen.Id("repaired"), jen.Err()).Op("=").Qual(pkgSchema, "Encode").Call(jen.Id("fixed")),
			jen.Return(jen.Id("repaired"), jen.Id("remaining"), jen.Err()),
		)
		f.Line()
	}
	return f
}
