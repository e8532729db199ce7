package gostruct

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// This file reads an argument struct with go/types the way encoding/json
// and invopop/jsonschema read it with reflect: which fields are properties
// and under what names, and what each Go type becomes. The result, a graph
// of nodes, is what lets every later problem point at Go source: a schema
// path ("properties/legs/items/properties/amount/minimum") walks it to the
// field and to the tag item that wrote it. A named type that the reflector
// writes as a $defs entry has one node of its own, which every use of the
// type refers to, so a type can contain itself. Types that have no JSON
// form, or whose wire form is not their Go shape, are refused here, before
// anything runs.

// nodeKind is the JSON shape a Go type takes.
type nodeKind int

const (
	leafNode   nodeKind = iota // a scalar, an interface, a type with its own JSONSchema method
	structNode                 // an object with declared properties
	listNode                   // a slice or array: items
	mapNode                    // a map: additionalProperties
)

// node is the JSON shape of one Go type at one place in an argument struct,
// or of a named type the reflector defines once (see def).
type node struct {
	kind  nodeKind
	typ   types.Type // as written (pointers removed)
	props map[string]*node
	names []string // the properties, in the order of the fields
	elem  *node    // items of a list, values of a map
	// at is the field this value belongs to (an element belongs to the
	// field holding its list); nil for the struct itself, and for the
	// elements of a named list or map type, which belong to the field
	// that uses the type.
	at *field
	// basic is the kind of a basic type, for the bounds a sized number
	// needs (types.Invalid otherwise).
	basic types.BasicKind
	// def, on a use of a named type that invopop/jsonschema writes as a
	// $defs entry (a struct, list or map type, or one with its own
	// JSONSchema method), is the type's own node, whose shape this value
	// has; kind, props and elem are then the def's, not this node's.
	def *node
	// decl is where a def's type is declared.
	decl token.Pos
	// walking marks a def whose underlying type is being walked: meeting it
	// again there means the type contains itself.
	walking bool
}

// shape is the node that holds n's shape: its def's, for a use of a
// named type.
func (n *node) shape() *node {
	if n.def != nil {
		return n.def
	}
	return n
}

// field is one struct field as written.
type field struct {
	goName string
	pos    token.Pos // the field's name (its type, when embedded)
	tag    reflect.StructTag
	// tagPos and tagLit are the tag literal and where it is written;
	// tagPos is NoPos for a field of a package loaded without syntax.
	tagPos token.Pos
	tagLit string
	items  []tagItem // the jsonschema tag, parsed
}

// typeWalker builds nodes and records the problems it finds.
type typeWalker struct {
	errs *errorList
	// fields finds the syntax of a field by the position of its name.
	fields map[token.Pos]*ast.Field
	// defs holds the def node of each named type met since begin (keyed by
	// identical type, so that each instance of a generic type is one).
	defs typeutil.Map
	// decls are the defs being walked, innermost last: a problem with no
	// field of its own (an element of a named list type) is reported at
	// the innermost one's declaration.
	decls []*node
	// recursive says a type met since begin contains itself.
	recursive bool
	// promoting holds the struct whose fields are being read and the
	// embedded structs whose fields are being promoted into it.
	promoting []*types.Struct
}

// begin starts the walk of an argument struct: every named type is walked
// once for it, and its problems are reported with it.
func (w *typeWalker) begin() {
	w.defs = typeutil.Map{}
	w.recursive = false
}

// walk returns the node of type t, a value of field at.
func (w *typeWalker) walk(t types.Type, at *field) *node {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		return w.walk(p.Elem(), at)
	}
	n := &node{typ: t, at: at}
	if named, ok := t.(*types.Named); ok {
		obj := named.Obj()
		if msg := special(named); msg != "" {
			w.fail(at, obj.Pos(), "%s", msg)
			return n
		}
		if isRawMessage(obj) {
			// Any value.
			return n
		}
		if hasMethod(named, "JSONSchema") {
			// invopop/jsonschema asks the type for its schema (the subset
			// check reads what it answers) and defines it once.
			n.def = w.def(named, func(*node) {})
			return n
		}
		if obj.Pkg() != nil {
			for _, m := range []string{"UnmarshalJSON", "UnmarshalText"} {
				if hasMethod(named, m) {
					w.fail(at, obj.Pos(), "%s has its own %s method, so its JSON form is not its Go shape and no schema can be read from it", typeString(t), m)
					return n
				}
			}
		}
		if msg := noJSONForm(named.Underlying(), typeString(t)); msg != "" {
			w.fail(at, obj.Pos(), "%s", msg)
			return n
		}
		switch named.Underlying().(type) {
		case *types.Struct, *types.Slice, *types.Array, *types.Map:
			n.def = w.def(named, func(d *node) {
				u := w.walk(named.Underlying(), nil)
				d.kind, d.props, d.names, d.elem, d.basic = u.kind, u.props, u.names, u.elem, u.basic
			})
			return n
		}
		// A named scalar or interface is written where it is used.
		u := w.walk(named.Underlying(), at)
		u.typ = t
		return u
	}
	if msg := noJSONForm(t, typeString(t)); msg != "" {
		w.fail(at, token.NoPos, "%s", msg)
		return n
	}
	switch u := t.(type) {
	case *types.Basic:
		n.basic = u.Kind()
	case *types.Slice:
		if types.Identical(u.Elem(), types.Typ[types.Uint8]) {
			w.fail(at, token.NoPos, "[]byte is base64 text in JSON, which contentEncoding only annotates and no format asserts; declare a string")
			return n
		}
		n.kind, n.elem = listNode, w.walk(u.Elem(), at)
	case *types.Array:
		n.kind, n.elem = listNode, w.walk(u.Elem(), at)
	case *types.Map:
		if k, ok := u.Key().Underlying().(*types.Basic); !ok || k.Info()&types.IsString == 0 {
			w.fail(at, token.NoPos, "map keys must be strings to be JSON property names, not %s", typeString(u.Key()))
			return n
		}
		n.kind, n.elem = mapNode, w.walk(u.Elem(), at)
	case *types.Struct:
		n.kind, n.props = structNode, map[string]*node{}
		outer := w.promoting
		w.promoting = []*types.Struct{u}
		w.fieldsOf(u, n)
		w.promoting = outer
	}
	return n
}

// def returns the node of named type t, which invopop/jsonschema writes
// once, as a $defs entry, and refers to wherever it is used; the first
// time, fill gives the node its shape. A type met again while its shape is
// being read contains itself: that is fine, a reference says so.
func (w *typeWalker) def(t *types.Named, fill func(d *node)) *node {
	if d, ok := w.defs.At(t).(*node); ok {
		if d.walking {
			w.recursive = true
		}
		return d
	}
	d := &node{typ: t, decl: t.Obj().Pos(), walking: true}
	w.defs.Set(t, d)
	w.decls = append(w.decls, d)
	fill(d)
	w.decls = w.decls[:len(w.decls)-1]
	d.walking = false
	return d
}

// noJSONForm says why values of type t (named name) have no JSON form, or
// "" when they have one: a basic type, a list, a map, a struct, an
// interface without methods (any value).
func noJSONForm(t types.Type, name string) string {
	switch u := t.(type) {
	case *types.Basic:
		if u.Info()&(types.IsBoolean|types.IsString|types.IsInteger|types.IsFloat) == 0 || u.Kind() == types.Uintptr {
			return name + " has no JSON Schema form"
		}
	case *types.Interface:
		if u.NumMethods() > 0 || !u.IsMethodSet() {
			return name + " is an interface with methods, which no JSON value can be decoded into; use any"
		}
	case *types.Chan:
		return name + " is a channel, which has no JSON Schema form"
	case *types.Signature:
		return name + " is a function, which has no JSON Schema form"
	case *types.Slice, *types.Array, *types.Map, *types.Struct, *types.Pointer:
	default:
		return name + " has no JSON Schema form"
	}
	return ""
}

// fieldsOf adds the properties of struct s to n, following encoding/json:
// exported fields under their json name, embedded structs' fields promoted.
func (w *typeWalker) fieldsOf(s *types.Struct, n *node) {
	for i := 0; i < s.NumFields(); i++ {
		v := s.Field(i)
		f := &field{goName: v.Name(), pos: v.Pos(), tag: reflect.StructTag(s.Tag(i))}
		if syn := w.fields[v.Pos()]; syn != nil && syn.Tag != nil {
			f.tagPos, f.tagLit = syn.Tag.Pos(), syn.Tag.Value
		}
		name, skip, promote := jsonField(s, i)
		if skip {
			continue
		}
		jsonTag := strings.Split(f.tag.Get("json"), ",")
		schemaTag := f.tag.Get("jsonschema")
		for _, opt := range jsonTag[1:] {
			switch opt {
			case "string":
				w.failTag(f, f.tagAt(",string"), "the json option ,string is not supported: the field's JSON form would be a string its schema does not describe; declare it as a string")
			case "inline":
				w.failTag(f, f.tagAt(",inline"), "the json option ,inline is not encoding/json's: embed the struct instead")
			}
		}
		if promote {
			st, _ := derefStruct(v.Type())
			if slices.Contains(w.promoting, st) {
				w.fail(f, token.NoPos, "%s embeds the struct it is in, whose fields invopop/jsonschema would promote without end; give the field a json name", typeString(v.Type()))
				continue
			}
			w.promoting = append(w.promoting, st)
			w.fieldsOf(st, n)
			w.promoting = w.promoting[:len(w.promoting)-1]
			continue
		}
		f.items = parseTag(schemaTag)
		w.checkTag(f)
		if prev, dup := n.props[name]; dup {
			w.fail(f, token.NoPos, "property %q is also field %s: encoding/json would drop both", name, prev.at.goName)
			continue
		}
		n.props[name] = w.walk(v.Type(), f)
		n.names = append(n.names, name)
	}
}

// derefStruct returns the struct under t or *t.
func derefStruct(t types.Type) (*types.Struct, bool) {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return st, ok
}

// special refuses the types invopop/jsonschema gives a format that their
// JSON decoding does not match, with advice: the contract would assert one
// thing and encoding/json accept another.
func special(t *types.Named) string {
	obj := t.Obj()
	if obj.Pkg() == nil {
		return ""
	}
	switch obj.Pkg().Path() + "." + obj.Name() {
	case "time.Time":
		return "time.Time reads RFC 3339 more narrowly than format date-time allows (no leap second, no lower-case t); declare a string with jsonschema:\"format=date-time\" and parse it in the handler"
	case "net/url.URL":
		return "url.URL has no JSON form of its own (encoding/json would read its fields); declare a string with jsonschema:\"format=uri\""
	case "net.IP":
		return "net.IP reads IPv6 too where invopop/jsonschema says ipv4; declare a string with jsonschema:\"format=ipv4\" (or ipv6)"
	}
	return ""
}

func isRawMessage(obj *types.TypeName) bool {
	return obj.Pkg() != nil && obj.Pkg().Path() == "encoding/json" && obj.Name() == "RawMessage"
}

// hasMethod reports whether *T has method name.
func hasMethod(t *types.Named, name string) bool {
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, t.Obj().Pkg(), name)
	_, ok := obj.(*types.Func)
	return ok
}

func typeString(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

// fail reports a problem with the value of field at, at the field, or with
// the struct itself (at == nil), at pos. A problem with an element of a
// named list or map type, which no field of its own holds, is reported at
// the type's declaration.
func (w *typeWalker) fail(at *field, pos token.Pos, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	switch {
	case at != nil:
		pos, msg = at.pos, "field "+at.goName+": "+msg
	case len(w.decls) > 0:
		d := w.decls[len(w.decls)-1]
		pos, msg = d.decl, "type "+typeString(d.typ)+": "+msg
	}
	w.errs.add(pos, "%s", msg)
}

// failTag reports a problem with what field f's tag says, at pos inside
// the tag.
func (w *typeWalker) failTag(f *field, pos token.Pos, format string, args ...any) {
	w.errs.add(pos, "field %s: %s", f.goName, fmt.Sprintf(format, args...))
}

// tagAt is where text is written inside the field's jsonschema or json
// tag, or the tag itself, or the field.
func (f *field) tagAt(text string) token.Pos {
	if !f.tagPos.IsValid() {
		return f.pos
	}
	if i := strings.Index(f.tagLit, text); i >= 0 {
		return f.tagPos + token.Pos(i)
	}
	return f.tagPos
}

// writes reports whether the field's jsonschema or jsonschema_extras tag
// has an item with key.
func (f *field) writes(key string) bool {
	for _, it := range append(slices.Clone(f.items), parseTag(f.tag.Get("jsonschema_extras"))...) {
		if !it.flag && it.key == key {
			return true
		}
	}
	return false
}

// itemAt is where a jsonschema tag item is written: its key inside the
// jsonschema tag.
func (f *field) itemAt(key string) token.Pos {
	if !f.tagPos.IsValid() {
		return f.pos
	}
	start := strings.Index(f.tagLit, `jsonschema:"`)
	if start < 0 {
		return f.tagAt(key)
	}
	rest := f.tagLit[start:]
	for off := 0; ; {
		i := strings.Index(rest[off:], key)
		if i < 0 {
			return f.tagPos + token.Pos(start)
		}
		at := off + i
		// A key starts the tag's value or follows a comma.
		if prev := rest[at-1]; prev == '"' || prev == ',' {
			return f.tagPos + token.Pos(start+at)
		}
		off = at + len(key)
	}
}
