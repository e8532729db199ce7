package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// schemas emits the parsed schema of every version (as declared, x-secret
// markers included: the runtime needs them to redact the call log) and the
// values the decoders reach through them: the compiled patterns, the
// multipleOf bounds, the declared type lists of type-mismatch messages, and
// the schemas of the values the reference validator checks.
func (g *gen) schemas() *jen.File {
	f := g.newFile()
	for _, v := range g.versions() {
		g.schemaVar(f, g.schemaVarName(v, "inputSchema"), "inputSchema", v, v.Spec.InputSchema)
		if v.Spec.OutputSchema != nil {
			g.schemaVar(f, g.schemaVarName(v, "outputSchema"), "outputSchema", v, v.Spec.OutputSchema)
		}
	}
	g.packageVars(f)
	return f
}

// packageVars declares the variables the decoders use, named in the order
// the emitters asked for them.
func (g *gen) packageVars(f *jen.File) {
	if len(g.vars) == 0 {
		return
	}
	doc(f, "What the decoders check against, reached once through the schemas above:\n"+
		"patterns, multipleOf bounds, declared types, and the schemas of the values\n"+
		"the reference validator checks.")
	defs := make([]jen.Code, 0, len(g.vars))
	for _, v := range g.vars {
		defs = append(defs, jen.Id(v.name).Op("=").Add(v.value))
	}
	f.Var().Defs(defs...)
	f.Line()
}

// pkgVar is a package-level variable of the generated decoders.
type pkgVar struct {
	name  string
	value jen.Code
}

// addVar declares a variable once per key, naming it base plus a number,
// and returns its name.
func (g *gen) addVar(key, base string, value func() jen.Code) string {
	if name, ok := g.varNames[key]; ok {
		return name
	}
	name := fmt.Sprintf("%s%d", base, g.varCount[base])
	g.varCount[base]++
	g.varNames[key] = name
	g.vars = append(g.vars, pkgVar{name, value()})
	return name
}

// lookup is the expression that reaches s in its document: the schema
// variable of the version's field and s's JSON pointer.
func (g *gen) lookup(t *ir.Type, s *schema.Schema) *jen.Statement {
	ptr := s.Location()
	p := ""
	if len(ptr) > 0 {
		p = ptr.String()
	}
	return jen.Id(g.schemaVarName(t.Owner, t.Source)).Dot("Lookup").Call(jen.Lit(p))
}

// patternVar is the compiled pattern of s (a schema of t).
func (g *gen) patternVar(t *ir.Type, s *schema.Schema) string {
	// One variable per pattern source, whichever schema states it.
	key := "pattern " + s.Pattern().Source
	return g.addVar(key, "pattern", func() jen.Code { return g.lookup(t, s).Dot("Pattern").Call() })
}

// multipleVar is the multipleOf bound of s.
func (g *gen) multipleVar(t *ir.Type, s *schema.Schema) string {
	key := fmt.Sprintf("multipleOf %s %s", g.schemaVarName(t.Owner, t.Source), s.Location())
	return g.addVar(key, "multipleOf", func() jen.Code { return g.lookup(t, s).Dot("MultipleOf").Call() })
}

// rootsVar is the list of t's roots, for the reference validator.
func (g *gen) rootsVar(t *ir.Type) string {
	var key strings.Builder
	key.WriteString("roots " + g.schemaVarName(t.Owner, t.Source))
	for _, r := range t.Roots {
		key.WriteString(" " + r.Location().String())
	}
	return g.addVar(key.String(), "roots", func() jen.Code {
		items := make([]jen.Code, len(t.Roots))
		for i, r := range t.Roots {
			items[i] = g.lookup(t, r)
		}
		return jen.Index().Op("*").Qual(pkgSchema, "Schema").Values(items...)
	})
}

// typesVar is what a value's schemas say of a value of another type (see
// ir.Mismatch): one of runtime/decode's for a single declared type, else a
// variable declared once.
func (g *gen) typesVar(parts []ir.Mismatch) jen.Code {
	if len(parts) == 1 && len(parts[0].Kinds) == 1 {
		return jen.Qual(pkgDecode, kindWord(parts[0].Kinds[0]))
	}
	var key strings.Builder
	var args []jen.Code
	var name strings.Builder
	for _, p := range parts {
		if len(p.Kinds) > 0 {
			kinds := make([]jen.Code, len(p.Kinds))
			for i, k := range p.Kinds {
				kinds[i] = jen.Qual(pkgSchema, kindConst(k))
				name.WriteString(kindWord(k))
			}
			args = append(args, jen.Qual(pkgDecode, "TypesOf").Call(kinds...))
			fmt.Fprintf(&key, "%v;", p.Kinds)
			continue
		}
		msgs := make([]jen.Code, len(p.Messages))
		for i, m := range p.Messages {
			msgs[i] = jen.Lit(m)
		}
		args = append(args, jen.Qual(pkgDecode, "Values").Call(msgs...))
		name.WriteString("Values")
		fmt.Fprintf(&key, "%q;", p.Messages)
	}
	value := args[0]
	if len(args) > 1 {
		value = jen.Qual(pkgDecode, "All").Call(args...)
	}
	base := "types" + name.String()
	return jen.Id(g.addVar("types "+key.String(), base, func() jen.Code { return value }))
}

// kindWord is a kind's name as a Go word: "String", "Null".
func kindWord(k schema.Kind) string { return strings.ToUpper(k.String()[:1]) + k.String()[1:] }

func (g *gen) schemaVar(f *jen.File, name, field string, v *ir.Version, s *schema.Schema) {
	doc, err := schema.Encode(s.Raw()) // literals as declared, never rounded
	if err != nil {
		// Parse accepted only JSON values; this cannot happen for a
		// loaded manifest.
		panic(fmt.Sprintf("emit: %s %s: %v", v.Spec.Key(), field, err))
	}
	docf(f, "%s is the %s of %s, as declared (hash %s).", name, field, v.Spec.Key(), s.Hash())
	parse := jen.Qual(pkgSchema, "MustParseJSON").Call(jen.Lit(string(doc)))
	if formats := s.AnnotationFormats(); len(formats) > 0 {
		lits := make([]jen.Code, len(formats))
		for i, n := range formats {
			lits[i] = jen.Lit(n)
		}
		parse = jen.Qual(pkgSchema, "MustParseJSONWith").Call(jen.Lit(string(doc)),
			jen.Qual(pkgSchema, "Options").Values(jen.Dict{jen.Id("AnnotationFormats"): jen.Index().String().Values(lits...)}))
	}
	f.Var().Id(name).Op("=").Add(parse)
	f.Line()
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
// repair loop by tool name and version, over the table of versions.
func (g *gen) repairDispatch(f *jen.File) {
	doc(f, repairArgumentsDoc)
	f.Func().Id("RepairArguments").Add(repairArgumentsSignature()).Block(
		jen.Return(jen.Qual(pkgMCP, "RepairArguments").Call(jen.Id("toolVersions").Index(jen.Op(":")), jen.Id("name"), jen.Id("version"), jen.Id("raw"), jen.Id("defaults"))),
	)
	f.Line()
}
