package gostruct

import (
	"encoding/json"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// finishSchema turns what invopop/jsonschema reflected from the argument
// struct of d into the version's input schema, in place:
//
//   - the reflector's boilerplate goes ($schema, and the struct's doc
//     comment as a top-level description: the version's description is the
//     tool's, from the same comment);
//   - a property that accepts any value (an interface, json.RawMessage) is
//     the schema {}, not the boolean true the reflector writes for it;
//   - a sized number gets the bounds of its Go type (uint8: minimum 0,
//     maximum 255), so that every valid value fits the field it is decoded
//     into; a tag bound looser than the type's is refused;
//   - every jsonschema tag item must have had its effect: a keyword the
//     reflector dropped (minLength on an integer, a bound that is not a
//     number) is refused at the tag;
//   - a reference to a $defs entry is followed, and the entry finished
//     once, as its Go type, where it is first used (d.defs records which
//     type each entry is). A reference to the argument struct itself,
//     whose entry the reflector leaves out (it is the document), is "#".
//     One entry name for two Go types is refused: the reflector names an
//     entry by the type's name alone, so one entry would stand for both.
func finishSchema(doc map[string]any, d *declared, errs *errorList) {
	delete(doc, "$schema")
	delete(doc, "description")
	f := &finisher{errs: errs, d: d, defs: map[string]*node{d.typeName: d.root.shape()}, decl: d.namePos}
	f.entries, _ = doc["$defs"].(map[string]any)
	f.walk(doc, d.root, nil)
	d.defs = f.defs
}

type finisher struct {
	errs *errorList
	d    *declared
	// entries is the document's $defs; defs maps each entry met to its Go
	// type's node.
	entries map[string]any
	defs    map[string]*node
	// decl is where the type whose schema is being finished is declared:
	// where a problem no field states is reported.
	decl token.Pos
}

// walk finishes doc, the schema of a value of node n; at is the field the
// value belongs to when n does not say (an element of a named list type).
func (f *finisher) walk(doc map[string]any, n *node, at *field) {
	if n.at != nil {
		at = n.at
	}
	if ref, ok := doc["$ref"].(string); ok {
		f.ref(doc, ref, n, at)
		return
	}
	n = n.shape()
	f.bounds(doc, n, at)
	switch n.kind {
	case structNode:
		props, _ := doc["properties"].(map[string]any)
		// In the reflector's order, fields in order and each entry where
		// it is first used: the first type met with an entry's name is
		// the one it describes.
		for _, name := range n.names {
			child := n.props[name]
			sub := anySchema(props, name)
			if sub == nil {
				continue
			}
			f.walk(sub, child, at)
			f.effects(sub, child)
		}
	case listNode:
		if items := anySchema(doc, "items"); items != nil {
			f.walk(items, n.elem, at)
		}
	case mapNode:
		if values := anySchema(doc, "additionalProperties"); values != nil {
			f.walk(values, n.elem, at)
		}
	}
}

// ref follows the reference of doc, the schema of a value of node n, to
// the $defs entry of n's named type.
func (f *finisher) ref(doc map[string]any, ref string, n *node, at *field) {
	pos, prefix := f.at(at)
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	if !ok || n.def == nil {
		f.errs.add(pos, "%sinvopop/jsonschema wrote $ref %q for a value of type %s, which is not a definition of its own", prefix, ref, typeString(n.typ))
		return
	}
	owner, seen := f.defs[name]
	if seen && owner != n.def {
		f.errs.add(pos, "%s%s and %s are both named %s, and invopop/jsonschema names a $defs entry by the type's name alone, so one entry would stand for both: rename one",
			prefix, typeString(owner.typ), typeString(n.def.typ), name)
		return
	}
	if n.def == f.d.root.shape() {
		doc["$ref"] = "#"
		return
	}
	if seen {
		return
	}
	f.defs[name] = n.def
	// The entry of a type with its own JSONSchema method is its answer,
	// as it wrote it.
	if entry := anySchema(f.entries, name); entry != nil && n.def.kind != leafNode {
		decl := f.decl
		f.decl = n.def.decl
		f.walk(entry, n.def, nil)
		f.decl = decl
	}
}

// at is where a problem with a value of field at is reported, and the
// message's prefix naming the field; without a field, the declaration of
// the type being finished.
func (f *finisher) at(at *field) (token.Pos, string) {
	if at == nil {
		return f.decl, ""
	}
	return at.pos, "field " + at.goName + ": "
}

// anySchema returns the sub-schema m[key], turning the boolean true (any
// value) into {}; nil when there is none.
func anySchema(m map[string]any, key string) map[string]any {
	switch v := m[key].(type) {
	case map[string]any:
		return v
	case bool:
		if v {
			s := map[string]any{}
			m[key] = s
			return s
		}
	}
	return nil
}

// sizedBounds are the values a sized Go number holds, as JSON numbers; ""
// is no bound beyond the validator's own (an integer fits 64 bits).
var sizedBounds = map[types.BasicKind][2]string{
	types.Int8: {"-128", "127"}, types.Int16: {"-32768", "32767"}, types.Int32: {"-2147483648", "2147483647"},
	types.Uint8: {"0", "255"}, types.Uint16: {"0", "65535"}, types.Uint32: {"0", "4294967295"},
	types.Uint: {"0", ""}, types.Uint64: {"0", ""},
	types.Float32: {"-3.4028234663852886e+38", "3.4028234663852886e+38"},
}

func (f *finisher) bounds(doc map[string]any, n *node, at *field) {
	b, ok := sizedBounds[n.basic]
	if !ok {
		return
	}
	name := types.Typ[n.basic].Name()
	side := func(limit, inclusive, exclusive string, below bool) {
		if limit == "" {
			return
		}
		lim, _ := strconv.ParseFloat(limit, 64)
		found := false
		for _, kw := range []string{inclusive, exclusive} {
			v, ok := doc[kw]
			if !ok {
				continue
			}
			found = true
			x, ok := schema.NumberValue(v)
			if !ok {
				continue
			}
			// An exclusive bound one step outside an integer type's range
			// is as tight as the range.
			slack := 0.0
			if kw == exclusive && n.basic != types.Float32 {
				slack = 1
			}
			if below && x < lim-slack || !below && x > lim+slack {
				pos, prefix := f.at(at)
				if at != nil {
					pos = at.itemAt(kw + "=")
				}
				f.errs.add(pos, "%s%s %v lets through values %s cannot hold (its limit is %s)", prefix, kw, v, name, limit)
			}
		}
		if !found {
			doc[inclusive] = json.Number(limit)
		}
	}
	side(b[0], "minimum", "exclusiveMinimum", true)
	side(b[1], "maximum", "exclusiveMaximum", false)
}

// effects checks that each jsonschema tag item of the field whose property
// schema is prop wrote its keyword.
func (f *finisher) effects(prop map[string]any, n *node) {
	fl := n.at
	counts := map[string]int{}
	for _, it := range fl.items {
		if !it.flag {
			counts[it.key]++
		}
	}
	for _, it := range fl.items {
		kw := tagKeywords[it.key]
		if it.flag || kw == "" {
			continue
		}
		target := prop
		if keywordOnItems(it.key, n.shape().kind == listNode) {
			target, _ = prop["items"].(map[string]any)
		}
		v, ok := target[kw]
		if ok && (it.key == "enum" || it.key == "example") {
			// Each value is an item of its own; the reflector drops a
			// value that is not of the field's type (enum=two on an int).
			if list, _ := v.([]any); len(list) != counts[it.key] {
				if t, _ := target["type"].(string); (t == "integer" || t == "number") && !schema.IsNumberLiteral(it.value) {
					f.errs.add(fl.itemAt(it.raw()), "field %s: jsonschema tag %s is not a number (invopop/jsonschema drops it, which would leave a hole in the contract)",
						fl.goName, it.raw())
				}
			}
			continue
		}
		if !ok {
			why := "invopop/jsonschema drops it"
			if _, ref := prop["$ref"]; ref {
				why = "beside the $ref to the type's $defs entry, invopop/jsonschema writes a title and a description and drops the rest"
			}
			f.errs.add(fl.itemAt(it.keyText()), "field %s: jsonschema tag %s has no effect on a field of type %s (%s, which would leave a hole in the contract)",
				fl.goName, it.raw(), typeString(n.typ), why)
		}
	}
}
