package importer

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// ObjectAtTop adds type "object" to the top of a schema that has no type
// there but admits only objects, as some generators write one (a $ref to
// a $defs entry): the manifest rules, like MCP, require type "object" at
// the top of an inputSchema, and the contract is the same with it.
// Otherwise the schema is returned as it is.
func ObjectAtTop(inputSchema json.RawMessage, annotations []string) (json.RawMessage, error) {
	s, err := schema.ParseJSONWith(inputSchema, schema.Options{AnnotationFormats: annotations})
	if err != nil {
		return nil, err
	}
	kinds := schema.Admitted(schema.Conjunction(s)).Kinds()
	if len(s.Types()) > 0 || !slices.Equal(kinds, []schema.Kind{schema.KindObject}) {
		return inputSchema, nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(inputSchema, &top); err != nil {
		return nil, err
	}
	top["type"] = json.RawMessage(`"object"`)
	return json.Marshal(top)
}

// FormatAnnotations are the formats the schemas name that the contract
// language does not assert, sorted: a manifest lists them, so that they
// are served as annotations on purpose rather than refused.
func FormatAnnotations(schemas ...json.RawMessage) ([]string, error) {
	asserted := schema.AssertedFormats()
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if f, ok := v["format"].(string); ok && !slices.Contains(asserted, f) && !slices.Contains(out, f) {
				out = append(out, f)
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	for _, raw := range schemas {
		if len(raw) == 0 {
			continue
		}
		v, err := schema.DecodeJSON(raw)
		if err != nil {
			return nil, err
		}
		walk(v)
	}
	slices.Sort(out)
	return out, nil
}

// olderDrafts are the $schema URIs of the drafts FromOlderDraft converts.
var olderDrafts = []string{
	"http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema",
	"http://json-schema.org/draft-06/schema#", "http://json-schema.org/draft-06/schema",
	"http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-04/schema",
}

// FromOlderDraft converts a schema that declares JSON Schema draft-04, -06
// or -07 at its top into the contract language (2020-12), keeping its
// meaning: definitions become $defs (and references to them follow),
// an items array becomes prefixItems (additionalItems then becomes items),
// dependencies become dependentRequired (a list) or dependentSchemas (a
// schema), the keywords beside a $ref are dropped (those drafts ignore
// them), and $schema goes. Many servers publish such schemas (the
// zod-to-json-schema of TypeScript servers writes draft-07). A schema that
// declares no older draft is returned as it is, and converted is false.
func FromOlderDraft(raw json.RawMessage) (out json.RawMessage, converted bool, err error) {
	var top map[string]any
	if json.Unmarshal(raw, &top) != nil {
		return raw, false, nil
	}
	if s, _ := top["$schema"].(string); !slices.Contains(olderDrafts, s) {
		return raw, false, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false, err
	}
	v = convertDraft(v, true)
	out, err = json.Marshal(v)
	return out, true, err
}

// convertDraft converts one schema (a JSON value in a schema position).
func convertDraft(v any, top bool) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	if top {
		delete(m, "$schema")
	}
	if ref, ok := m["$ref"].(string); ok {
		ref = strings.Replace(ref, "#/definitions/", "#/$defs/", 1)
		keep := map[string]any{"$ref": ref}
		// The root's definitions stay: references point into them.
		if d, ok := m["definitions"]; ok {
			keep["$defs"] = convertMap(d)
		}
		if d, ok := m["$defs"]; ok {
			keep["$defs"] = convertMap(d)
		}
		return keep
	}
	if d, ok := m["definitions"]; ok {
		delete(m, "definitions")
		m["$defs"] = convertMap(d)
	} else if d, ok := m["$defs"]; ok {
		m["$defs"] = convertMap(d)
	}
	if items, ok := m["items"].([]any); ok {
		for i := range items {
			items[i] = convertDraft(items[i], false)
		}
		m["prefixItems"] = items
		delete(m, "items")
		if extra, ok := m["additionalItems"]; ok {
			m["items"] = convertDraft(extra, false)
			delete(m, "additionalItems")
		}
	} else {
		delete(m, "additionalItems") // ignored beside a single items schema
	}
	if deps, ok := m["dependencies"].(map[string]any); ok {
		req, sch := map[string]any{}, map[string]any{}
		for k, d := range deps {
			if list, ok := d.([]any); ok {
				req[k] = list
			} else {
				sch[k] = convertDraft(d, false)
			}
		}
		if len(req) > 0 {
			m["dependentRequired"] = req
		}
		if len(sch) > 0 {
			m["dependentSchemas"] = sch
		}
		delete(m, "dependencies")
	}
	for _, k := range []string{"properties", "patternProperties"} {
		if p, ok := m[k]; ok {
			m[k] = convertMap(p)
		}
	}
	for _, k := range []string{"additionalProperties", "items", "not", "if", "then", "else", "contains", "propertyNames"} {
		if s, ok := m[k]; ok {
			m[k] = convertDraft(s, false)
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if list, ok := m[k].([]any); ok {
			for i := range list {
				list[i] = convertDraft(list[i], false)
			}
		}
	}
	return m
}

// convertMap converts every schema of a name-to-schema map.
func convertMap(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	for k, s := range m {
		m[k] = convertDraft(s, false)
	}
	return m
}
