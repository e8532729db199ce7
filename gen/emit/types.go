package emit

import (
	"fmt"
	"go/token"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// types emits the argument and output types of every version. A root of
// shards declares each exported one as an alias of its shard's type, with
// the same doc, so the package's API does not depend on its layout.
func (g *gen) types() *jen.File {
	f := g.newFile()
	for _, v := range g.versions() {
		spec, home := v.Spec, g.home(v)
		g.namedTypes(f, home, v.Args, argsLead(v), spec.Title, spec.Description)
		if v.Output != nil {
			g.namedTypes(f, home, v.Output, fmt.Sprintf("%s is the structured output of %s %s", v.Output.Name, spec.Name, spec.Version), "", v.Output.Doc)
		}
	}
	return f
}

// namedTypes declares t (if it is named) and every named type below it:
// here, or as aliases of the types of the package home declares them in
// (home is "" but in a root of shards). An alias for an unexported type
// would serve nothing: the root's code names only exported ones.
func (g *gen) namedTypes(f *jen.File, home string, t *ir.Type, lead, title, description string) {
	skip := home != "" && t.Name != "" && !token.IsExported(t.Name)
	switch t.Kind {
	case ir.Struct:
		if !skip {
			doc(f, docText(lead, title, description))
			if home != "" {
				alias(f, home, t.Name)
			} else {
				fields := make([]jen.Code, 0, len(t.Fields))
				for _, fl := range t.Fields {
					fields = append(fields, jen.Comment(fieldDoc(fl)), jen.Id(fl.GoName).Add(fieldType(fl)).Tag(map[string]string{"json": jsonTag(fl)}))
				}
				f.Type().Id(t.Name).Struct(fields...)
			}
			f.Line()
		}
		for _, fl := range t.Fields {
			g.namedTypes(f, home, fl.Type, nestedLead(fl.Type, t.Name+"."+fl.GoName), "", fl.Type.Doc)
		}
	case ir.Array:
		g.namedTypes(f, home, t.Elem, nestedLead(t.Elem, lead+"[i]"), "", t.Elem.Doc)
	case ir.String:
		if t.Name == "" || skip {
			return
		}
		doc(f, docText(lead+", one of the values the schema allows", "", description))
		if home != "" {
			alias(f, home, t.Name)
		} else {
			f.Type().Id(t.Name).String()
		}
		f.Line()
		consts := make([]jen.Code, 0, len(t.Schema.Enum))
		for _, c := range t.EnumConsts() {
			value := jen.Id(t.Name).Op("=").Lit(c[1])
			if home != "" {
				value = jen.Op("=").Qual(home, c[0])
			}
			consts = append(consts, jen.Commentf("%s is %q.", c[0], c[1]), jen.Id(c[0]).Add(value))
		}
		docf(f, "The values of %s.", t.Name)
		f.Const().Defs(consts...)
		f.Line()
	}
}

// alias declares the type name as an alias of home's type of that name.
func alias(f *jen.File, home, name string) { f.Type().Id(name).Op("=").Qual(home, name) }

// nestedLead names a nested type by the value it types ("X is the type of
// Args.Legs[i]"); for an unnamed array, where is passed down so its element
// type reads the same way.
func nestedLead(t *ir.Type, where string) string {
	if t.Name == "" {
		return where
	}
	return t.Name + " is the type of " + where
}

// docText builds a doc comment: the lead sentence (naming the type), then
// the title and description as written in the manifest.
func docText(lead, title, doc string) string {
	var b strings.Builder
	b.WriteString(lead)
	if title != "" {
		b.WriteString(": " + strings.TrimSuffix(title, "."))
	}
	b.WriteString(".")
	if doc != "" {
		b.WriteString("\n\n" + doc)
	}
	return b.String()
}

func fieldDoc(fl *ir.Field) string {
	req := "optional"
	if fl.Required {
		req = "required"
	}
	s := fmt.Sprintf("%s is the %q property (%s).", fl.GoName, fl.JSONName, req)
	if fl.Type.Doc != "" {
		s += " " + fl.Type.Doc
	}
	return s
}

func jsonTag(fl *ir.Field) string {
	if fl.Required {
		return fl.JSONName
	}
	return fl.JSONName + ",omitzero"
}

// goType is the Go type of a schema node.
func goType(t *ir.Type) jen.Code {
	switch t.Kind {
	case ir.Struct:
		return jen.Id(t.Name)
	case ir.String:
		if t.Name != "" {
			return jen.Id(t.Name)
		}
		return jen.String()
	case ir.Integer:
		return jen.Int64()
	case ir.Number:
		return jen.Float64()
	case ir.Boolean:
		return jen.Bool()
	case ir.Array:
		return jen.Index().Add(goType(t.Elem))
	}
	return jen.Any()
}

// fieldType wraps optional fields in optional.Value.
func fieldType(fl *ir.Field) jen.Code {
	if fl.Required {
		return goType(fl.Type)
	}
	return jen.Qual(pkgOptional, "Value").Types(goType(fl.Type))
}
