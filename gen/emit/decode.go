package emit

import (
	"fmt"
	"go/token"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// decoders emits, for every argument and output type, its exported Decode
// function (decode.Run: one pass over the raw JSON, every error sorted) and
// the DecodeFrom method of every named type below it, which read a value
// from a decode.Reader and check it as the IR decided: one line per check,
// calling a runtime/decode helper that reports with the reference
// validator's message. A root of shards has only the exported Decode
// functions, each a call of its shard's.
func (g *gen) decoders() *jen.File {
	f := g.newFile()
	for _, v := range g.versions() {
		g.decodeFunc(f, v, v.Args, fmt.Sprintf("the arguments of %s %s", v.Spec.Name, v.Spec.Version))
		if v.Output != nil {
			g.decodeFunc(f, v, v.Output, fmt.Sprintf("the structured output of %s %s", v.Spec.Name, v.Spec.Version))
		}
		if g.home(v) != "" {
			continue
		}
		for _, t := range v.Named {
			g.readFunc(f, t)
		}
	}
	return f
}

// decodeFunc emits the exported Decode function of t, one of v's types
// (unexported for a team's wire form).
func (g *gen) decodeFunc(f *jen.File, v *ir.Version, t *ir.Type, what string) {
	name := decoderName(t)
	home := g.home(v)
	if home != "" && !token.IsExported(name) {
		return
	}
	docf(f, "%s reads and validates %s (see decode.Begin).", name, what)
	params := jen.Params(jen.Id("data").Index().Byte())
	results := jen.Params(jen.Id("v").Id(t.Name), jen.Id("errs").Qual(pkgSchema, "Errors"), jen.Err().Error())
	if home != "" {
		forward(f, home, name, params, results, "data")
		return
	}
	f.Func().Id(name).Add(params).Add(results).Block(decodeBody("Begin")...)
	f.Line()
}

// decodeBody is the body of a Decode function: Begin (or BeginChecked),
// the value's DecodeFrom, Finish.
func decodeBody(begin string) []jen.Code {
	return []jen.Code{
		jen.Id("r").Op(":=").Qual(pkgDecode, begin).Call(jen.Id("data")),
		jen.Id("v").Dot("DecodeFrom").Call(jen.Id("r"), jen.Nil()),
		jen.List(jen.Id("errs"), jen.Err()).Op("=").Id("r").Dot("Finish").Call(),
		jen.Return(),
	}
}

// readFunc emits how a named type reads itself: DecodeFrom for a struct
// or a union, a decode function for the interface of variants.
func (g *gen) readFunc(f *jen.File, t *ir.Type) {
	params := jen.Params(jen.Id("r").Op("*").Qual(pkgDecode, "Reader"), jen.Id("at").Op("*").Qual(pkgDecode, "Loc"))
	switch t.Kind {
	case ir.Struct, ir.Union:
		body := g.readBody(t)
		if t.Delegated {
			docf(f, "DecodeFrom reads a %s at at. The reference validator checks it (%s);\n"+
				"read fills it.", t.Name, t.Reason)
			f.Func().Params(jen.Id("v").Op("*").Id(t.Name)).Id("DecodeFrom").Add(params).Block(
				jen.Id("raw").Op(":=").Id("r").Dot("Raw").Call(),
				jen.Id("r").Dot("Check").Call(jen.Id("at"), jen.Id("raw"), jen.Id(g.rootsVar(t)).Op("...")),
				jen.Id("q").Op(":=").Id("r").Dot("Quiet").Call(jen.Id("raw")),
				jen.Id("v").Dot("read").Call(jen.Id("q"), jen.Id("at")),
				jen.Id("r").Dot("Off").Call(jen.Id("q")),
			)
			f.Line()
			docf(f, "read reads a %s at at, reporting what r reports.", t.Name)
			f.Func().Params(jen.Id("v").Op("*").Id(t.Name)).Id("read").Add(params).Block(body...)
		} else {
			docf(f, "DecodeFrom reads a %s at at, adding the errors it finds to r.", t.Name)
			f.Func().Params(jen.Id("v").Op("*").Id(t.Name)).Id("DecodeFrom").Add(params).Block(body...)
		}
		f.Line()
	case ir.Variants:
		docf(f, "%s reads a %s at at: the alternative its %q names.", variantsFunc(t), t.Name, t.Tag)
		var cases []jen.Code
		for _, a := range t.Alts {
			// The alternative from r, or from raw when Tagged had to read
			// the object whole (see Reader.On).
			cases = append(cases, jen.Case(jen.Lit(a.Tag)).Block(
				jen.Var().Id("x").Id(a.Type.Name),
				jen.Id("q").Op(":=").Id("r").Dot("On").Call(jen.Id("raw")),
				jen.Id("x").Dot("DecodeFrom").Call(jen.Id("q"), jen.Id("at")),
				jen.Id("r").Dot("Off").Call(jen.Id("q")),
				jen.Return(jen.Id("x")),
			))
		}
		tags := make([]any, len(t.Alts))
		for i, a := range t.Alts {
			tags[i] = a.Tag
		}
		f.Func().Id(variantsFunc(t)).Add(params).Id(t.Name).Block(
			jen.List(jen.Id("tag"), jen.Id("raw"), jen.Id("ok")).Op(":=").Id("r").Dot("Tagged").Call(jen.Id("at"), jen.Lit(t.Tag)),
			jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Nil())),
			jen.Switch(jen.Id("tag")).Block(cases...),
			jen.Id("r").Dot("Skipped").Call(jen.Id("raw")),
			jen.Id("r").Dot("FailProp").Call(jen.Id("at"), jen.Lit(t.Tag), jen.Lit(schema.MsgEnum(tags))),
			jen.Return(jen.Nil()),
		)
		f.Line()
	}
}

func variantsFunc(t *ir.Type) string { return "decode" + strings.ToUpper(t.Name[:1]) + t.Name[1:] }

// readBody is the statements that read a struct or a union from r at at.
func (g *gen) readBody(t *ir.Type) []jen.Code {
	sc := &scope{}
	if t.Kind == ir.Union {
		var cases []jen.Code
		for _, a := range t.Alts {
			kinds := make([]jen.Code, len(a.Kinds))
			for i, k := range a.Kinds {
				kinds[i] = jen.Qual(pkgSchema, kindConst(k))
			}
			field := jen.Id("v").Dot(a.GoName)
			sc := &scope{}
			cases = append(cases, jen.Case(kinds...).Block(
				g.value(sc, a.Type, "r", jen.Id("at"), nil, func(x jen.Code) []jen.Code {
					return []jen.Code{jen.Add(field).Op("=").Qual(pkgOptional, "Some").Call(x)}
				})...,
			))
		}
		cases = append(cases, jen.Default().Block(jen.Id("r").Dot("Mismatch").Call(jen.Id("at"), g.typesVar(t.Mismatch))))
		return []jen.Code{jen.Switch(jen.Id("r").Dot("Kind").Call()).Block(cases...)}
	}
	var body []jen.Code
	if len(t.Fields) > 0 {
		body = append(body, jen.Var().Id("seen").Index(jen.Lit(len(t.Fields))).Bool())
	}
	body = append(body,
		jen.Id("o").Op(":=").Id("r").Dot("Object").Call(jen.Id("at"), g.typesVar(declared(t, schema.KindObject))),
	)
	var cases []jen.Code
	for i, fl := range t.Fields {
		sc := &scope{}
		sc.name("loc") // the property's own
		sc.name("o")   // the object's
		field := jen.Id("o").Dot("Field").Call(jen.Op("&").Id("seen").Index(jen.Lit(i)), jen.Lit(fl.JSONName), jen.Lit(schema.PropertyPath("$", fl.JSONName)))
		target := jen.Id("v").Dot(fl.GoName)
		if plain := g.plainRead(fl, "r", field); plain != nil && !fl.Forbidden {
			cases = append(cases, jen.Case(jen.Lit(fl.JSONName)).Block(jen.List(target, jen.Id("_")).Op("=").Add(plain)))
			continue
		}
		stmts := []jen.Code{jen.Id("loc").Op(":=").Add(field)}
		if fl.Type.Kind == ir.Any && !fl.Type.Delegated && !fl.Forbidden {
			stmts = []jen.Code{field} // nothing to check, nothing to report at
		}
		if fl.Forbidden {
			stmts = append(stmts, jen.Id("r").Dot("FailProp").Call(jen.Id("at"), jen.Lit(fl.JSONName), jen.Qual(pkgSchema, "MsgAdditional")))
		}
		stmts = append(stmts, g.value(sc, fl.Type, "r", jen.Id("loc"), nil, func(x jen.Code) []jen.Code {
			if !fl.Required && optionalWrapped(fl.Type) {
				x = jen.Qual(pkgOptional, "Some").Call(x)
			}
			return []jen.Code{jen.Add(target).Op("=").Add(x)}
		})...)
		cases = append(cases, jen.Case(jen.Lit(fl.JSONName)).Block(stmts...))
	}
	var dflt []jen.Code
	switch {
	case t.Extra != nil:
		sc := &scope{}
		sc.name("loc")
		sc.name("o")
		dflt = append(dflt, jen.List(jen.Id("loc"), jen.Id("name")).Op(":=").Id("o").Dot("Other").Call())
		if t.Forbidden {
			dflt = append(dflt, jen.Id("r").Dot("FailProp").Call(jen.Id("at"), jen.Id("name"), jen.Qual(pkgSchema, "MsgAdditional")))
		}
		dflt = append(dflt, g.value(sc, t.Extra, "r", jen.Id("loc"), nil, func(x jen.Code) []jen.Code {
			return []jen.Code{
				jen.If(jen.Id("v").Dot("AdditionalProperties").Op("==").Nil()).Block(
					jen.Id("v").Dot("AdditionalProperties").Op("=").Map(jen.String()).Add(goType(t.Extra)).Values(),
				),
				jen.Id("v").Dot("AdditionalProperties").Index(jen.Id("name")).Op("=").Add(x),
			}
		})...)
	case t.Forbidden:
		dflt = append(dflt, jen.Id("o").Dot("Additional").Call())
	default:
		dflt = append(dflt, jen.Id("o").Dot("Undeclared").Call())
	}
	cases = append(cases, jen.Default().Block(dflt...))
	body = append(body, jen.For(jen.Id("o").Dot("Next").Call()).Block(
		jen.Switch(jen.String().Call(jen.Id("o").Dot("Name").Call())).Block(cases...),
	))
	for i, fl := range t.Fields {
		if fl.Required {
			body = append(body, jen.Id("o").Dot("Required").Call(jen.Id("seen").Index(jen.Lit(i)), jen.Lit(fl.JSONName)))
		}
	}
	body = append(body, g.checks(sc, t, "o", jen.Id("at"), nil, nil)...)
	return body
}

// plainRead is the read of a required field whose value needs no check
// but its type ("v.Note, _ = r.Str(&loc, decode.String)": on a mismatch
// the field keeps its zero value, and the error is reported), or nil.
func (g *gen) plainRead(fl *ir.Field, rd string, loc jen.Code) jen.Code {
	t := fl.Type
	if !fl.Required || t.Delegated || len(t.Checks) > 0 || t.Name != "" {
		return nil
	}
	method, k := "", schema.KindInvalid
	switch t.Kind {
	case ir.String:
		method, k = "Str", schema.KindString
	case ir.Integer:
		method, k = "Int", schema.KindInteger
	case ir.Number:
		method, k = "Float", schema.KindNumber
	case ir.Boolean:
		method, k = "Bool", schema.KindBoolean
	default:
		return nil
	}
	return jen.Id(rd).Dot(method).Call(loc, g.typesVar(declared(t, k)))
}

// declared is what t's schemas say of a value of another type, or, when
// they say nothing, the one kind its Go type holds.
func declared(t *ir.Type, k schema.Kind) []ir.Mismatch {
	if len(t.Mismatch) > 0 {
		return t.Mismatch
	}
	return []ir.Mismatch{{Kinds: []schema.Kind{k}}}
}

// kindConst is the name of a schema.Kind constant.
func kindConst(k schema.Kind) string {
	return "Kind" + strings.ToUpper(k.String()[:1]) + k.String()[1:]
}

// scope hands out variable names unique within one function, so nested
// blocks never shadow each other.
type scope struct{ n map[string]int }

func (s *scope) name(base string) string {
	if s.n == nil {
		s.n = map[string]int{}
	}
	s.n[base]++
	if s.n[base] == 1 {
		return base
	}
	return fmt.Sprintf("%s%d", base, s.n[base])
}

// value returns the statements that read one value of type t from the
// reader named rd at loc (a *decode.Loc expression), check it, and hand it
// to assign. types, when set, is the type list a mismatch is reported
// against (a nullable's, for its value).
func (g *gen) value(sc *scope, t *ir.Type, rd string, loc jen.Code, types []ir.Mismatch, assign func(jen.Code) []jen.Code) []jen.Code {
	r := jen.Id(rd)
	if t.Delegated && !t.Named() && t.Kind != ir.Pointer {
		if t.Kind == ir.Any {
			x := sc.name("x")
			return append([]jen.Code{
				jen.Id(x).Op(":=").Add(r).Dot("Check").Call(loc, jen.Add(r).Dot("Raw").Call(), jen.Id(g.rootsVar(t)).Op("...")),
			}, assign(jen.Id(x))...)
		}
		raw, q := sc.name("raw"), sc.name("q")
		filled := *t // read without checks: the reference validator reports
		filled.Delegated, filled.Checks = false, nil
		out := []jen.Code{
			jen.Id(raw).Op(":=").Add(r).Dot("Raw").Call(),
			jen.Add(r).Dot("Check").Call(loc, jen.Id(raw), jen.Id(g.rootsVar(t)).Op("...")),
			jen.Id(q).Op(":=").Add(r).Dot("Quiet").Call(jen.Id(raw)),
		}
		out = append(out, g.value(sc, &filled, q, loc, types, assign)...)
		return append(out, jen.Add(r).Dot("Off").Call(jen.Id(q)))
	}
	kinds := func(k schema.Kind) jen.Code {
		if types != nil {
			return g.typesVar(types)
		}
		return g.typesVar(declared(t, k))
	}
	switch t.Kind {
	case ir.Struct, ir.Union:
		x := sc.name("x")
		return append([]jen.Code{
			jen.Var().Id(x).Id(t.Name),
			jen.Id(x).Dot("DecodeFrom").Call(r, loc),
		}, assign(jen.Id(x))...)
	case ir.Pointer:
		x := sc.name("x")
		read := []jen.Code{jen.Id(x).Dot("DecodeFrom").Call(r, loc)}
		if k := t.Elem.Kind; k != ir.Struct && k != ir.Union {
			// No DecodeFrom: an interface of variants (its decode
			// function picks the alternative), or a type with no name
			// (a nullable definition), read as any value of its type.
			read = g.value(sc, t.Elem, rd, loc, nil, func(v jen.Code) []jen.Code {
				return []jen.Code{jen.Op("*").Id(x).Op("=").Add(v)}
			})
		}
		return append(append([]jen.Code{
			jen.Id(x).Op(":=").New(goType(t.Elem)),
		}, read...), assign(jen.Id(x))...)
	case ir.Variants:
		return assign(jen.Id(variantsFunc(t)).Call(r, loc))
	case ir.Any:
		return assign(jen.Add(r).Dot("Any").Call())
	case ir.Nullable:
		return g.nullable(sc, t, rd, loc, assign)
	case ir.String:
		if onlyEnum(t) {
			return g.enumString(sc, t, rd, loc, kinds(schema.KindString), assign)
		}
		x, ok := sc.name("x"), sc.name("ok")
		val := jen.Id(x)
		if t.Name != "" {
			val = jen.Id(t.Name).Call(jen.Id(x))
		}
		then := append(g.checks(sc, t, rd, loc, jen.Id(x), nil), assign(val)...)
		return []jen.Code{jen.If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Add(r).Dot("Str").Call(loc, kinds(schema.KindString)), jen.Id(ok)).Block(then...)}
	case ir.Integer, ir.Number, ir.Boolean:
		x, ok := sc.name("x"), sc.name("ok")
		method, k := "Int", schema.KindInteger
		switch t.Kind {
		case ir.Number:
			method, k = "Float", schema.KindNumber
		case ir.Boolean:
			method, k = "Bool", schema.KindBoolean
		}
		then := append(g.checks(sc, t, rd, loc, jen.Id(x), nil), assign(jen.Id(x))...)
		return []jen.Code{jen.If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Add(r).Dot(method).Call(loc, kinds(k)), jen.Id(ok)).Block(then...)}
	case ir.Slice:
		a, x := sc.name("a"), sc.name("x")
		// items is what the elements are appended to: x itself, or, for
		// scalars, a buffer on the stack that x copies once they are
		// read (decode.Own): one allocation of the array's size, where
		// appending to an empty slice makes one at each doubling.
		var then []jen.Code
		items := x
		if scalar(t.Elem) {
			buf := sc.name("buf")
			items = sc.name("items")
			then = []jen.Code{
				jen.Var().Id(buf).Index(jen.Lit(stackItems)).Add(goType(t.Elem)),
				jen.Id(items).Op(":=").Id(buf).Index(jen.Empty(), jen.Lit(0)),
			}
		} else {
			then = []jen.Code{jen.Id(x).Op(":=").Index().Add(goType(t.Elem)).Values()}
		}
		var loop []jen.Code
		if t.Elem.Kind == ir.Any && !t.Elem.Delegated {
			loop = []jen.Code{jen.Id(items).Op("=").Append(jen.Id(items), jen.Id(rd).Dot("Any").Call())}
		} else {
			l, e := sc.name("loc"), sc.name("e")
			loop = []jen.Code{
				jen.Id(l).Op(":=").Id(a).Dot("Loc").Call(),
				jen.Var().Id(e).Add(goType(t.Elem)),
			}
			loop = append(loop, g.value(sc, t.Elem, rd, jen.Id(l), nil, func(v jen.Code) []jen.Code {
				return []jen.Code{jen.Id(e).Op("=").Add(v)}
			})...)
			loop = append(loop, jen.Id(items).Op("=").Append(jen.Id(items), jen.Id(e)))
		}
		then = append(then, jen.For(jen.Id(a).Dot("Next").Call()).Block(loop...))
		then = append(then, g.checks(sc, t, a, loc, jen.Id(items), nil)...)
		if items != x {
			then = append(then, jen.Id(x).Op(":=").Qual(pkgDecode, "Own").Call(jen.Id(items)))
		}
		then = append(then, assign(jen.Id(x))...)
		method := "Array"
		if slices.ContainsFunc(t.Checks, func(c ir.Check) bool { return c.Op == ir.CheckUnique }) {
			method = "UniqueArray"
		}
		return []jen.Code{jen.If(jen.Id(a).Op(":=").Add(r).Dot(method).Call(loc, kinds(schema.KindArray)), jen.Id(a).Dot("OK").Call()).Block(then...)}
	case ir.Map:
		o, x, name := sc.name("o"), sc.name("x"), sc.name("name")
		var loop []jen.Code
		if t.Elem.Kind == ir.Any && !t.Elem.Delegated {
			loop = []jen.Code{
				jen.List(jen.Id("_"), jen.Id(name)).Op(":=").Id(o).Dot("Other").Call(),
				jen.Id(x).Index(jen.Id(name)).Op("=").Id(rd).Dot("Any").Call(),
			}
		} else {
			l, e := sc.name("loc"), sc.name("e")
			loop = []jen.Code{
				jen.List(jen.Id(l), jen.Id(name)).Op(":=").Id(o).Dot("Other").Call(),
				jen.Var().Id(e).Add(goType(t.Elem)),
			}
			loop = append(loop, g.value(sc, t.Elem, rd, jen.Id(l), nil, func(v jen.Code) []jen.Code {
				return []jen.Code{jen.Id(e).Op("=").Add(v)}
			})...)
			loop = append(loop, jen.Id(x).Index(jen.Id(name)).Op("=").Id(e))
		}
		then := []jen.Code{
			jen.Id(x).Op(":=").Map(jen.String()).Add(goType(t.Elem)).Values(),
			jen.For(jen.Id(o).Dot("Next").Call()).Block(loop...),
		}
		then = append(then, g.checks(sc, t, o, loc, jen.Id(x), nil)...)
		then = append(then, assign(jen.Id(x))...)
		return []jen.Code{jen.If(jen.Id(o).Op(":=").Add(r).Dot("Object").Call(loc, kinds(schema.KindObject)), jen.Id(o).Dot("OK").Call()).Block(then...)}
	}
	panic(fmt.Sprintf("emit: no reading for %v", t.Kind))
}

// nullable reads null or the value of a nullable type. A value of a type
// neither null nor the value's is reported against the nullable's type
// list (string|null), as the reference validator reports it.
func (g *gen) nullable(sc *scope, t *ir.Type, rd string, loc jen.Code, assign func(jen.Code) []jen.Code) []jen.Code {
	r := jen.Id(rd)
	null := assign(jen.Qual(pkgOptional, "Null").Types(goType(t.Elem)).Call())
	value := func(x jen.Code) []jen.Code { return assign(jen.Qual(pkgOptional, "NotNull").Call(x)) }
	elem := t.Elem
	var guard schema.Kind
	switch elem.Kind {
	case ir.Struct, ir.Map, ir.Variants:
		guard = schema.KindObject
	case ir.Slice:
		guard = schema.KindArray
	case ir.Pointer:
		guard = schema.KindObject
	}
	stmt := jen.If(jen.Add(r).Dot("IsNull").Call()).Block(null...)
	if guard != schema.KindInvalid && !elem.Delegated {
		return []jen.Code{stmt.Else().If(jen.Add(r).Dot("Kind").Call().Op("!=").Qual(pkgSchema, kindConst(guard))).Block(
			jen.Add(r).Dot("Mismatch").Call(loc, g.typesVar(t.Mismatch)),
		).Else().Block(g.value(sc, elem, rd, loc, nil, value)...)}
	}
	return []jen.Code{stmt.Else().Block(g.value(sc, elem, rd, loc, t.Mismatch, value)...)}
}

// stackItems is the size of the stack buffer an array of scalars is read
// into (see the ir.Slice case of value): a string is the largest scalar,
// two words, so the buffer is at most 128 bytes of stack.
const stackItems = 8

// scalar reports whether t is a string, number or boolean, checked here:
// an array of them is read into a buffer on the stack.
func scalar(t *ir.Type) bool {
	switch t.Kind {
	case ir.String, ir.Integer, ir.Number, ir.Boolean:
		return !t.Delegated
	}
	return false
}

// onlyEnum reports whether t is a string enum type whose schemas state
// nothing else about the string: its value is then one of the constants,
// and reading it need not allocate.
func onlyEnum(t *ir.Type) bool {
	return len(t.Consts) > 0 && len(t.Checks) == 1
}

// enumString reads a string enum in place and assigns the matching typed
// constant; a value outside the enum is an error, and is assigned as read.
func (g *gen) enumString(sc *scope, t *ir.Type, rd string, loc, types jen.Code, assign func(jen.Code) []jen.Code) []jen.Code {
	x, ok := sc.name("x"), sc.name("ok")
	var cases []jen.Code
	seen := map[string]bool{}
	for _, c := range t.Consts {
		if seen[c[1]] {
			continue // a value listed twice: its first constant answers
		}
		seen[c[1]] = true
		cases = append(cases, jen.Case(jen.Lit(c[1])).Block(assign(jen.Id(c[0]))...))
	}
	dflt := append([]jen.Code{jen.Id(rd).Dot("Fail").Call(loc, jen.Lit(t.Checks[0].Message))}, assign(jen.Id(t.Name).Call(jen.Id(x)))...)
	cases = append(cases, jen.Default().Block(dflt...))
	return []jen.Code{jen.If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Id(rd).Dot("StrBytes").Call(loc, types), jen.Id(ok)).Block(
		jen.Switch(jen.String().Call(jen.Id(x))).Block(cases...),
	)}
}

// checks returns the checks of t on the value x (a Go value of t's kind)
// read from rd at loc: rd is the Reader for scalars, the Elements or
// Members read for an array or an object.
func (g *gen) checks(sc *scope, t *ir.Type, rd string, loc, x, _ jen.Code) []jen.Code {
	r := jen.Id(rd)
	var out []jen.Code
	f := x
	if t.Kind == ir.Integer {
		f = jen.Float64().Call(x)
	}
	for _, c := range t.Checks {
		switch c.Op {
		case ir.CheckMinLength:
			out = append(out, jen.Add(r).Dot("MinLength").Call(loc, x, jen.Lit(c.N)))
		case ir.CheckMaxLength:
			out = append(out, jen.Add(r).Dot("MaxLength").Call(loc, x, jen.Lit(c.N)))
		case ir.CheckPattern:
			out = append(out, jen.Add(r).Dot("Pattern").Call(loc, x, jen.Id(g.patternVar(t, c.Schema))))
		case ir.CheckFormat:
			out = append(out, jen.Add(r).Dot("Format").Call(loc, jen.Lit(c.Name), jen.Qual(pkgSchema, formatFunc(c.Name)).Call(x)))
		case ir.CheckMinimum:
			out = append(out, jen.Add(r).Dot("Minimum").Call(loc, f, jen.Lit(c.Bound.Value)))
		case ir.CheckMaximum:
			out = append(out, jen.Add(r).Dot("Maximum").Call(loc, f, jen.Lit(c.Bound.Value)))
		case ir.CheckExclusiveMinimum:
			out = append(out, jen.Add(r).Dot("ExclusiveMinimum").Call(loc, f, jen.Lit(c.Bound.Value)))
		case ir.CheckExclusiveMaximum:
			out = append(out, jen.Add(r).Dot("ExclusiveMaximum").Call(loc, f, jen.Lit(c.Bound.Value)))
		case ir.CheckMultipleOf:
			out = append(out, jen.Add(r).Dot("MultipleOf").Call(loc, jen.Id(g.multipleVar(t, c.Schema))))
		case ir.CheckNumberFormat:
			out = append(out, jen.Add(r).Dot("NumberFormat").Call(loc, jen.Lit(c.Name)))
		case ir.CheckConst, ir.CheckEnum:
			out = append(out, g.equality(t, c, rd, loc, x))
		case ir.CheckMinItems:
			out = append(out, jen.Add(r).Dot("MinItems").Call(jen.Lit(c.N)))
		case ir.CheckMaxItems:
			out = append(out, jen.Add(r).Dot("MaxItems").Call(jen.Lit(c.N)))
		case ir.CheckUnique:
			out = append(out, jen.Qual(pkgDecode, "Unique").Call(jen.Op("&").Id(rd), x))
		case ir.CheckMinProperties:
			out = append(out, jen.Add(r).Dot("MinProperties").Call(jen.Lit(c.N)))
		case ir.CheckMaxProperties:
			out = append(out, jen.Add(r).Dot("MaxProperties").Call(jen.Lit(c.N)))
		case ir.CheckDependentRequired:
			out = append(out, jen.Add(r).Dot("DependentRequired").Call(jen.Id("seen").Index(jen.Lit(c.Trigger.Index)),
				jen.Id("seen").Index(jen.Lit(c.Required.Index)), jen.Lit(c.Required.JSONName), jen.Lit(c.Name)))
		}
	}
	return out
}

// formatFunc is the runtime/schema check of a string format: IsDate for
// "date", IsDateTime for "date-time".
func formatFunc(name string) string {
	var b strings.Builder
	b.WriteString("Is")
	for _, w := range strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' }) {
		switch w {
		case "uri", "uuid", "ipv4", "ipv6", "iri", "idn", "json":
			b.WriteString(map[string]string{"uri": "URI", "uuid": "UUID", "ipv4": "IPv4", "ipv6": "IPv6", "iri": "IRI", "idn": "IDN", "json": "JSON"}[w])
		default:
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

// equality is an enum or const check of a scalar: a switch over the
// allowed values, the message computed here.
func (g *gen) equality(t *ir.Type, c ir.Check, rd string, loc, x jen.Code) jen.Code {
	fail := jen.Id(rd).Dot("Fail").Call(loc, jen.Lit(c.Message))
	if len(c.Values) == 0 {
		return fail // no value of this type is allowed
	}
	switch t.Kind {
	case ir.String:
		lits := make([]jen.Code, 0, len(c.Values))
		for _, v := range c.Values {
			lits = append(lits, jen.Lit(v))
		}
		return jen.Switch(jen.String().Call(x)).Block(jen.Case(lits...), jen.Default().Block(fail))
	case ir.Boolean:
		t, f := slices.Contains(c.Values, any(true)), slices.Contains(c.Values, any(false))
		switch {
		case t && f:
			return jen.Null()
		case t:
			return jen.If(jen.Op("!").Add(x)).Block(fail)
		default:
			return jen.If(x).Block(fail)
		}
	}
	lits := ir.NumberLiterals(c.Values)
	if t.Kind == ir.Integer {
		if ints, ok := ir.ExactInts(lits); ok {
			cases := make([]jen.Code, len(ints))
			for i, v := range ints {
				cases[i] = jen.Lit(v)
			}
			return jen.Switch(x).Block(jen.Case(cases...), jen.Default().Block(fail))
		}
	}
	args := make([]jen.Code, len(lits))
	for i, l := range lits {
		args[i] = jen.Lit(l)
	}
	return jen.If(jen.Op("!").Id(rd).Dot("NumberIn").Call(args...)).Block(fail)
}
