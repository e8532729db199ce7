package imports

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// TestArgsFromSchemas: the arguments made for a schema are valid, and the
// broken ones invalid, for the shapes the servers publish (bounds, formats,
// maps, $ref, unions, patterns with an example); a schema no value can be
// made for is an error, not a wrong value.
func TestArgsFromSchemas(t *testing.T) {
	for _, doc := range []string{
		`{"type":"object","properties":{"n":{"type":"integer","exclusiveMinimum":5,"maximum":9,"multipleOf":2}},"required":["n"]}`,
		`{"type":"object","properties":{"at":{"type":"string","format":"date-time"},"id":{"type":"string","format":"uuid","maxLength":36}}}`,
		`{"type":"object","properties":{"labels":{"type":"object","additionalProperties":{"type":"integer","minimum":3}}},"required":["labels"]}`,
		`{"type":"object","$defs":{"a":{"type":"object","properties":{"x":{"type":"boolean"}},"required":["x"],"additionalProperties":false}},"properties":{"a":{"$ref":"#/$defs/a"}},"required":["a"]}`,
		`{"type":"object","properties":{"u":{"anyOf":[{"type":"string","minLength":2},{"type":"null"}]}},"required":["u"]}`,
		`{"type":"object","properties":{"code":{"type":"string","pattern":"^[A-Z]{3}$","examples":["abc","EUR"]}},"required":["code"]}`,
		`{"type":"object","properties":{"xs":{"type":["null","array"],"items":{"enum":["b","c"]},"minItems":2}}}`,
		`{"type":"object","additionalProperties":false}`,
		`{"type":"object"}`,
	} {
		s, err := schema.ParseJSON([]byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		valid, err := validArgs(s)
		if err != nil {
			t.Errorf("%s: %v", doc, err)
			continue
		}
		invalid, what, err := invalidArgs(s, valid)
		if err != nil || len(s.Validate(invalid)) == 0 {
			t.Errorf("%s: invalid arguments %s (%s): %v", doc, text(invalid), what, err)
		}
	}
	s, err := schema.ParseJSON([]byte(`{"type":"object","properties":{"code":{"type":"string","pattern":"^[A-Z]{3}$"}},"required":["code"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := validArgs(s); err == nil {
		t.Errorf("a pattern without an example: made %s", text(v))
	}
}
