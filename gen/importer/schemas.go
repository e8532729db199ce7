package importer

import (
	"encoding/json"
	"slices"

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
