package gostruct

import (
	"encoding/json"
	"go/types"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// finishSchema turns what invopop/jsonschema reflected from an argument
// struct into the version's input schema, in place:
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
//     number) is refused at the tag.
func finishSchema(doc map[string]any, root *node, errs *errorList) {
	delete(doc, "$schema")
	delete(doc, "description")
	f := finisher{errs: errs}
	f.walk(doc, root)
}

type finisher struct{ errs *errorList }

func (f finisher) walk(doc map[string]any, n *node) {
	f.bounds(doc, n)
	switch n.kind {
	case structNode:
		props, _ := doc["properties"].(map[string]any)
		for name, child := range n.props {
			sub := anySchema(props, name)
			if sub == nil {
				continue
			}
			f.walk(sub, child)
			f.effects(sub, child)
		}
	case listNode:
		if items := anySchema(doc, "items"); items != nil {
			f.walk(items, n.elem)
		}
	case mapNode:
		if values := anySchema(doc, "additionalProperties"); values != nil {
			f.walk(values, n.elem)
		}
	}
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

func (f finisher) bounds(doc map[string]any, n *node) {
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
				f.errs.add(n.at.itemAt(kw+"="), "field %s: %s %v lets through values %s cannot hold (its limit is %s)", n.at.goName, kw, v, name, limit)
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
func (f finisher) effects(prop map[string]any, n *node) {
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
		if keywordOnItems(it.key, n.kind == listNode) {
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
			f.errs.add(fl.itemAt(it.keyText()), "field %s: jsonschema tag %s has no effect on a field of type %s (invopop/jsonschema drops it, which would leave a hole in the contract)",
				fl.goName, it.raw(), typeString(n.typ))
		}
	}
}
