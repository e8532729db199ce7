package emit

import (
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/encode"
)

const pkgEncode = "github.com/mcpgen/mcpgen/runtime/encode"

// encoders emits how the named types of every structured output write
// their JSON: an AppendJSON method for each struct and union, and an
// append function for each interface of variants. The server encodes a
// handler's structured content on every call, and encoding/json reads a
// generated type's fields by reflection (and each optional field through
// its MarshalJSON, encoded again on its own); an AppendJSON is the same
// bytes (encode.Appender) in straight-line code. Argument types have none:
// the server decodes them and never encodes them.
func (g *gen) encoders() *jen.File {
	f := g.newFile()
	for _, v := range g.versions() {
		if g.home(v) != "" {
			continue
		}
		rec := recursive(v.Named)
		for _, t := range v.Named {
			if t.Source == "outputSchema" {
				appendFunc(f, t, rec)
			}
		}
	}
	return f
}

// recursive returns the named types among named that can contain a value
// of their own type (through a pointer: a recursive definition is typed
// with one). Their AppendJSON counts the pointers it follows.
func recursive(named []*ir.Type) map[*ir.Type]bool {
	rec := map[*ir.Type]bool{}
	for _, t := range named {
		seen := map[*ir.Type]bool{}
		var reaches func(u *ir.Type) bool
		reaches = func(u *ir.Type) bool {
			if u == nil || seen[u] {
				return false
			}
			seen[u] = true
			for _, fl := range u.Fields {
				if fl.Type == t || reaches(fl.Type) {
					return true
				}
			}
			for _, a := range u.Alts {
				if a.Type == t || reaches(a.Type) {
					return true
				}
			}
			return u.Extra == t || u.Elem == t || reaches(u.Extra) || reaches(u.Elem)
		}
		rec[t] = reaches(t)
	}
	return rec
}

// hasEncoders reports whether g's package declares an output type, whose
// named types encoders writes AppendJSON for.
func (g *gen) hasEncoders() bool {
	if g.role == rootOfShards {
		return false
	}
	for _, v := range g.versions() {
		if v.Output != nil {
			return true
		}
	}
	return false
}

// appendFunc emits how the named type t writes its JSON: AppendJSON for a
// struct or a union, a function for an interface of variants (a method
// cannot be declared on an interface). A string enum is written as the
// string it is, where it is used. A recursive type (rec) writes itself
// with a depth, the pointers followed so far, which AppendJSON starts at
// zero and encode.TooDeep bounds: a cycle a handler built is an error,
// not a stack that overflows.
func appendFunc(f *jen.File, t *ir.Type, rec map[*ir.Type]bool) {
	e := &encoder{rec: rec, depth: rec[t]}
	var body []jen.Code
	switch t.Kind {
	case ir.Struct:
		body = e.object(t)
	case ir.Union:
		var cases []jen.Code
		for _, a := range t.Alts {
			cases = append(cases, jen.Case(jen.Id("v").Dot(a.GoName).Dot("Set")).Block(
				e.value(a.Type, jen.Id("v").Dot(a.GoName).Dot("V"))...))
		}
		cases = append(cases, jen.Default().Block(appendNull()))
		body = []jen.Code{jen.Switch().Block(cases...), jen.Return(jen.Id("b"), jen.Nil())}
	case ir.Variants:
		var cases []jen.Code
		for _, a := range t.Alts {
			call := e.call(a.Type, jen.Id("x"))
			cases = append(cases,
				jen.Case(jen.Id(a.Type.Name)).Block(jen.Return(call)),
				jen.Case(jen.Op("*").Id(a.Type.Name)).Block(
					jen.If(jen.Id("x").Op("!=").Nil()).Block(jen.Return(call))),
			)
		}
		docf(f, "%s appends v's JSON to b: the alternative it holds (or null), as\n"+
			"encoding/json writes it (see encode.Appender).", variantsAppend(t))
		params := []jen.Code{jen.Id("b").Index().Byte(), jen.Id("v").Id(t.Name)}
		name := variantsAppend(t)
		if e.depth {
			f.Func().Id(name).Params(params...).Params(jen.Index().Byte(), jen.Error()).Block(
				jen.Return(jen.Id(variantsAppendDepth(t)).Call(jen.Id("b"), jen.Id("v"), jen.Lit(0))))
			f.Line()
			docf(f, "%s is %s at depth, the pointers followed to v.", variantsAppendDepth(t), variantsAppend(t))
			name, params = variantsAppendDepth(t), append(params, jen.Id("depth").Int())
		}
		f.Func().Id(name).Params(params...).Params(jen.Index().Byte(), jen.Error()).Block(
			jen.Switch(jen.Id("x").Op(":=").Id("v").Assert(jen.Type())).Block(cases...),
			jen.Return(jen.Append(jen.Id("b"), jen.Op("`null`").Op("...")), jen.Nil()),
		)
		f.Line()
		return
	default:
		return
	}
	docf(f, "AppendJSON appends v's JSON to b, as encoding/json writes its json tags\n"+
		"(see encode.Appender): the server encodes a structured output with it.")
	recv, results := jen.Params(jen.Id("v").Id(t.Name)), jen.Params(jen.Index().Byte(), jen.Error())
	name, params := "AppendJSON", []jen.Code{jen.Id("b").Index().Byte()}
	if e.depth {
		f.Func().Add(recv).Id(name).Params(params...).Add(results).Block(
			jen.Return(jen.Id("v").Dot("appendDepth").Call(jen.Id("b"), jen.Lit(0))))
		f.Line()
		doc(f, "appendDepth is AppendJSON at depth, the pointers followed to v.")
		name, params = "appendDepth", append(params, jen.Id("depth").Int())
	}
	f.Func().Add(recv).Id(name).Params(params...).Add(results).Block(append(e.decl(), body...)...)
	f.Line()
}

// variantsAppend is the name of the function that appends a value of the
// interface of variants t; variantsAppendDepth its form with a depth, for
// a recursive t.
func variantsAppend(t *ir.Type) string      { return "append" + t.Name }
func variantsAppendDepth(t *ir.Type) string { return "append" + t.Name + "Depth" }

// encoder builds the body of one append function.
type encoder struct {
	sc      scope
	usesErr bool
	// rec says which named types are recursive (see recursive); depth
	// says the function being built has a depth parameter, and deeper
	// that the value being written is one pointer below it.
	rec           map[*ir.Type]bool
	depth, deeper bool
}

// call is the call that appends x, a value of the named struct, union or
// variants type t, and returns b and an error: with the depth, when both
// this function and t have one.
func (e *encoder) call(t *ir.Type, x jen.Code) jen.Code {
	b := jen.Id("b")
	if !e.depth || !e.rec[t] {
		if t.Kind == ir.Variants {
			return jen.Id(variantsAppend(t)).Call(b, x)
		}
		return jen.Add(x).Dot("AppendJSON").Call(b)
	}
	depth := jen.Id("depth")
	if e.deeper {
		depth = jen.Id("depth").Op("+").Lit(1)
	}
	if t.Kind == ir.Variants {
		return jen.Id(variantsAppendDepth(t)).Call(b, x, depth)
	}
	return jen.Add(x).Dot("appendDepth").Call(b, depth)
}

// decl declares err when the body returns an error from a value it
// appends.
func (e *encoder) decl() []jen.Code {
	if !e.usesErr {
		return nil
	}
	return []jen.Code{jen.Var().Err().Error()}
}

// object is the body of a struct's AppendJSON: every member with a
// comma before it, then the first comma made the opening brace
// (encode.EndObject), which leaves an object with no member "{}".
func (e *encoder) object(t *ir.Type) []jen.Code {
	out := []jen.Code{jen.Id("start").Op(":=").Len(jen.Id("b"))}
	for _, fl := range t.Fields {
		x := jen.Id("v").Dot(fl.GoName)
		wrapped := !fl.Required && optionalWrapped(fl.Type)
		if wrapped {
			x = jen.Id("v").Dot(fl.GoName).Dot("V")
		}
		value := e.value(fl.Type, x)
		if fl.Type.Kind == ir.Nullable && !fl.Required {
			value = e.nullable(fl.Type, x, true) // absentTest says it is set
		}
		member := append([]jen.Code{appendRaw(memberName(fl.JSONName))}, value...)
		switch {
		case fl.Required:
			out = append(out, member...)
		case wrapped:
			out = append(out, jen.If(jen.Id("v").Dot(fl.GoName).Dot("Set")).Block(member...))
		default:
			out = append(out, jen.If(absentTest(fl.Type, jen.Id("v").Dot(fl.GoName))).Block(member...))
		}
	}
	if t.Extra != nil {
		k := e.sc.name("k")
		extra := jen.Id("v").Dot("AdditionalProperties")
		out = append(out, jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(extra))).Block(
			append([]jen.Code{
				jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(',')),
				jen.Id("b").Op("=").Qual(pkgEncode, "String").Call(jen.Id("b"), jen.Id(k)),
				jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(':')),
			}, e.value(t.Extra, jen.Add(extra).Index(jen.Id(k)))...)...))
	}
	return append(out, jen.Return(jen.Qual(pkgEncode, "EndObject").Call(jen.Id("b"), jen.Id("start")), jen.Nil()))
}

// absentTest is the condition under which an optional field of type t
// that is not an optional.Value is present: what encoding/json's
// omitzero leaves out is its zero value (optionalWrapped lists the kinds).
func absentTest(t *ir.Type, x jen.Code) jen.Code {
	switch t.Kind {
	case ir.Nullable:
		return jen.Add(x).Dot("Set")
	case ir.Union:
		return jen.Op("!").Add(x).Dot("IsZero").Call()
	case ir.String:
		return jen.Add(x).Op("!=").Lit("")
	}
	return jen.Add(x).Op("!=").Nil()
}

// value is the statements that append x, a value of type t, to b.
func (e *encoder) value(t *ir.Type, x jen.Code) []jen.Code {
	b := jen.Id("b")
	switch t.Kind {
	case ir.String:
		if t.Named() {
			x = jen.String().Call(x)
		}
		return []jen.Code{jen.Add(b).Op("=").Qual(pkgEncode, "String").Call(b, x)}
	case ir.Integer:
		return []jen.Code{jen.Add(b).Op("=").Qual("strconv", "AppendInt").Call(b, x, jen.Lit(10))}
	case ir.Boolean:
		return []jen.Code{jen.Add(b).Op("=").Qual("strconv", "AppendBool").Call(b, x)}
	case ir.Number:
		return e.fallible(jen.Qual(pkgEncode, "Float").Call(b, x))
	case ir.Struct, ir.Union:
		if !t.Named() {
			return e.fallible(jen.Qual(pkgEncode, "Append").Call(b, x))
		}
		return e.fallible(e.call(t, x))
	case ir.Variants:
		return e.fallible(e.call(t, x))
	case ir.Nullable:
		return e.nullable(t, x, false)
	case ir.Pointer:
		var below []jen.Code
		outer := e.deeper
		if e.depth {
			// A value one pointer further down: TooDeep bounds how
			// far, and the call below passes depth+1.
			e.usesErr = true
			below = append(below, jen.If(jen.Err().Op("=").Qual(pkgEncode, "TooDeep").Call(jen.Id("depth")), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Nil(), jen.Err())))
			e.deeper = true
		}
		below = append(below, e.value(t.Elem, jen.Parens(jen.Op("*").Add(x)))...)
		e.deeper = outer // a pointer inside a pointer's value leaves it one down
		return []jen.Code{jen.If(jen.Add(x).Op("==").Nil()).Block(appendNull()).Else().Block(below...)}
	case ir.Slice:
		i, el := e.sc.name("i"), e.sc.name("e")
		loop := append([]jen.Code{
			jen.If(jen.Id(i).Op(">").Lit(0)).Block(jen.Add(b).Op("=").Append(b, jen.LitRune(','))),
		}, e.value(t.Elem, jen.Id(el))...)
		return []jen.Code{jen.If(jen.Add(x).Op("==").Nil()).Block(appendNull()).Else().Block(
			jen.Add(b).Op("=").Append(b, jen.LitRune('[')),
			jen.For(jen.List(jen.Id(i), jen.Id(el)).Op(":=").Range().Add(x)).Block(loop...),
			jen.Add(b).Op("=").Append(b, jen.LitRune(']')),
		)}
	case ir.Map:
		i, k := e.sc.name("i"), e.sc.name("k")
		loop := append([]jen.Code{
			jen.If(jen.Id(i).Op(">").Lit(0)).Block(jen.Add(b).Op("=").Append(b, jen.LitRune(','))),
			jen.Add(b).Op("=").Qual(pkgEncode, "String").Call(b, jen.Id(k)),
			jen.Add(b).Op("=").Append(b, jen.LitRune(':')),
		}, e.value(t.Elem, jen.Add(x).Index(jen.Id(k)))...)
		return []jen.Code{jen.If(jen.Add(x).Op("==").Nil()).Block(appendNull()).Else().Block(
			jen.Add(b).Op("=").Append(b, jen.LitRune('{')),
			jen.For(jen.List(jen.Id(i), jen.Id(k)).Op(":=").Range().Qual("slices", "Sorted").Call(jen.Qual("maps", "Keys").Call(x))).Block(loop...),
			jen.Add(b).Op("=").Append(b, jen.LitRune('}')),
		)}
	}
	return e.fallible(jen.Qual(pkgEncode, "Append").Call(b, x))
}

// nullable is the statements that append x, an optional.Nullable of
// type t: null when absent (as its MarshalJSON writes it) or null, the
// value otherwise. set says the caller knows it present.
func (e *encoder) nullable(t *ir.Type, x jen.Code, set bool) []jen.Code {
	null := jen.Add(x).Dot("Null")
	if !set {
		null = jen.Op("!").Add(x).Dot("Set").Op("||").Add(null)
	}
	return []jen.Code{jen.If(null).Block(appendNull()).Else().Block(e.value(t.Elem, jen.Add(x).Dot("V"))...)}
}

// fallible is the statements that append with call, which returns b and
// an error, returning the error.
func (e *encoder) fallible(call jen.Code) []jen.Code {
	e.usesErr = true
	return []jen.Code{jen.If(jen.List(jen.Id("b"), jen.Err()).Op("=").Add(call), jen.Err().Op("!=").Nil()).Block(
		jen.Return(jen.Nil(), jen.Err()))}
}

// memberName is the text a member named name begins with after its
// comma: the name as a JSON string, and the colon.
func memberName(name string) string {
	return "," + string(encode.String(nil, name)) + ":"
}

// appendRaw is the statement that appends the text s, written as a raw
// string literal where it can be (JSON text is full of quotes).
func appendRaw(s string) jen.Code {
	lit := jen.Lit(s)
	if !strings.Contains(s, "`") && !strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) {
		lit = jen.Op("`" + s + "`")
	}
	return jen.Id("b").Op("=").Append(jen.Id("b"), jen.Add(lit).Op("..."))
}

func appendNull() jen.Code { return appendRaw("null") }
