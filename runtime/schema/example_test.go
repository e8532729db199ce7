package schema_test

import (
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// The traced tools/call (docs/concepts.md#the-estate): a model proposes arguments for
// payments.lookup with three mistakes, and every one is reported at once,
// sorted by path, so a single repair turn can fix them all.
func ExampleSchema_Validate() {
	lookup := schema.MustParseJSON(`{
		"type": "object",
		"properties": {
			"reference": {"type": "string", "pattern": "^PMT-\\d{3,}$"},
			"include_legs": {"type": "boolean"}
		},
		"required": ["reference"],
		"additionalProperties": false
	}`)

	errs, err := lookup.ValidateJSON([]byte(`{"reference": "PMT771", "include_legs": "yes", "urgent": true}`))
	if err != nil {
		fmt.Println("not JSON:", err)
		return
	}
	for _, e := range errs {
		fmt.Println(e)
	}

	errs, _ = lookup.ValidateJSON([]byte(`{"reference": "PMT-771", "include_legs": true}`))
	fmt.Println("after the model's fix:", len(errs), "errors")
	// Output:
	// $.include_legs: expected type boolean, got string
	// $.reference: does not match pattern '^PMT-\d{3,}$'
	// $.urgent: additional property is not allowed
	// after the model's fix: 0 errors
}

// The schema hash a client pins: FNV-1a 64 over the canonical form, so key
// order and whitespace do not matter, and x-secret markers (for the call log,
// not the contract) are left out.
func ExampleSchema_Hash() {
	lookup := schema.MustParseJSON(`{
		"type": "object",
		"properties": {
			"reference": {"type": "string", "pattern": "^PMT-\\d{3,}$"},
			"include_legs": {"type": "boolean"}
		},
		"required": ["reference"],
		"additionalProperties": false
	}`)
	respelled := schema.MustParseJSON(`{"additionalProperties":false,"required":["reference"],` +
		`"properties":{"include_legs":{"type":"boolean"},"reference":{"x-secret":true,"type":"string","pattern":"^PMT-\\d{3,}$"}},` +
		`"type":"object"}`)

	canonical, _ := schema.CanonicalJSON(lookup.Public())
	fmt.Println(string(canonical))
	fmt.Println(lookup.Hash())
	fmt.Println(respelled.Hash() == lookup.Hash())
	// Output:
	// {"additionalProperties":false,"properties":{"include_legs":{"type":"boolean"},"reference":{"pattern":"^PMT-\\d{3,}$","type":"string"}},"required":["reference"],"type":"object"}
	// fnv1a64:9712ed18c80e3a21
	// true
}
