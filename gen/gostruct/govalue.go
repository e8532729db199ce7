package gostruct

import (
	"go/types"
	"reflect"
	"strings"

	"github.com/mcpgen/mcpgen/gen/ir"
)

// jsonField is how encoding/json (and invopop/jsonschema, which follows
// it) takes field i of struct s: skipped (json:"-", jsonschema:"-", or
// unexported), promoted (an embedded struct without a json name: its
// fields are the outer struct's), or a property under name.
func jsonField(s *types.Struct, i int) (name string, skip, promote bool) {
	v := s.Field(i)
	tag := reflect.StructTag(s.Tag(i))
	jsonName, _, _ := strings.Cut(tag.Get("json"), ",")
	schemaName, _, _ := strings.Cut(tag.Get("jsonschema"), ",")
	if jsonName == "-" || schemaName == "-" {
		return "", true, false
	}
	if v.Embedded() && jsonName == "" {
		if _, ok := derefStruct(v.Type()); ok {
			return "", false, true
		}
	}
	if !v.Exported() && !v.Embedded() {
		return "", true, false
	}
	if jsonName != "" {
		return jsonName, false, false
	}
	return v.Name(), false, false
}

// goValues describes argument structs as ir.GoValue. A struct it cannot
// describe whole gets none: its version's struct is filled by
// encoding/json, as it always could be.
type goValues struct {
	named map[*types.TypeName]*ir.GoValue
	// failed marks the named types that cannot be described; one met
	// again while it is being described (a type that contains itself)
	// is in named already, and failing it later fails the whole walk.
	failed bool
}

// of describes t, or returns nil.
func (g *goValues) of(t types.Type) *ir.GoValue {
	if g.named == nil {
		g.named = map[*types.TypeName]*ir.GoValue{}
	}
	g.failed = false
	v := g.value(t)
	if g.failed {
		return nil
	}
	return v
}

func (g *goValues) value(t types.Type) *ir.GoValue {
	switch t := types.Unalias(t).(type) {
	case *types.Pointer:
		elem := g.value(t.Elem())
		if elem == nil {
			return g.fail()
		}
		return &ir.GoValue{Kind: ir.GoPointer, Elem: elem}
	case *types.Named:
		obj := t.Obj()
		if t.TypeArgs().Len() > 0 || !obj.Exported() || obj.Pkg() == nil || isRawMessage(obj) {
			return g.fail()
		}
		if v, ok := g.named[obj]; ok {
			if v == nil {
				return g.fail()
			}
			return v
		}
		v := &ir.GoValue{Path: obj.Pkg().Path(), Package: obj.Pkg().Name(), Name: obj.Name()}
		g.named[obj] = v // before the walk: a type may contain itself
		u := g.value(t.Underlying())
		if u == nil {
			g.named[obj] = nil
			return g.fail()
		}
		v.Kind, v.Fields, v.Elem, v.Basic = u.Kind, u.Fields, u.Elem, u.Basic
		return v
	case *types.Basic:
		if t.Info()&(types.IsBoolean|types.IsString|types.IsNumeric) == 0 || t.Info()&types.IsComplex != 0 {
			return g.fail()
		}
		return &ir.GoValue{Kind: ir.GoBasic, Name: t.Name(), Basic: t.Name()}
	case *types.Slice:
		if b, ok := t.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
			return g.fail() // []byte is a base64 string to encoding/json
		}
		elem := g.value(t.Elem())
		if elem == nil {
			return g.fail()
		}
		return &ir.GoValue{Kind: ir.GoSlice, Elem: elem}
	case *types.Map:
		if b, ok := t.Key().(*types.Basic); !ok || b.Kind() != types.String {
			return g.fail() // a named or non-string key converts through text
		}
		elem := g.value(t.Elem())
		if elem == nil {
			return g.fail()
		}
		return &ir.GoValue{Kind: ir.GoMap, Elem: elem}
	case *types.Struct:
		v := &ir.GoValue{Kind: ir.GoStruct}
		if !g.fields(t, nil, v) {
			return g.fail()
		}
		return v
	}
	return g.fail()
}

// fields adds the properties of s to v, their Go paths under path.
func (g *goValues) fields(s *types.Struct, path []string, v *ir.GoValue) bool {
	for i := range s.NumFields() {
		name, skip, promote := jsonField(s, i)
		f := s.Field(i)
		switch {
		case skip:
			continue
		case promote:
			st, _ := derefStruct(f.Type())
			if _, isPtr := types.Unalias(f.Type()).(*types.Pointer); isPtr || !f.Exported() {
				return false // an embedded pointer must be allocated; an unexported embedded struct cannot be named
			}
			if !g.fields(st, append(path[:len(path):len(path)], f.Name()), v) {
				return false
			}
			continue
		}
		fv := g.value(f.Type())
		if fv == nil {
			return false
		}
		v.Fields = append(v.Fields, ir.GoField{JSONName: name, Path: append(path[:len(path):len(path)], f.Name()), Value: fv})
	}
	return true
}

func (g *goValues) fail() *ir.GoValue {
	g.failed = true
	return nil
}
