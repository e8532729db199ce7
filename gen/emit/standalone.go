package emit

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Schemas renders a package of decoders for schemas on their own, not tool
// contracts (ir.BuildSchema): for each, a value type Name+"Value" holding
// the decoded value, its Decode function, and the types below it. The JSON
// Schema Test Suite runs through such a package (internal/jsonsuite), whose
// schemas need not be objects.
func Schemas(pkgName string, versions []*ir.Version) ([]File, error) {
	g := newGen(&ir.Package{Name: pkgName}, wholePackage)
	g.schemaVars = map[*ir.Version]string{}
	for _, v := range versions {
		g.schemaVars[v] = "schema" + v.GoName
	}
	types, decoders, schemas, encoders := g.newFile(), g.newFile(), g.newFile(), g.newFile()
	for _, v := range versions {
		docf(types, "%sValue holds a value of the schema %s.", v.GoName, v.GoName)
		types.Type().Id(v.GoName + "Value").Struct(jen.Id("V").Add(goType(v.Args)))
		types.Line()
		for _, t := range v.Named {
			g.namedType(types, "", v, t)
		}

		docf(decoders, "Decode%s reads and validates a value of the schema %s (see decode.Begin).", v.GoName, v.GoName)
		decoders.Func().Id("Decode"+v.GoName).Params(jen.Id("data").Index().Byte()).Params(jen.Id(v.GoName+"Value"), jen.Qual(pkgSchema, "Errors"), jen.Error()).Block(
			jen.Return(jen.Qual(pkgDecode, "Run").Types(jen.Id(v.GoName + "Value")).Call(jen.Id("data"))),
		)
		decoders.Line()
		docf(decoders, "DecodeFrom reads the value at at, adding the errors it finds to r.")
		decoders.Func().Params(jen.Id("v").Op("*").Id(v.GoName+"Value")).Id("DecodeFrom").Params(
			jen.Id("r").Op("*").Qual(pkgDecode, "Reader"), jen.Id("at").Op("*").Qual(pkgDecode, "Loc"),
		).Block(g.value(&scope{}, v.Args, "r", jen.Id("at"), nil, func(x jen.Code) []jen.Code {
			return []jen.Code{jen.Id("v").Dot("V").Op("=").Add(x)}
		})...)
		decoders.Line()
		for _, t := range v.Named {
			g.readFunc(decoders, t)
		}

		docf(encoders, "AppendJSON appends the value's JSON to b (see encode.Appender).")
		rec := recursive(v.Named)
		e := &encoder{rec: rec}
		body := e.value(v.Args, jen.Id("v").Dot("V"))
		encoders.Func().Params(jen.Id("v").Id(v.GoName+"Value")).Id("AppendJSON").Params(jen.Id("b").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).Block(
			append(append(e.decl(), body...), jen.Return(jen.Id("b"), jen.Nil()))...)
		encoders.Line()
		for _, t := range v.Named {
			appendFunc(encoders, t, rec)
		}

		doc, err := schema.Encode(v.Spec.InputSchema.Raw())
		if err != nil {
			return nil, fmt.Errorf("emit: schema %s: %w", v.GoName, err)
		}
		docf(schemas, "%s is the schema %s, as written (hash %s).", g.schemaVars[v], v.GoName, v.Spec.InputSchema.Hash())
		schemas.Var().Id(g.schemaVars[v]).Op("=").Qual(pkgSchema, "MustParseJSON").Call(jen.Lit(string(doc)))
		schemas.Line()
	}
	g.packageVars(schemas)
	files := map[string]*jen.File{"types.gen.go": types, "decode.gen.go": decoders, "schemas.gen.go": schemas, "encode.gen.go": encoders}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]File, 0, len(files))
	for _, n := range names {
		var buf bytes.Buffer
		if err := files[n].Render(&buf); err != nil {
			return nil, fmt.Errorf("emit %s: %w", n, err)
		}
		out = append(out, File{Name: n, Data: buf.Bytes()})
	}
	return out, nil
}
