package emit

import (
	"fmt"
	"go/token"
	"math"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// decoders emits, for every argument and output type, a Decode function
// that reads raw JSON in one pass with jx and returns the typed value and
// every validation error, sorted; and a decodeJSON method per struct type.
// The code is straight-line for the exact schema: each check the schema
// states is one `if`, with its message computed here, at generation time,
// by runtime/schema's message functions. A root of shards has only the
// exported Decode functions, each a call of its shard's.
func (g *gen) decoders() *jen.File {
	f := g.newFile()
	for _, v := range g.versions() {
		g.decodeFunc(f, v, v.Args, fmt.Sprintf("the arguments of %s %s", v.Spec.Name, v.Spec.Version))
		if v.Output != nil {
			g.decodeFunc(f, v, v.Output, fmt.Sprintf("the structured output of %s %s", v.Spec.Name, v.Spec.Version))
		}
	}
	return f
}

// decodeFunc emits the Decode function of t, one of v's types, its checked
// form and the decodeJSON methods below it.
func (g *gen) decodeFunc(f *jen.File, v *ir.Version, t *ir.Type, what string) {
	name := decoderName(t)
	home := g.home(v)
	if home != "" && !token.IsExported(name) {
		return
	}
	docf(f, "%s reads %s from raw JSON and validates them in one\n"+
		"pass, after decode.Check's scan for what the JSON decoder would read leniently.\n"+
		"It returns the typed value and every schema violation, sorted by (path,\n"+
		"message), with the reference validator's messages; the value is only\n"+
		"meaningful when there are none. err reports input that is not one\n"+
		"well-formed JSON value (syntax, invalid UTF-8, a duplicate property).", name, what)
	params := jen.Params(jen.Id("data").Index().Byte())
	results := jen.Params(jen.Id("v").Id(t.Name), jen.Id("errs").Qual(pkgSchema, "Errors"), jen.Err().Error())
	if home != "" {
		forward(f, home, name, params, results, "data")
		return
	}
	f.Func().Id(name).Add(params).Add(results).Block(
		jen.If(jen.Err().Op("=").Qual(pkgDecode, "Check").Call(jen.Id("data")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Id("v"), jen.Nil(), jen.Err()),
		),
		jen.Return(jen.Id(checkedName(t)).Call(jen.Id("data"))),
	)
	f.Line()
	docf(f, "%s is %s for input already read strictly (valid UTF-8, no escaped lone\n"+
		"surrogate), as the server's JSON-RPC decoder reads every message before its\n"+
		"arguments reach a validator: Register binds it, so a call's bytes are not\n"+
		"scanned twice.", checkedName(t), name)
	f.Func().Id(checkedName(t)).Params(jen.Id("data").Index().Byte()).Add(results).Block(
		jen.Id("d").Op(":=").Qual(pkgJx, "GetDecoder").Call(),
		jen.Defer().Qual(pkgJx, "PutDecoder").Call(jen.Id("d")),
		jen.Id("d").Dot("ResetBytes").Call(jen.Id("data")),
		jen.If(jen.Err().Op("=").Id("v").Dot("decodeJSON").Call(jen.Id("d"), jen.Nil(), jen.Op("&").Id("errs")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Id("v"), jen.Nil(), jen.Err()),
		),
		jen.If(jen.Err().Op("=").Qual(pkgDecode, "End").Call(jen.Id("d")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Id("v"), jen.Nil(), jen.Err()),
		),
		jen.Qual(pkgSchema, "SortErrors").Call(jen.Id("errs")),
		jen.Return(jen.Id("v"), jen.Id("errs"), jen.Nil()),
	)
	f.Line()
	g.structDecoders(f, t)
}

// structDecoders emits decodeJSON for t and every struct below it.
func (g *gen) structDecoders(f *jen.File, t *ir.Type) {
	switch t.Kind {
	case ir.Struct:
		g.structDecoder(f, t)
		for _, fl := range t.Fields {
			g.structDecoders(f, fl.Type)
		}
	case ir.Array:
		g.structDecoders(f, t.Elem)
	}
}

// scope hands out variable names unique within one function, so nested
// blocks never shadow each other.
type scope struct{ n int }

func (s *scope) name(base string) string {
	s.n++
	return fmt.Sprintf("%s%d", base, s.n)
}

func (g *gen) structDecoder(f *jen.File, t *ir.Type) {
	sc := &scope{}
	at := jen.Id("at")
	var cases []jen.Code
	for i, fl := range t.Fields {
		loc := sc.name("loc")
		target := jen.Id("v").Dot(fl.GoName)
		assign := func(val jen.Code) jen.Code { return jen.Add(target).Op("=").Add(val) }
		if !fl.Required {
			assign = func(val jen.Code) jen.Code {
				return jen.Add(target).Op("=").Qual(pkgOptional, "Some").Call(val)
			}
		}
		body := []jen.Code{
			jen.If(jen.Id("seen").Index(jen.Lit(i))).Block(jen.Return(jen.Qual(pkgDecode, "Duplicate").Call(at, jen.Lit(fl.JSONName)))),
			jen.Id("seen").Index(jen.Lit(i)).Op("=").True(),
		}
		if !unchecked(fl.Type) {
			body = append(body, jen.Id(loc).Op(":=").Add(field(at, fl.JSONName)))
		}
		body = append(body, g.value(sc, fl.Type, jen.Op("&").Id(loc), assign)...)
		cases = append(cases, jen.Case(jen.Lit(fl.JSONName)).Block(body...))
	}
	// Undeclared properties.
	s := t.Schema
	var dflt []jen.Code
	dflt = append(dflt,
		jen.Id("name").Op(":=").String().Call(jen.Id("iter").Dot("Key").Call()),
		jen.If(jen.Err().Op(":=").Qual(pkgDecode, "Extra").Call(jen.Op("&").Id("extra"), at, jen.Id("name")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	)
	switch {
	case s.Closed:
		dflt = append(dflt,
			jen.If(jen.Err().Op(":=").Qual(pkgDecode, "Skip").Call(jen.Id("d")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.Qual(pkgDecode, "AddProp").Call(jen.Id("errs"), at, jen.Id("name"), jen.Qual(pkgSchema, "MsgAdditional")),
		)
	case s.AdditionalProperties != nil:
		extra := g.extras[t]
		dflt = append(dflt,
			jen.List(jen.Id("val"), jen.Err()).Op(":=").Qual(pkgDecode, "Value").Call(jen.Id("d")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.Id(g.anyVars[extra]).Dot("ValidateAt").Call(jen.Id("val"),
				jen.Qual(pkgSchema, "PropertyPath").Call(jen.Id("at").Dot("String").Call(), jen.Id("name")), jen.Id("errs")),
		)
	default:
		dflt = append(dflt,
			jen.If(jen.Err().Op(":=").Qual(pkgDecode, "Skip").Call(jen.Id("d")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		)
	}
	cases = append(cases, jen.Default().Block(dflt...))

	var required []jen.Code
	for i, fl := range t.Fields {
		if fl.Required {
			required = append(required, jen.If(jen.Op("!").Id("seen").Index(jen.Lit(i))).Block(
				jen.Id("loc").Op(":=").Add(field(at, fl.JSONName)),
				jen.Qual(pkgDecode, "Add").Call(jen.Id("errs"), jen.Op("&").Id("loc"), jen.Qual(pkgSchema, "MsgRequired")),
			))
		}
	}

	body := []jen.Code{
		jen.If(jen.Id("t").Op(":=").Id("d").Dot("Next").Call(), jen.Id("t").Op("!=").Qual(pkgJx, "Object")).Block(
			jen.Return(jen.Qual(pkgDecode, "Mismatch").Call(jen.Id("d"), jen.Id("t"), jen.Id("errs"), at, jen.Qual(pkgSchema, "KindObject"))),
		),
	}
	if len(t.Fields) > 0 {
		body = append(body, jen.Var().Id("seen").Index(jen.Lit(len(t.Fields))).Bool())
	}
	body = append(body,
		jen.Var().Id("extra").Index().String(),
		jen.List(jen.Id("iter"), jen.Err()).Op(":=").Id("d").Dot("ObjIter").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.For(jen.Id("iter").Dot("Next").Call()).Block(
			jen.Switch(jen.String().Call(jen.Id("iter").Dot("Key").Call())).Block(cases...),
		),
		jen.If(jen.Err().Op(":=").Id("iter").Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	)
	body = append(body, required...)
	body = append(body, jen.Return(jen.Nil()))

	docf(f, "decodeJSON reads a %s at `at`, appending schema violations to errs.", t.Name)
	f.Func().Params(jen.Id("v").Op("*").Id(t.Name)).Id("decodeJSON").Params(
		jen.Id("d").Op("*").Qual(pkgJx, "Decoder"), jen.Id("at").Op("*").Qual(pkgDecode, "Loc"), jen.Id("errs").Op("*").Qual(pkgSchema, "Errors"),
	).Error().Block(body...)
	f.Line()
}

// field is the location of a declared property under at, with the path it
// has at the top level written out (decode.Field).
func field(at jen.Code, name string) jen.Code {
	return jen.Qual(pkgDecode, "Field").Call(at, jen.Lit(name), jen.Lit(schema.PropertyPath("$", name)))
}

// value returns the statements that read one value of type t at loc (an
// expression of type *decode.Loc), check it, and hand it to assign.
func (g *gen) value(sc *scope, t *ir.Type, loc jen.Code, assign func(jen.Code) jen.Code) []jen.Code {
	errs := jen.Id("errs")
	add := func(msg string) jen.Code { return jen.Qual(pkgDecode, "Add").Call(errs, loc, jen.Lit(msg)) }
	retErr := jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
	mismatch := func(jxType string, want string) jen.Code {
		return jen.If(
			jen.Err().Op(":=").Qual(pkgDecode, "Mismatch").Call(jen.Id("d"), jen.Id("t"), errs, loc, jen.Qual(pkgSchema, want)),
			jen.Err().Op("!=").Nil(),
		).Block(jen.Return(jen.Err()))
	}
	typed := func(jxType, want string, then ...jen.Code) []jen.Code {
		return []jen.Code{jen.If(jen.Id("t").Op(":=").Id("d").Dot("Next").Call(), jen.Id("t").Op("!=").Qual(pkgJx, jxType)).Block(
			mismatch(jxType, want),
		).Else().Block(then...)}
	}
	s := t.Schema
	switch t.Kind {
	case ir.Struct:
		x := sc.name("x")
		return []jen.Code{
			jen.Var().Id(x).Id(t.Name),
			jen.If(jen.Err().Op(":=").Id(x).Dot("decodeJSON").Call(jen.Id("d"), loc, errs), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			assign(jen.Id(x)),
		}
	case ir.String:
		if onlyEnum(t) {
			return typed("String", "KindString", enumString(sc, t, add, assign)...)
		}
		x := sc.name("s")
		then := []jen.Code{
			jen.List(jen.Id(x), jen.Err()).Op(":=").Qual(pkgDecode, "Str").Call(jen.Id("d")),
			retErr,
		}
		then = append(then, g.stringChecks(sc, s, jen.Id(x), add)...)
		val := jen.Id(x)
		if t.Name != "" {
			val = jen.Id(t.Name).Call(jen.Id(x))
		}
		then = append(then, assign(val))
		return typed("String", "KindString", then...)
	case ir.Integer:
		n, x, ok := sc.name("n"), sc.name("i"), sc.name("ok")
		checks := append(numberChecks(s, jen.Float64().Call(jen.Id(x)), add), g.numberEquality(sc, s, jen.Id(n), jen.Id(x), true, add)...)
		checks = append(checks, assign(jen.Id(x)))
		return typed("Number", "KindInteger",
			jen.List(jen.Id(n), jen.Err()).Op(":=").Id("d").Dot("Num").Call(),
			retErr,
			jen.If(jen.Op("!").Qual(pkgSchema, "IsIntegerLiteral").Call(jen.Id(n))).Block(
				add(schema.MsgType([]schema.Kind{schema.KindInteger}, schema.KindNumber)),
			).Else().If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Qual(pkgDecode, "Int64").Call(jen.Id(n)), jen.Op("!").Id(ok)).Block(
				jen.Qual(pkgDecode, "Add").Call(errs, loc, jen.Qual(pkgSchema, "MsgIntegerRange")),
			).Else().Block(checks...),
		)
	case ir.Number:
		n, x, ok := sc.name("n"), sc.name("f"), sc.name("ok")
		checks := append(numberChecks(s, jen.Id(x), add), g.numberEquality(sc, s, jen.Id(n), nil, false, add)...)
		checks = append(checks, assign(jen.Id(x)))
		return typed("Number", "KindNumber",
			jen.List(jen.Id(n), jen.Err()).Op(":=").Id("d").Dot("Num").Call(),
			retErr,
			jen.If(jen.List(jen.Id(x), jen.Id(ok)).Op(":=").Qual(pkgDecode, "Float64").Call(jen.Id(n)), jen.Op("!").Id(ok)).Block(
				jen.Qual(pkgDecode, "Add").Call(errs, loc, jen.Qual(pkgSchema, "MsgNumberRange")),
			).Else().Block(checks...),
		)
	case ir.Boolean:
		x := sc.name("b")
		then := []jen.Code{
			jen.List(jen.Id(x), jen.Err()).Op(":=").Id("d").Dot("Bool").Call(),
			retErr,
		}
		then = append(then, boolChecks(s, jen.Id(x), add)...)
		then = append(then, assign(jen.Id(x)))
		return typed("Bool", "KindBoolean", then...)
	case ir.Array:
		items, iter, el := sc.name("items"), sc.name("iter"), sc.name("e")
		var loop []jen.Code
		eloc := sc.name("loc")
		if !unchecked(t.Elem) {
			// The element's index is the number of elements before it.
			loop = append(loop, jen.Id(eloc).Op(":=").Qual(pkgDecode, "Elem").Call(loc, jen.Len(jen.Id(items))))
		}
		loop = append(loop, jen.Var().Id(el).Add(goType(t.Elem)))
		loop = append(loop, g.value(sc, t.Elem, jen.Op("&").Id(eloc), func(v jen.Code) jen.Code { return jen.Id(el).Op("=").Add(v) })...)
		loop = append(loop, jen.Id(items).Op("=").Append(jen.Id(items), jen.Id(el)))
		var then []jen.Code
		raw, before := sc.name("raw"), sc.name("before")
		if s.UniqueItems {
			// Uniqueness is of JSON values; the raw array decides when
			// the Go values cannot (see decode.UniqueItems).
			then = append(then,
				jen.List(jen.Id(raw), jen.Err()).Op(":=").Qual(pkgDecode, "Peek").Call(jen.Id("d")),
				retErr,
				jen.Id(before).Op(":=").Len(jen.Op("*").Add(errs)),
			)
		}
		then = append(then,
			jen.Id(items).Op(":=").Index().Add(goType(t.Elem)).Values(),
			jen.List(jen.Id(iter), jen.Err()).Op(":=").Id("d").Dot("ArrIter").Call(),
			retErr,
			jen.For(jen.Id(iter).Dot("Next").Call()).Block(loop...),
			jen.If(jen.Err().Op(":=").Id(iter).Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		)
		if s.UniqueItems {
			clean := jen.Len(jen.Op("*").Add(errs)).Op("==").Id(before)
			then = append(then, jen.If(jen.Op("!").Qual(pkgDecode, "UniqueItems").Call(jen.Id(items), jen.Id(raw), clean)).Block(add(schema.MsgUnique)))
		}
		if s.MinItems != nil {
			then = append(then, jen.If(jen.Len(jen.Id(items)).Op("<").Lit(*s.MinItems)).Block(add(schema.MsgMinItems(*s.MinItems))))
		}
		if s.MaxItems != nil {
			then = append(then, jen.If(jen.Len(jen.Id(items)).Op(">").Lit(*s.MaxItems)).Block(add(schema.MsgMaxItems(*s.MaxItems))))
		}
		then = append(then, assign(jen.Id(items)))
		return typed("Array", "KindArray", then...)
	}
	// Any: the reference validator checks the decoded value.
	val := sc.name("val")
	out := []jen.Code{
		jen.List(jen.Id(val), jen.Err()).Op(":=").Qual(pkgDecode, "Value").Call(jen.Id("d")),
		retErr,
	}
	if !unchecked(t) {
		out = append(out, jen.Id(g.anyVars[t]).Dot("ValidateAt").Call(jen.Id(val), jen.Parens(loc).Dot("String").Call(), errs))
	}
	return append(out, assign(jen.Id(val)))
}

// onlyEnum reports whether t is a string enum type whose schema states
// nothing else about the string: its value is then one of the constants,
// and reading it need not allocate.
func onlyEnum(t *ir.Type) bool {
	s := t.Schema
	return t.Name != "" && s.HasEnum && !s.HasConst && s.MinLength == nil && s.MaxLength == nil && s.Pattern == ""
}

// enumString reads a string enum in place and assigns the matching typed
// constant; a value outside the enum is an error, and is assigned as read.
func enumString(sc *scope, t *ir.Type, add func(string) jen.Code, assign func(jen.Code) jen.Code) []jen.Code {
	x := sc.name("s")
	var cases []jen.Code
	seen := map[string]bool{}
	for _, c := range t.EnumConsts() {
		if seen[c[1]] {
			continue // a value listed twice: its first constant answers
		}
		seen[c[1]] = true
		cases = append(cases, jen.Case(jen.Lit(c[1])).Block(assign(jen.Id(c[0]))))
	}
	cases = append(cases, jen.Default().Block(
		add(schema.MsgEnum(t.Schema.Enum)),
		assign(jen.Id(t.Name).Call(jen.Id(x))),
	))
	return []jen.Code{
		jen.List(jen.Id(x), jen.Err()).Op(":=").Qual(pkgDecode, "StrBytes").Call(jen.Id("d")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Switch(jen.String().Call(jen.Id(x))).Block(cases...),
	}
}

// unchecked reports whether t is a node without a document: the elements
// of an array with no items schema. It accepts every JSON value, and no
// sub-schema of the declared schema stands for it, so its value is read and
// nothing is checked; its location is not needed.
func unchecked(t *ir.Type) bool {
	return t.Kind == ir.Any && len(t.Schema.Document()) == 0
}

func (g *gen) stringChecks(sc *scope, s *schema.Schema, x jen.Code, add func(string) jen.Code) []jen.Code {
	var out []jen.Code
	if s.HasConst {
		if c, ok := s.Const.(string); ok {
			out = append(out, jen.If(jen.Add(x).Op("!=").Lit(c)).Block(add(schema.MsgConst(s.Const))))
		} else {
			out = append(out, add(schema.MsgConst(s.Const)))
		}
	}
	if s.HasEnum {
		var members []jen.Code
		for _, e := range s.Enum {
			if str, ok := e.(string); ok {
				members = append(members, jen.Lit(str))
			}
		}
		if len(members) == 0 {
			out = append(out, add(schema.MsgEnum(s.Enum)))
		} else {
			out = append(out, jen.Switch(x).Block(
				jen.Case(members...),
				jen.Default().Block(add(schema.MsgEnum(s.Enum))),
			))
		}
	}
	if s.MinLength != nil || s.MaxLength != nil {
		n := sc.name("runes")
		out = append(out, jen.Id(n).Op(":=").Qual("unicode/utf8", "RuneCountInString").Call(x))
		if s.MinLength != nil {
			out = append(out, jen.If(jen.Id(n).Op("<").Lit(*s.MinLength)).Block(add(schema.MsgMinLength(*s.MinLength))))
		}
		if s.MaxLength != nil {
			out = append(out, jen.If(jen.Id(n).Op(">").Lit(*s.MaxLength)).Block(add(schema.MsgMaxLength(*s.MaxLength))))
		}
	}
	if s.Pattern != "" {
		out = append(out, jen.If(jen.Op("!").Id(g.patterns[s.Pattern]).Dot("MatchString").Call(x)).Block(add(schema.MsgPattern(s.Pattern))))
	}
	return out
}

// numberChecks are the bounds; f is the value as a float64, compared the
// way the reference validator compares.
func numberChecks(s *schema.Schema, f jen.Code, add func(string) jen.Code) []jen.Code {
	var out []jen.Code
	bound := func(b *schema.Bound, op string, msg string) {
		if b != nil {
			out = append(out, jen.If(jen.Add(f).Op(op).Lit(b.Value)).Block(add(msg)))
		}
	}
	if s.Minimum != nil {
		bound(s.Minimum, "<", schema.MsgMinimum(s.Minimum))
	}
	if s.Maximum != nil {
		bound(s.Maximum, ">", schema.MsgMaximum(s.Maximum))
	}
	if s.ExclusiveMinimum != nil {
		bound(s.ExclusiveMinimum, "<=", schema.MsgExclusiveMinimum(s.ExclusiveMinimum))
	}
	if s.ExclusiveMaximum != nil {
		bound(s.ExclusiveMaximum, ">=", schema.MsgExclusiveMaximum(s.ExclusiveMaximum))
	}
	return out
}

// numberEquality emits const and enum checks on a number. For an integer
// whose allowed values are all exact integers it is a switch on the int64;
// otherwise each comparison is schema.Equal on the literal (decode.NumEquals).
func (g *gen) numberEquality(sc *scope, s *schema.Schema, n, i jen.Code, integer bool, add func(string) jen.Code) []jen.Code {
	check := func(values []any, msg string) jen.Code {
		var lits []string
		for _, v := range values {
			if k := schema.KindOf(v); k == schema.KindInteger || k == schema.KindNumber {
				c, err := schema.CanonicalJSON(v)
				if err != nil {
					continue
				}
				lit := string(c)
				if num, ok := v.(interface{ String() string }); ok {
					lit = num.String() // keep the literal: exact beyond 2^53
				}
				lits = append(lits, lit)
			}
		}
		if len(lits) == 0 {
			return add(msg)
		}
		if integer {
			if ints, ok := exactInts(lits); ok {
				cases := make([]jen.Code, len(ints))
				for k, v := range ints {
					cases[k] = jen.Lit(v)
				}
				return jen.Switch(i).Block(jen.Case(cases...), jen.Default().Block(add(msg)))
			}
		}
		var cond *jen.Statement
		for k, lit := range lits {
			c := jen.Qual(pkgDecode, "NumEquals").Call(n, jen.Lit(lit))
			if k == 0 {
				cond = c
			} else {
				cond = cond.Op("||").Add(c)
			}
		}
		return jen.If(jen.Op("!").Parens(cond)).Block(add(msg))
	}
	var out []jen.Code
	if s.HasConst {
		out = append(out, check([]any{s.Const}, schema.MsgConst(s.Const)))
	}
	if s.HasEnum {
		out = append(out, check(s.Enum, schema.MsgEnum(s.Enum)))
	}
	return out
}

// exactInts converts literals that denote integers exactly (1, 2.0, 1e3
// below 2^53) to int64, leaving out fractions no integer equals; any other
// literal makes the switch form unusable.
func exactInts(lits []string) ([]int64, bool) {
	out := make([]int64, 0, len(lits))
	seen := map[int64]bool{}
	for _, lit := range lits {
		var v int64
		if schema.IsIntegerLiteral(lit) {
			x, err := strconv.ParseInt(lit, 10, 64)
			if err != nil {
				// Beyond int64: schema.Equal compares it as a double, which
				// the largest int64 values equal (2^63-1 and 2^63 are the
				// same double).
				return nil, false
			}
			v = x
		} else {
			f, err := strconv.ParseFloat(lit, 64)
			if err != nil {
				return nil, false
			}
			if f != math.Trunc(f) {
				continue // a fraction: no integer equals it
			}
			if math.Abs(f) >= 1<<53 {
				return nil, false
			}
			v = int64(f)
		}
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil, false
	}
	return out, true
}

func boolChecks(s *schema.Schema, b jen.Code, add func(string) jen.Code) []jen.Code {
	allowed := func(values []any, msg string) jen.Code {
		t, f := false, false
		for _, v := range values {
			if x, ok := v.(bool); ok {
				t, f = t || x, f || !x
			}
		}
		switch {
		case t && f:
			return nil
		case t:
			return jen.If(jen.Op("!").Add(b)).Block(add(msg))
		case f:
			return jen.If(b).Block(add(msg))
		}
		return add(msg)
	}
	var out []jen.Code
	if s.HasConst {
		if c := allowed([]any{s.Const}, schema.MsgConst(s.Const)); c != nil {
			out = append(out, c)
		}
	}
	if s.HasEnum {
		if c := allowed(s.Enum, schema.MsgEnum(s.Enum)); c != nil {
			out = append(out, c)
		}
	}
	return out
}
