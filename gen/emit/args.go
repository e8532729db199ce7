package emit

import (
	"fmt"
	"path"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// A version generated from a Go struct (mcpgen generate -source) takes the
// team's own struct as its arguments: the Handler method and the typed
// client use it, and no exported twin is emitted. Validation stays the
// generated straight-line decoder, which decodes into an unexported wire
// form (optional.Value for optional properties, as for every version) and
// reports the reference validator's errors. Arguments without a violation
// are then copied from the wire form into the team's struct (see
// fill.go): the JSON is read once, and the emitters do not learn a second
// way of decoding (into pointers, sized integers, maps) that would need
// its own copy of every check. A struct the copy cannot fill (a field of
// any type, a float32) is decoded by encoding/json from the same bytes,
// the way its tags say.

// argsType is the type a version's handler and client take: the team's
// struct, or the generated argument type.
func argsType(v *ir.Version) jen.Code {
	if v.ArgsType != nil {
		return jen.Qual(v.ArgsType.Path, v.ArgsType.Name)
	}
	return jen.Id(v.Args.Name)
}

// decoderName is the name decode.go gives the generated decoder of t. For
// an unexported wire form it is exported too (DecodepaymentsLookupV1_0_0Wire):
// decoderName names a type's top-level decoder: "Decode" + the type's name,
// unexported ("decode" + name) when the type is, so a team's wire form adds
// nothing to the package's API.
func decoderName(t *ir.Type) string {
	if t.Name != "" && unicode.IsLower([]rune(t.Name)[0]) {
		return "decode" + strings.ToUpper(t.Name[:1]) + t.Name[1:]
	}
	return "Decode" + t.Name
}

// argsLead is the first sentence of the doc comment of a version's
// argument type (or of its wire form).
func argsLead(v *ir.Version) string {
	if v.ArgsType != nil {
		return fmt.Sprintf("%s is the wire form of %s.%s, the arguments of %s %s", v.Args.Name,
			v.ArgsType.Package, v.ArgsType.Name, v.Spec.Name, v.Spec.Version)
	}
	return fmt.Sprintf("%s are the arguments of %s %s", v.Args.Name, v.Spec.Name, v.Spec.Version)
}

// importExternal names the packages of the teams' structs by their real
// names (an import path's last element need not be its package's name).
func importExternal(f *jen.File, p *ir.Package) {
	for _, t := range p.Tools {
		for _, v := range t.Versions {
			if v.ArgsType != nil {
				f.ImportName(v.ArgsType.Path, v.ArgsType.Package)
			}
		}
	}
}

// externalArgs reports whether a version takes a struct the team wrote.
func (g *gen) externalArgs() bool {
	for _, v := range g.versions() {
		if v.ArgsType != nil {
			return true
		}
	}
	return false
}

// argsDecoders emits, for each version that takes the team's struct, its
// Decode function: the wire form's generated decoder validates, then
// encoding/json fills the struct (in a root of shards, a call of the
// shard's).
func (g *gen) argsDecoders() *jen.File {
	f := g.newFile()
	var fl filler
	for _, v := range g.versions() {
		if v.ArgsType == nil {
			continue
		}
		name := "Decode" + v.ArgsName()
		wire := decoderName(v.Args)
		home := g.home(v)
		if home != "" {
			wire += " of " + path.Base(home) // a shard's unexported function
		}
		params := jen.Params(jen.Id("data").Index().Byte())
		results := jen.Params(jen.Id("v").Add(argsType(v)), jen.Id("errs").Qual(pkgSchema, "Errors"), jen.Err().Error())
		if home == "" && v.ArgsType.Value != nil && fl.plan(v.Args, v.ArgsType.Value) {
			docf(f, "%s reads the arguments of %s %s into %s.%s,\n"+
				"the struct they are declared with. The generated decoder (%s)\n"+
				"reads and validates the raw JSON, in one pass, and returns every violation,\n"+
				"sorted, with the reference validator's messages; arguments without a\n"+
				"violation are copied from what it read into the struct. err reports\n"+
				"input that is not one well-formed JSON value.",
				name, v.Spec.Name, v.Spec.Version, v.ArgsType.Package, v.ArgsType.Name, wire)
			f.Func().Id(name).Add(params).Add(results).Block(
				jen.List(jen.Id("w"), jen.Id("errs"), jen.Err()).Op(":=").Id(wire).Call(jen.Id("data")),
				jen.If(jen.Err().Op("!=").Nil().Op("||").Len(jen.Id("errs")).Op(">").Lit(0)).Block(jen.Return(jen.Id("v"), jen.Id("errs"), jen.Err())),
				jen.Return(jen.Id("w").Dot(fillMethod).Call(), jen.Nil(), jen.Nil()),
			)
			f.Line()
			fl.emit(f)
			continue
		}
		docf(f, "%s reads the arguments of %s %s into %s.%s,\n"+
			"the struct they are declared with. The generated decoder (%s)\n"+
			"validates the raw JSON first, in one pass, and returns every violation,\n"+
			"sorted, with the reference validator's messages; only arguments without a\n"+
			"violation are decoded into the struct, by encoding/json with the struct's\n"+
			"own tags. err reports input that is not one well-formed JSON value.",
			name, v.Spec.Name, v.Spec.Version, v.ArgsType.Package, v.ArgsType.Name, wire)
		if home != "" {
			forward(f, home, name, params, results, "data")
			continue
		}
		f.Func().Id(name).Add(params).Add(results).Block(
			jen.If(
				jen.List(jen.Id("_"), jen.Id("errs"), jen.Err()).Op("=").Id(wire).Call(jen.Id("data")),
				jen.Err().Op("!=").Nil().Op("||").Len(jen.Id("errs")).Op(">").Lit(0),
			).Block(jen.Return(jen.Id("v"), jen.Id("errs"), jen.Err())),
			jen.Err().Op("=").Qual("encoding/json", "Unmarshal").Call(jen.Id("data"), jen.Op("&").Id("v")),
			jen.Return(jen.Id("v"), jen.Nil(), jen.Err()),
		)
		f.Line()
	}
	return f
}
