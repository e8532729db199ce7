package emit

import (
	"fmt"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// A team's struct is filled from the wire form its arguments were
// validated into, field by field, when the generator can describe the
// struct (ir.GoValue): the arguments are read once, and what follows is a
// typed copy with the conversions encoding/json would have made (a sized
// integer, a pointer for an optional property, a named string type). A
// struct it cannot describe, or whose shape does not match the wire form
// the contract gives, is filled by encoding/json from the validated text,
// as before. Either way the checks exist once, in the wire decoder.

// filler writes the copy of one package's wire forms into the teams'
// types: a method on each wire struct type that returns the team's named
// struct type, emitted once per wire type.
type filler struct {
	methods map[*ir.Type]*ir.GoValue // wire struct type → the team's type it fills
	order   []*ir.Type               // methods to emit, in the order first needed
	done    int                      // how many of order are emitted
}

// fillMethod is the name of the method that returns a wire struct value
// as the team's type.
const fillMethod = "declared"

// plan checks that the wire form t can fill gv, and registers the methods
// the copy needs; false means encoding/json fills gv. Registration is
// undone on false.
func (fl *filler) plan(t *ir.Type, gv *ir.GoValue) bool {
	if fl.methods == nil {
		fl.methods = map[*ir.Type]*ir.GoValue{}
	}
	mark := len(fl.order)
	if fl.fits(t, gv) {
		return true
	}
	for _, w := range fl.order[mark:] {
		delete(fl.methods, w)
	}
	fl.order = fl.order[:mark]
	return false
}

// fits reports whether a wire value of type t can be copied into gv.
func (fl *filler) fits(t *ir.Type, gv *ir.GoValue) bool {
	if t.Delegated || t.Extra != nil {
		return false // the value model, or properties no field holds
	}
	if gv.Kind == ir.GoPointer {
		switch t.Kind {
		case ir.Nullable, ir.Pointer:
			return fl.fits(t.Elem, gv.Elem)
		}
		return fl.fits(t, gv.Elem)
	}
	switch t.Kind {
	case ir.Nullable:
		return fl.fits(t.Elem, gv) // null leaves the zero value, as encoding/json does
	case ir.Pointer:
		return fl.fits(t.Elem, gv) // a wire form that contains itself
	case ir.String:
		return gv.Kind == ir.GoBasic && gv.Basic == "string"
	case ir.Boolean:
		return gv.Kind == ir.GoBasic && gv.Basic == "bool"
	case ir.Integer:
		return gv.Kind == ir.GoBasic && isNumeric(gv.Basic)
	case ir.Number:
		// Not float32: encoding/json rounds the decimal text to 24 bits
		// once, where the copy would round the wire form's float64 again,
		// and a text close enough to halfway between two float32s then
		// differs in the last bit.
		return gv.Kind == ir.GoBasic && gv.Basic == "float64"
	case ir.Slice:
		return gv.Kind == ir.GoSlice && fl.fits(t.Elem, gv.Elem)
	case ir.Map:
		return gv.Kind == ir.GoMap && fl.fits(t.Elem, gv.Elem)
	case ir.Struct:
		if gv.Kind != ir.GoStruct || len(gv.Fields) != len(t.Fields) {
			return false
		}
		if gv.Name != "" {
			if prev, ok := fl.methods[t]; ok {
				return prev == gv // one team type per wire type
			}
			fl.methods[t] = gv // before the fields: a type may contain itself
			fl.order = append(fl.order, t)
		}
		for _, f := range t.Fields {
			gf := gv.Field(f.JSONName)
			if gf == nil || f.Forbidden || !fl.fits(f.Type, gf.Value) {
				return false
			}
		}
		return true
	}
	return false // unions and values of any type: encoding/json's own reading
}

// sameBasic reports whether the wire type t is gv's own Go type, so that
// the copy needs no conversion.
func sameBasic(t *ir.Type, gv *ir.GoValue) bool {
	if gv.Path != "" || t.Name != "" {
		return false
	}
	switch t.Kind {
	case ir.String:
		return gv.Name == "string"
	case ir.Integer:
		return gv.Name == "int64"
	case ir.Number:
		return gv.Name == "float64"
	case ir.Boolean:
		return gv.Name == "bool"
	}
	return false
}

func isNumeric(basic string) bool {
	switch basic {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "float32", "float64":
		return true
	}
	return false
}

// goValueType is the Go type gv names in generated code; nil for an
// unnamed struct, which generated code never declares.
func goValueType(gv *ir.GoValue) jen.Code {
	if gv.Name != "" {
		if gv.Path == "" {
			return jen.Id(gv.Name)
		}
		return jen.Qual(gv.Path, gv.Name)
	}
	switch gv.Kind {
	case ir.GoPointer:
		return jen.Op("*").Add(goValueType(gv.Elem))
	case ir.GoSlice:
		return jen.Index().Add(goValueType(gv.Elem))
	case ir.GoMap:
		return jen.Map(jen.String()).Add(goValueType(gv.Elem))
	}
	return nil
}

// set returns the statements that copy src, a wire value of type t, into
// dst, of the team's type gv. depth names the loop variables of nested
// slices and maps apart.
func (fl *filler) set(dst, src jen.Code, t *ir.Type, gv *ir.GoValue, depth int) []jen.Code {
	switch {
	case t.Kind == ir.Nullable:
		// Absent and null leave dst its zero value (nil for a pointer).
		inner := fl.set(dst, jen.Add(src).Dot("V"), t.Elem, gv, depth)
		return []jen.Code{jen.If(jen.Add(src).Dot("Set").Op("&&").Op("!").Add(src).Dot("Null")).Block(inner...)}
	case t.Kind == ir.Pointer:
		inner := fl.set(dst, jen.Parens(jen.Op("*").Add(src)), t.Elem, gv, depth)
		return []jen.Code{jen.If(jen.Add(src).Op("!=").Nil()).Block(inner...)}
	case gv.Kind == ir.GoPointer:
		x := "p" + strconv.Itoa(depth)
		var stmts []jen.Code
		if e := fl.expr(src, t, gv.Elem); e != nil {
			stmts = []jen.Code{jen.Id(x).Op(":=").Add(e)}
		} else {
			stmts = []jen.Code{jen.Var().Id(x).Add(goValueType(gv.Elem))}
			stmts = append(stmts, fl.set(jen.Id(x), src, t, gv.Elem, depth+1)...)
		}
		return append(stmts, jen.Add(dst).Op("=").Op("&").Id(x))
	}
	if e := fl.expr(src, t, gv); e != nil {
		return []jen.Code{jen.Add(dst).Op("=").Add(e)}
	}
	switch gv.Kind {
	case ir.GoSlice:
		i := "i" + strconv.Itoa(depth)
		return []jen.Code{
			jen.Add(dst).Op("=").Make(goValueType(gv), jen.Len(src)),
			jen.For(jen.Id(i).Op(":=").Range().Add(src)).Block(
				fl.set(jen.Add(dst).Index(jen.Id(i)), jen.Add(src).Index(jen.Id(i)), t.Elem, gv.Elem, depth+1)...,
			),
		}
	case ir.GoMap:
		// A map the wire form does not hold (an optional property left
		// out) stays nil, as encoding/json leaves it.
		k, e, x := "k"+strconv.Itoa(depth), "e"+strconv.Itoa(depth), "x"+strconv.Itoa(depth)
		var body []jen.Code
		if v := fl.expr(jen.Id(e), t.Elem, gv.Elem); v != nil {
			body = []jen.Code{jen.Add(dst).Index(jen.Id(k)).Op("=").Add(v)}
		} else {
			body = []jen.Code{jen.Var().Id(x).Add(goValueType(gv.Elem))}
			body = append(body, fl.set(jen.Id(x), jen.Id(e), t.Elem, gv.Elem, depth+1)...)
			body = append(body, jen.Add(dst).Index(jen.Id(k)).Op("=").Id(x))
		}
		return []jen.Code{jen.If(jen.Add(src).Op("!=").Nil()).Block(
			jen.Add(dst).Op("=").Make(goValueType(gv), jen.Len(src)),
			jen.For(jen.List(jen.Id(k), jen.Id(e)).Op(":=").Range().Add(src)).Block(body...),
		)}
	case ir.GoStruct:
		return fl.fields(dst, src, t, gv, depth)
	}
	panic(fmt.Sprintf("emit: filling %v from %v was not planned", gv.Kind, t.Kind))
}

// expr is src, a wire value of type t, as gv, when one expression says it
// (a conversion, a method call); nil otherwise.
func (fl *filler) expr(src jen.Code, t *ir.Type, gv *ir.GoValue) jen.Code {
	switch {
	case t.Kind == ir.Nullable || t.Kind == ir.Pointer:
		return nil
	case gv.Kind == ir.GoBasic && sameBasic(t, gv):
		return src
	case gv.Kind == ir.GoBasic:
		return jen.Add(goValueType(gv)).Call(src)
	case gv.Kind == ir.GoStruct && gv.Name != "":
		return jen.Add(src).Dot(fillMethod).Call()
	}
	return nil
}

// fields copies each property of the wire struct src into its field of dst.
func (fl *filler) fields(dst, src jen.Code, t *ir.Type, gv *ir.GoValue, depth int) []jen.Code {
	var stmts []jen.Code
	for _, f := range t.Fields {
		gf := gv.Field(f.JSONName)
		to := jen.Add(dst)
		for _, name := range gf.Path {
			to = to.Dot(name)
		}
		from := jen.Add(src).Dot(f.GoName)
		if !f.Required && optionalWrapped(f.Type) {
			// Absent leaves the field its zero value, as encoding/json does.
			stmts = append(stmts, jen.If(jen.Add(from).Dot("Set")).Block(fl.set(to, jen.Add(from).Dot("V"), f.Type, gf.Value, depth)...))
			continue
		}
		stmts = append(stmts, fl.set(to, from, f.Type, gf.Value, depth)...)
	}
	return stmts
}

// emit writes the methods planned since the last call into f.
func (fl *filler) emit(f *jen.File) {
	for ; fl.done < len(fl.order); fl.done++ {
		t := fl.order[fl.done]
		gv := fl.methods[t]
		docf(f, "%s returns w as %s.%s, the type the team declared for it.", fillMethod, gv.Package, gv.Name)
		f.Func().Params(jen.Id("w").Op("*").Id(t.Name)).Id(fillMethod).Params().Params(jen.Id("v").Add(goValueType(gv))).Block(
			append(fl.fields(jen.Id("v"), jen.Id("w"), t, gv, 0), jen.Return())...,
		)
		f.Line()
	}
}
