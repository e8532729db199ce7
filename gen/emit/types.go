package emit

import (
	"fmt"
	"go/token"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// types emits the named types of every version: the argument and output
// structs, the structs, enums, unions and variants below them, and the
// $defs entries they use. A root of shards declares each exported one as
// an alias of its shard's type, with the same doc, so the package's API
// does not depend on its layout.
func (g *gen) types() *jen.File {
	f := g.newFile()
	for _, v := range g.versions() {
		home := g.home(v)
		for _, t := range v.Named {
			g.namedType(f, home, v, t)
		}
		if l := v.Line; v == l.Newest && v.ArgsType == nil {
			g.lineAlias(f, home, l)
		}
	}
	return f
}

// lineAlias declares a line's argument alias, the type its Handler method
// takes: the newest version's argument type, under a name a new minor of
// the line does not change (a root of shards aliases its shard's alias).
func (g *gen) lineAlias(f *jen.File, home string, l *ir.Line) {
	docf(f, "%s is what Handler.%s takes: the arguments of %s,\n"+
		"the newest version of the %d.x line. A compatible minor release moves it to\n"+
		"that minor's arguments, which only add optional fields or loosen checks.",
		l.ArgsAlias(), l.GoName, l.Newest.Spec.Key(), l.Major)
	if home != "" {
		alias(f, home, l.ArgsAlias())
	} else {
		f.Type().Id(l.ArgsAlias()).Op("=").Id(l.Newest.Args.Name)
	}
	f.Line()
}

// lead is the first sentence of a named type's doc comment.
func lead(v *ir.Version, t *ir.Type) string {
	switch {
	case t == v.Args:
		return argsLead(v)
	case t == v.Output:
		return fmt.Sprintf("%s is the structured output of %s %s", t.Name, v.Spec.Name, v.Spec.Version)
	case t.Def != "":
		return fmt.Sprintf("%s is the definition %q of %s %s", t.Name, t.Def, v.Spec.Name, v.Spec.Version)
	}
	return fmt.Sprintf("%s is a value of %s %s", t.Name, v.Spec.Name, v.Spec.Version)
}

func (g *gen) namedType(f *jen.File, home string, v *ir.Version, t *ir.Type) {
	if home != "" && !token.IsExported(t.Name) {
		return // the root names only exported types
	}
	title, description := "", t.Doc
	if t == v.Args {
		title, description = v.Spec.Title, v.Spec.Description
	}
	switch t.Kind {
	case ir.Struct:
		doc(f, docText(lead(v, t), title, description))
	case ir.String:
		doc(f, docText(lead(v, t)+", one of the values the schema allows", "", description))
	case ir.Union:
		doc(f, docText(lead(v, t)+": one of "+altList(t)+"; exactly one field is set", "", description))
	case ir.Variants:
		doc(f, docText(lead(v, t)+": one of "+altList(t)+", told apart by their "+fmt.Sprintf("%q", t.Tag), "", description))
	}
	if home != "" {
		alias(f, home, t.Name)
		f.Line()
		if t.Kind == ir.String {
			g.enumConsts(f, home, t)
		}
		return
	}
	switch t.Kind {
	case ir.Struct:
		fields := make([]jen.Code, 0, 2*len(t.Fields)+2)
		for _, fl := range t.Fields {
			fields = append(fields, jen.Comment(fieldDoc(fl)), jen.Id(fl.GoName).Add(fieldType(fl)).Tag(map[string]string{"json": jsonTag(fl)}))
		}
		if t.Extra != nil {
			fields = append(fields,
				jen.Comment("AdditionalProperties holds the properties the schema does not declare."),
				jen.Id("AdditionalProperties").Map(jen.String()).Add(goType(t.Extra)).Tag(map[string]string{"json": "-"}))
		}
		f.Type().Id(t.Name).Struct(fields...)
		if t.Extra != nil {
			f.Line()
			docf(f, "MarshalJSON writes the declared properties and AdditionalProperties as one object.")
			f.Func().Params(jen.Id("v").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
				jen.Type().Id("plain").Id(t.Name),
				jen.Return(jen.Qual(pkgDecode, "MarshalWithExtra").Call(jen.Id("plain").Call(jen.Id("v")), jen.Id("v").Dot("AdditionalProperties"))),
			)
		}
	case ir.String:
		f.Type().Id(t.Name).String()
		f.Line()
		g.enumConsts(f, "", t)
		return
	case ir.Union:
		fields := make([]jen.Code, 0, 2*len(t.Alts))
		for _, a := range t.Alts {
			fields = append(fields, jen.Commentf("%s is set when the value is %s.", a.GoName, kindText(a)),
				jen.Id(a.GoName).Qual(pkgOptional, "Value").Types(goType(a.Type)))
		}
		f.Type().Id(t.Name).Struct(fields...)
		f.Line()
		cases := make([]jen.Code, 0, len(t.Alts))
		zero := jen.Null()
		for i, a := range t.Alts {
			cases = append(cases, jen.Case(jen.Id("v").Dot(a.GoName).Dot("Set")).Block(
				jen.Return(jen.Qual(pkgEncode, "Marshal").Call(jen.Id("v").Dot(a.GoName).Dot("V")))))
			if i > 0 {
				zero = zero.Op("&&")
			}
			zero = zero.Op("!").Id("v").Dot(a.GoName).Dot("Set")
		}
		doc(f, "MarshalJSON writes the alternative that is set.")
		f.Func().Params(jen.Id("v").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
			jen.Switch().Block(cases...),
			jen.Return(jen.Index().Byte().Call(jen.Lit("null")), jen.Nil()),
		)
		f.Line()
		doc(f, "IsZero reports whether no alternative is set.")
		f.Func().Params(jen.Id("v").Id(t.Name)).Id("IsZero").Params().Bool().Block(jen.Return(zero))
	case ir.Variants:
		f.Type().Id(t.Name).Interface(jen.Id(marker(t)).Params())
		f.Line()
		for _, a := range t.Alts {
			docf(f, "%s makes %s one of %s (%q: %q).", marker(t), a.Type.Name, t.Name, t.Tag, a.Tag)
			f.Func().Params(jen.Id(a.Type.Name)).Id(marker(t)).Params().Block()
			f.Line()
		}
		return
	}
	f.Line()
}

// marker is the method that seals a variants interface.
func marker(t *ir.Type) string { return "is" + t.Name }

func altList(t *ir.Type) string {
	names := make([]string, len(t.Alts))
	for i, a := range t.Alts {
		if t.Kind == ir.Variants {
			names[i] = a.Type.Name
		} else {
			names[i] = kindText(a)
		}
	}
	return strings.Join(names, ", ")
}

// kindText describes the values a union alternative takes.
func kindText(a *ir.Alt) string {
	names := make([]string, len(a.Kinds))
	for i, k := range a.Kinds {
		names[i] = k.String()
	}
	return "a JSON " + strings.Join(names, " or ")
}

// enumConsts declares the constants of a string enum type (in a root of
// shards, as the shard's).
func (g *gen) enumConsts(f *jen.File, home string, t *ir.Type) {
	if len(t.Consts) == 0 {
		return
	}
	consts := make([]jen.Code, 0, 2*len(t.Consts))
	for _, c := range t.Consts {
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

// alias declares the type name as an alias of home's type of that name.
func alias(f *jen.File, home, name string) { f.Type().Id(name).Op("=").Qual(home, name) }

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
	switch {
	case fl.Required:
		req = "required"
	case enumWithoutEmpty(fl.Type):
		req = `optional: "" when absent`
	}
	s := fmt.Sprintf("%s is the %q property (%s).", fl.GoName, fl.JSONName, req)
	if d := fl.Type.Doc; d != "" {
		s += " " + strings.Join(strings.Fields(d), " ")
	}
	return s
}

// jsonTag leaves an absent optional property out (omitzero: an unset
// optional.Value or Nullable, a nil pointer, map or interface), so the
// typed client sends what the caller set and nothing else.
func jsonTag(fl *ir.Field) string {
	if fl.Required {
		return fl.JSONName
	}
	return fl.JSONName + ",omitzero"
}

// optionalWrapped reports whether an optional field of type t is an
// optional.Value (the other kinds say "absent" themselves: a nil pointer,
// map or interface, an unset Nullable or union, and a string enum without
// "" among its values, whose zero value no call can send).
//
// An enum is kept out of optional.Value for the build's sake too: each
// instantiation optional.Value[E] with a type E of its own is compiled
// again in every package that names it (a sharded package's root names
// them all), about 0.3 MiB of compiler memory apiece.
func optionalWrapped(t *ir.Type) bool {
	switch t.Kind {
	case ir.Pointer, ir.Variants, ir.Map:
		return false
	case ir.Nullable, ir.Union:
		return false
	case ir.String:
		return !enumWithoutEmpty(t)
	}
	return true
}

// enumWithoutEmpty reports whether t is a string enum type none of whose
// values is "".
func enumWithoutEmpty(t *ir.Type) bool {
	if t.Name == "" || len(t.Consts) == 0 {
		return false
	}
	for _, c := range t.Consts {
		if c[1] == "" {
			return false
		}
	}
	return true
}

// goType is the Go type of a value.
func goType(t *ir.Type) jen.Code {
	switch t.Kind {
	case ir.Struct, ir.Union, ir.Variants:
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
	case ir.Slice:
		return jen.Index().Add(goType(t.Elem))
	case ir.Map:
		return jen.Map(jen.String()).Add(goType(t.Elem))
	case ir.Nullable:
		return jen.Qual(pkgOptional, "Nullable").Types(goType(t.Elem))
	case ir.Pointer:
		return jen.Op("*").Add(goType(t.Elem))
	}
	return jen.Any()
}

// fieldType wraps an optional field in optional.Value where its type does
// not say "absent" itself.
func fieldType(fl *ir.Field) jen.Code {
	if fl.Required || !optionalWrapped(fl.Type) {
		return goType(fl.Type)
	}
	return jen.Qual(pkgOptional, "Value").Types(goType(fl.Type))
}
