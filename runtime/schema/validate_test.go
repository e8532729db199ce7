package schema_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// The sample estate's two payment schemas, as JSON text.
const (
	paymentLookupSchema = `{
		"type": "object",
		"properties": {
			"reference": {"type": "string", "pattern": "^PMT-\\d{3,}$"},
			"include_legs": {"type": "boolean"}
		},
		"required": ["reference"],
		"additionalProperties": false
	}`
	paymentReleaseSchema = `{
		"type": "object",
		"properties": {
			"reference": {"type": "string", "pattern": "^PMT-\\d{3,}$"},
			"amount_minor": {"type": "integer", "minimum": 1},
			"currency": {"type": "string", "enum": ["AED", "USD", "EUR"]}
		},
		"required": ["reference", "amount_minor", "currency"],
		"additionalProperties": false
	}`
)

// validationCase is one value checked against one schema, both as JSON text,
// and every error expected, rendered "path: message", in the order Validate
// must return them.
type validationCase struct {
	name   string
	schema string
	value  string
	want   []string
}

func runValidationCases(t *testing.T, cases []validationCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := schema.ParseJSON([]byte(tc.schema))
			if err != nil {
				t.Fatalf("ParseJSON(%s): %v", tc.schema, err)
			}
			errs, err := s.ValidateJSON([]byte(tc.value))
			if err != nil {
				t.Fatalf("ValidateJSON(%s): %v", tc.value, err)
			}
			if got := errs.Strings(); !slices.Equal(got, tc.want) {
				t.Errorf("value %s\n got %s\nwant %s", tc.value, quoteAll(got), quoteAll(tc.want))
			}
			if len(tc.want) == 0 && errs != nil {
				t.Errorf("a valid value must give nil errors, got %#v", errs)
			}
		})
	}
}

func quoteAll(ss []string) string {
	if len(ss) == 0 {
		return "(no errors)"
	}
	return "\n\t" + strings.Join(ss, "\n\t")
}

func TestValidateTracedCall(t *testing.T) {
	runValidationCases(t, []validationCase{
		{
			// docs/concepts.md#the-estate: the three errors, sorted.
			name:   "the traced tools/call",
			schema: paymentLookupSchema,
			value:  `{"reference": "PMT771", "include_legs": "yes", "urgent": true}`,
			want: []string{
				`$.include_legs: expected type boolean, got string`,
				`$.reference: does not match pattern '^PMT-\d{3,}$'`,
				`$.urgent: additional property is not allowed`,
			},
		},
		{
			name:   "the model's corrected arguments",
			schema: paymentLookupSchema,
			value:  `{"reference": "PMT-771", "include_legs": true}`,
		},
		{
			name:   "a missing required reference",
			schema: paymentLookupSchema,
			value:  `{}`,
			want:   []string{`$.reference: required property is missing`},
		},
		{
			name:   "the pattern is unanchored unless it says so",
			schema: `{"type": "string", "pattern": "\\d{3}"}`,
			value:  `"PMT-771-x"`,
		},
		{
			name:   "True as an amount is a type error",
			schema: paymentReleaseSchema,
			value:  `{"reference": "PMT-771", "amount_minor": true, "currency": "AED"}`,
			want:   []string{`$.amount_minor: expected type integer, got boolean`},
		},
		{
			name:   "a valid release",
			schema: paymentReleaseSchema,
			value:  `{"reference": "PMT-771", "amount_minor": 250000, "currency": "AED"}`,
		},
		{
			name:   "a release with everything wrong",
			schema: paymentReleaseSchema,
			value:  `{"amount_minor": 0, "currency": "GBP", "memo": "x"}`,
			want: []string{
				`$.amount_minor: below minimum 1`,
				`$.currency: must be one of ['AED', 'USD', 'EUR']`,
				`$.memo: additional property is not allowed`,
				`$.reference: required property is missing`,
			},
		},
		{
			// A string against an integer with a minimum is one
			// actionable error, not two.
			name:   "after a type error the minimum is not checked",
			schema: `{"type": "object", "properties": {"amount": {"type": "integer", "minimum": 1}}}`,
			value:  `{"amount": "abc"}`,
			want:   []string{`$.amount: expected type integer, got string`},
		},
	})
}

func TestValidateTypes(t *testing.T) {
	runValidationCases(t, []validationCase{
		{name: "integer accepts 5", schema: `{"type": "integer"}`, value: `5`},
		{name: "integer accepts -0", schema: `{"type": "integer"}`, value: `-0`},
		{name: "integer refuses an integer beyond 64 bits", schema: `{"type": "integer"}`, value: `123456789012345678901234567890`,
			want: []string{`$: out of range for a 64-bit integer`}},
		{name: "integer accepts the largest int64", schema: `{"type": "integer", "minimum": 0}`, value: `9223372036854775807`},
		{name: "number accepts an integer beyond 64 bits", schema: `{"type": "number"}`, value: `123456789012345678901234567890`},
		{name: "number refuses a literal beyond a double, and checks nothing more", schema: `{"type": "number", "maximum": 1}`, value: `1e400`,
			want: []string{`$: out of range for a 64-bit float`}},
		{name: "an untyped schema holds any literal", schema: `{}`, value: `1e400`},
		{name: "integer refuses 5.0", schema: `{"type": "integer"}`, value: `5.0`,
			want: []string{`$: expected type integer, got number`}},
		{name: "integer refuses 1e2 (a float in Python)", schema: `{"type": "integer"}`, value: `1e2`,
			want: []string{`$: expected type integer, got number`}},
		{name: "integer refuses true", schema: `{"type": "integer"}`, value: `true`,
			want: []string{`$: expected type integer, got boolean`}},
		{name: "integer refuses a numeric string", schema: `{"type": "integer"}`, value: `"5"`,
			want: []string{`$: expected type integer, got string`}},
		{name: "number accepts 5", schema: `{"type": "number"}`, value: `5`},
		{name: "number accepts 5.0", schema: `{"type": "number"}`, value: `5.0`},
		{name: "number accepts 1e-7", schema: `{"type": "number"}`, value: `1e-7`},
		{name: "number refuses false", schema: `{"type": "number"}`, value: `false`,
			want: []string{`$: expected type number, got boolean`}},
		{name: "boolean refuses 1", schema: `{"type": "boolean"}`, value: `1`,
			want: []string{`$: expected type boolean, got integer`}},
		{name: "boolean refuses \"true\"", schema: `{"type": "boolean"}`, value: `"true"`,
			want: []string{`$: expected type boolean, got string`}},
		{name: "null accepts null", schema: `{"type": "null"}`, value: `null`},
		{name: "null refuses 0", schema: `{"type": "null"}`, value: `0`,
			want: []string{`$: expected type null, got integer`}},
		{name: "string refuses null", schema: `{"type": "string"}`, value: `null`,
			want: []string{`$: expected type string, got null`}},
		{name: "object refuses an array", schema: `{"type": "object"}`, value: `[]`,
			want: []string{`$: expected type object, got array`}},
		{name: "array refuses an object", schema: `{"type": "array"}`, value: `{}`,
			want: []string{`$: expected type array, got object`}},
		{name: "no type accepts anything", schema: `{}`, value: `[1, "a", null, {"b": false}]`},
		{name: "union accepts its first type", schema: `{"type": ["string", "null"]}`, value: `"x"`},
		{name: "union accepts its second type", schema: `{"type": ["string", "null"]}`, value: `null`},
		{name: "union refuses an integer", schema: `{"type": ["string", "null"]}`, value: `5`,
			want: []string{`$: expected type string|null, got integer`}},
		{name: "union names its types in declared order", schema: `{"type": ["null", "boolean", "string"]}`, value: `{}`,
			want: []string{`$: expected type null|boolean|string, got object`}},
		{name: "union with integer refuses 5.5", schema: `{"type": ["integer", "string"]}`, value: `5.5`,
			want: []string{`$: expected type integer|string, got number`}},
		{name: "union with number accepts 5", schema: `{"type": ["number", "string"]}`, value: `5`},
		{name: "one-element union", schema: `{"type": ["integer"]}`, value: `5.0`,
			want: []string{`$: expected type integer, got number`}},
	})
}

func TestValidateNothingFurtherAfterTypeError(t *testing.T) {
	runValidationCases(t, []validationCase{
		{
			name:   "string keywords",
			schema: `{"type": "string", "minLength": 3, "maxLength": 1, "pattern": "^x", "enum": ["abc"], "const": "abc"}`,
			value:  `5`,
			want:   []string{`$: expected type string, got integer`},
		},
		{
			name:   "object keywords and nested properties",
			schema: `{"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}, "additionalProperties": false}`,
			value:  `[{"b": 1}]`,
			want:   []string{`$: expected type object, got array`},
		},
		{
			name:   "array keywords and items",
			schema: `{"type": "array", "minItems": 5, "uniqueItems": true, "items": {"type": "string"}}`,
			value:  `{"0": 1, "1": 1}`,
			want:   []string{`$: expected type array, got object`},
		},
		{
			name:   "number keywords",
			schema: `{"type": "integer", "minimum": 10, "exclusiveMaximum": 0}`,
			value:  `5.5`,
			want:   []string{`$: expected type integer, got number`},
		},
		{
			name:   "the parent and siblings are still checked",
			schema: `{"type": "object", "required": ["c"], "properties": {"a": {"type": "object", "required": ["x"], "properties": {"x": {}}}, "b": {"type": "integer"}, "c": {}}}`,
			value:  `{"a": "str", "b": "str"}`,
			want: []string{
				`$.a: expected type object, got string`,
				`$.b: expected type integer, got string`,
				`$.c: required property is missing`,
			},
		},
		{
			name:   "without a type, keywords of another kind do not apply",
			schema: `{"minLength": 3, "minimum": 10, "required": ["a"], "properties": {"a": {}}, "minItems": 2}`,
			value:  `"x"`,
			want:   []string{`$: shorter than minLength 3`},
		},
	})
}

func TestValidateStringLengthInCodePoints(t *testing.T) {
	runValidationCases(t, []validationCase{
		{name: "é is one code point", schema: `{"maxLength": 1}`, value: `"é"`},
		{name: "é written as an escape is one code point", schema: `{"maxLength": 1}`, value: `"\u00e9"`},
		{name: "an emoji is one code point", schema: `{"maxLength": 1}`, value: `"😀"`},
		{name: "an emoji written as a surrogate pair is one code point", schema: `{"maxLength": 1}`, value: `"\ud83d\ude00"`},
		{name: "é does not reach minLength 2", schema: `{"minLength": 2}`, value: `"é"`,
			want: []string{`$: shorter than minLength 2`}},
		{name: "an emoji does not reach minLength 2", schema: `{"minLength": 2}`, value: `"😀"`,
			want: []string{`$: shorter than minLength 2`}},
		{name: "e and a combining accent are two code points", schema: `{"maxLength": 1}`, value: `"e\u0301"`,
			want: []string{`$: longer than maxLength 1`}},
		{name: "three emoji are three code points", schema: `{"minLength": 3, "maxLength": 3}`, value: `"😀😁😂"`},
		{name: "the empty string against minLength 1", schema: `{"minLength": 1}`, value: `""`,
			want: []string{`$: shorter than minLength 1`}},
		{name: "lengths at the bounds are valid", schema: `{"minLength": 2, "maxLength": 2}`, value: `"ab"`},
	})
}

func TestValidateConstAndEnumCompareJSONValues(t *testing.T) {
	runValidationCases(t, []validationCase{
		{name: "const 1 accepts 1.0", schema: `{"const": 1}`, value: `1.0`},
		{name: "const 1.0 accepts 1", schema: `{"const": 1.0}`, value: `1`},
		{name: "const 100 accepts 1e2", schema: `{"const": 100}`, value: `1e2`},
		{name: "const 1 refuses true", schema: `{"const": 1}`, value: `true`,
			want: []string{`$: must be 1`}},
		{name: "const true refuses 1", schema: `{"const": true}`, value: `1`,
			want: []string{`$: must be true`}},
		{name: "const false refuses 0", schema: `{"const": false}`, value: `0`,
			want: []string{`$: must be false`}},
		{name: "const null refuses false", schema: `{"const": null}`, value: `false`,
			want: []string{`$: must be null`}},
		{name: "const null accepts null", schema: `{"const": null}`, value: `null`},
		{name: "const string", schema: `{"const": "x"}`, value: `"y"`,
			want: []string{`$: must be 'x'`}},
		{name: "const string holding a quote", schema: `{"const": "it's"}`, value: `"its"`,
			want: []string{`$: must be "it's"`}},
		{name: "const number prints canonically", schema: `{"const": 1.50}`, value: `1.6`,
			want: []string{`$: must be 1.5`}},
		{name: "const object regardless of key order", schema: `{"const": {"a": 1, "b": [true, null]}}`, value: `{"b": [true, null], "a": 1.0}`},
		{name: "const object with a missing key", schema: `{"const": {"a": 1, "b": 2}}`, value: `{"a": 1}`,
			want: []string{`$: must be {'a': 1, 'b': 2}`}},
		{name: "const object with an extra key", schema: `{"const": {"a": 1}}`, value: `{"a": 1, "b": 2}`,
			want: []string{`$: must be {'a': 1}`}},
		{name: "const array is ordered", schema: `{"const": [1, 2]}`, value: `[2, 1]`,
			want: []string{`$: must be [1, 2]`}},
		{name: "const string is not the number", schema: `{"const": "1"}`, value: `1`,
			want: []string{`$: must be '1'`}},
		{name: "enum accepts 1.0 for 1", schema: `{"enum": [1, "a"]}`, value: `1.0`},
		{name: "enum refuses true for 1", schema: `{"enum": [1, 2]}`, value: `true`,
			want: []string{`$: must be one of [1, 2]`}},
		{name: "enum refuses 1 for true", schema: `{"enum": [true, null]}`, value: `1`,
			want: []string{`$: must be one of [true, null]`}},
		{name: "enum of objects regardless of key order", schema: `{"enum": [{"a": 1, "b": 2}, "x"]}`, value: `{"b": 2, "a": 1}`},
		{name: "enum of arrays", schema: `{"enum": [[1, 2]]}`, value: `[2, 1]`,
			want: []string{`$: must be one of [[1, 2]]`}},
		{name: "the sample estate's currencies", schema: `{"type": "string", "enum": ["AED", "USD", "EUR"]}`, value: `"GBP"`,
			want: []string{`$: must be one of ['AED', 'USD', 'EUR']`}},
		{name: "const and enum both fail, sorted by message", schema: `{"const": "a", "enum": ["b"]}`, value: `"c"`,
			want: []string{`$: must be 'a'`, `$: must be one of ['b']`}},
	})
}

func TestValidateUniqueItemsComparesJSONValues(t *testing.T) {
	const unique = `{"uniqueItems": true}`
	runValidationCases(t, []validationCase{
		{name: "1 and 1.0 are equal", schema: unique, value: `[1, 1.0]`,
			want: []string{`$: items must be unique`}},
		{name: "1 and 1e0 are equal", schema: unique, value: `[1e0, 2, 1]`,
			want: []string{`$: items must be unique`}},
		{name: "objects regardless of key order", schema: unique, value: `[{"a": 1, "b": 2}, {"b": 2, "a": 1}]`,
			want: []string{`$: items must be unique`}},
		{name: "nested arrays with equal numbers", schema: unique, value: `[[1], [1.0]]`,
			want: []string{`$: items must be unique`}},
		{name: "equal strings", schema: unique, value: `["a", "b", "a"]`,
			want: []string{`$: items must be unique`}},
		{name: "1 and true differ", schema: unique, value: `[1, true]`},
		{name: "0 and false differ", schema: unique, value: `[0, false]`},
		{name: "null and \"null\" differ", schema: unique, value: `[null, "null"]`},
		{name: "\"1\" and 1 differ", schema: unique, value: `["1", 1]`},
		{name: "arrays in different order differ", schema: unique, value: `[[1, 2], [2, 1]]`},
		{name: "objects with different values differ", schema: unique, value: `[{"a": 1}, {"a": 2}, {"b": 1}]`},
		{name: "empty array", schema: unique, value: `[]`},
		{name: "uniqueItems false allows duplicates", schema: `{"uniqueItems": false}`, value: `[1, 1]`},
	})
}

func TestValidateObjects(t *testing.T) {
	runValidationCases(t, []validationCase{
		{
			name:   "additionalProperties as a schema checks only undeclared properties",
			schema: `{"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer", "minimum": 0}}`,
			value:  `{"a": "x", "b": 1, "c": -1, "d": "s"}`,
			want: []string{
				`$.c: below minimum 0`,
				`$.d: expected type integer, got string`,
			},
		},
		{
			name:   "additionalProperties as a schema with nested errors",
			schema: `{"additionalProperties": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}}}`,
			value:  `{"x": {"id": 1}, "y": {}, "z": {"id": "ok"}}`,
			want: []string{
				`$.x.id: expected type string, got integer`,
				`$.y.id: required property is missing`,
			},
		},
		{
			name:   "additionalProperties true allows anything",
			schema: `{"properties": {"a": {}}, "additionalProperties": true}`,
			value:  `{"a": 1, "b": 2}`,
		},
		{
			name:   "additionalProperties false reports each extra property",
			schema: `{"properties": {"a": {}}, "additionalProperties": false}`,
			value:  `{"z": 1, "a": 1, "b": 2, "m": 3}`,
			want: []string{
				`$.b: additional property is not allowed`,
				`$.m: additional property is not allowed`,
				`$.z: additional property is not allowed`,
			},
		},
		{
			name:   "additionalProperties false with no properties refuses every key",
			schema: `{"additionalProperties": false}`,
			value:  `{"a": null}`,
			want:   []string{`$.a: additional property is not allowed`},
		},
		{
			name:   "a present null satisfies required",
			schema: `{"required": ["a"], "properties": {"a": {}}}`,
			value:  `{"a": null}`,
		},
		{
			name:   "undeclared properties are free by default",
			schema: `{"properties": {"a": {"type": "string"}}}`,
			value:  `{"a": "x", "b": [1, 2]}`,
		},
		{
			name:   "nested path with an index",
			schema: `{"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "array", "items": {"type": "integer"}}}}}}`,
			value:  `{"a": {"b": [1, 2, "x", 4.5]}}`,
			want: []string{
				`$.a.b[2]: expected type integer, got string`,
				`$.a.b[3]: expected type integer, got number`,
			},
		},
		{
			name:   "arrays of objects",
			schema: `{"type": "array", "items": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}}}}`,
			value:  `[{"id": 1, "tags": ["a", 2]}, {"tags": []}]`,
			want: []string{
				`$[0].tags[1]: expected type string, got integer`,
				`$[1].id: required property is missing`,
			},
		},
	})
}

func TestValidateErrorsSortedByPathThenMessage(t *testing.T) {
	runValidationCases(t, []validationCase{
		{
			name:   "messages at one path sort by message",
			schema: `{"type": "string", "minLength": 5, "pattern": "^x"}`,
			value:  `"ab"`,
			want: []string{
				`$: does not match pattern '^x'`,
				`$: shorter than minLength 5`,
			},
		},
		{
			name:   "paths sort byte-wise, so $.a.b comes before $.a[0] and $.b",
			schema: `{"properties": {"a": {"type": "object", "required": ["b"], "properties": {"b": {}}}, "b": {"type": "array", "items": {"type": "string"}}, "a_": {"type": "null"}}}`,
			value:  `{"b": ["ok", 1], "a": {}, "a_": 0}`,
			want: []string{
				`$.a.b: required property is missing`,
				`$.a_: expected type null, got integer`,
				`$.b[1]: expected type string, got integer`,
			},
		},
		{
			// The sort is on the path text: $[10] before $[2].
			name:   "indexes sort as text",
			schema: `{"items": {"type": "string"}}`,
			value:  `[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]`,
			want: []string{
				`$[0]: expected type string, got integer`,
				`$[10]: expected type string, got integer`,
				`$[11]: expected type string, got integer`,
				`$[1]: expected type string, got integer`,
				`$[2]: expected type string, got integer`,
				`$[3]: expected type string, got integer`,
				`$[4]: expected type string, got integer`,
				`$[5]: expected type string, got integer`,
				`$[6]: expected type string, got integer`,
				`$[7]: expected type string, got integer`,
				`$[8]: expected type string, got integer`,
				`$[9]: expected type string, got integer`,
			},
		},
		{
			name:   "the array's own errors come before its elements'",
			schema: `{"minItems": 5, "uniqueItems": true, "items": {"type": "integer", "maximum": 1}}`,
			value:  `[2, 2]`,
			want: []string{
				`$: fewer than minItems 5`,
				`$: items must be unique`,
				`$[0]: above maximum 1`,
				`$[1]: above maximum 1`,
			},
		},
	})
}

func TestValidateEveryKeywordMessage(t *testing.T) {
	runValidationCases(t, []validationCase{
		{name: "type", schema: `{"type": "string"}`, value: `1`, want: []string{`$: expected type string, got integer`}},
		{name: "const", schema: `{"const": "x"}`, value: `"y"`, want: []string{`$: must be 'x'`}},
		{name: "enum", schema: `{"enum": ["x", 1, null]}`, value: `"y"`, want: []string{`$: must be one of ['x', 1, null]`}},
		{name: "minLength", schema: `{"minLength": 3}`, value: `"ab"`, want: []string{`$: shorter than minLength 3`}},
		{name: "maxLength", schema: `{"maxLength": 1}`, value: `"ab"`, want: []string{`$: longer than maxLength 1`}},
		{name: "pattern", schema: `{"pattern": "^[A-Z]+$"}`, value: `"ab"`, want: []string{`$: does not match pattern '^[A-Z]+$'`}},
		{name: "minimum", schema: `{"minimum": 1}`, value: `0`, want: []string{`$: below minimum 1`}},
		{name: "minimum with a fraction", schema: `{"minimum": 0.5}`, value: `0.25`, want: []string{`$: below minimum 0.5`}},
		{name: "minimum is inclusive", schema: `{"minimum": 1}`, value: `1.0`},
		{name: "maximum", schema: `{"maximum": 10}`, value: `10.5`, want: []string{`$: above maximum 10`}},
		{name: "maximum is inclusive", schema: `{"maximum": 10}`, value: `10`},
		{name: "exclusiveMinimum", schema: `{"exclusiveMinimum": 0}`, value: `0`, want: []string{`$: must be > 0`}},
		{name: "exclusiveMinimum below", schema: `{"exclusiveMinimum": 0}`, value: `-1`, want: []string{`$: must be > 0`}},
		{name: "exclusiveMinimum above", schema: `{"exclusiveMinimum": 0}`, value: `1e-7`},
		{name: "exclusiveMaximum", schema: `{"exclusiveMaximum": 10}`, value: `10.0`, want: []string{`$: must be < 10`}},
		{name: "exclusiveMaximum below", schema: `{"exclusiveMaximum": 10}`, value: `9.999`},
		{name: "required", schema: `{"required": ["a"], "properties": {"a": {}}}`, value: `{}`, want: []string{`$.a: required property is missing`}},
		{name: "additionalProperties", schema: `{"additionalProperties": false}`, value: `{"a": 1}`, want: []string{`$.a: additional property is not allowed`}},
		{name: "minItems", schema: `{"minItems": 2}`, value: `[1]`, want: []string{`$: fewer than minItems 2`}},
		{name: "maxItems", schema: `{"maxItems": 1}`, value: `[1, 2]`, want: []string{`$: more than maxItems 1`}},
		{name: "uniqueItems", schema: `{"uniqueItems": true}`, value: `[1, 1]`, want: []string{`$: items must be unique`}},
		{name: "items", schema: `{"items": {"type": "string"}}`, value: `["a", 1]`, want: []string{`$[1]: expected type string, got integer`}},
		{name: "properties", schema: `{"properties": {"a": {"type": "string"}}}`, value: `{"a": 1}`, want: []string{`$.a: expected type string, got integer`}},
	})
}

func TestValidateLanguageMessages(t *testing.T) {
	runValidationCases(t, []validationCase{
		{name: "false schema", schema: `{"properties": {"a": false}}`, value: `{"a": 1}`, want: []string{`$.a: no value is allowed here`}},
		{name: "multipleOf exact in decimal", schema: `{"multipleOf": 0.1}`, value: `0.3`},
		{name: "multipleOf", schema: `{"multipleOf": 0.01}`, value: `10.005`, want: []string{`$: not a multiple of 0.01`}},
		{name: "multipleOf of a huge exponent", schema: `{"multipleOf": 0.5}`, value: `1e999999`},
		{name: "multipleOf with a tiny exponent", schema: `{"multipleOf": 2}`, value: `1e-999999`, want: []string{`$: not a multiple of 2`}},
		{name: "format", schema: `{"format": "date"}`, value: `"2026-13-01"`, want: []string{`$: does not match format 'date'`}},
		{name: "format applies to its type only", schema: `{"format": "date"}`, value: `20261301`},
		{name: "minProperties", schema: `{"minProperties": 2}`, value: `{"a": 1}`, want: []string{`$: fewer than minProperties 2`}},
		{name: "maxProperties", schema: `{"maxProperties": 0}`, value: `{"a": 1}`, want: []string{`$: more than maxProperties 0`}},
		{name: "dependentRequired", schema: `{"dependentRequired": {"card": ["cvv", "expiry"]}}`, value: `{"card": "x", "cvv": 1}`,
			want: []string{`$.expiry: required property is missing (required when 'card' is present)`}},
		{name: "propertyNames", schema: `{"propertyNames": {"pattern": "^[a-z]+$", "maxLength": 3}}`, value: `{"Abcd": 1, "ok": 2}`,
			want: []string{`$.Abcd: property name: does not match pattern '^[a-z]+$'`, `$.Abcd: property name: longer than maxLength 3`}},
		{name: "patternProperties", schema: `{"patternProperties": {"^n_": {"type": "integer"}}, "additionalProperties": false}`, value: `{"n_a": "x", "b": 1}`,
			want: []string{`$.b: additional property is not allowed`, `$.n_a: expected type integer, got string`}},
		{name: "additionalProperties schema", schema: `{"properties": {"a": {}}, "additionalProperties": {"type": "integer"}}`, value: `{"a": "x", "b": "y"}`,
			want: []string{`$.b: expected type integer, got string`}},
		{name: "prefixItems and items false", schema: `{"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}`, value: `["a", "b", 3]`,
			want: []string{`$[1]: expected type integer, got string`, `$[2]: additional item is not allowed`}},
		{name: "contains", schema: `{"contains": {"type": "integer"}}`, value: `["a"]`, want: []string{`$: no item matches the contains schema`}},
		{name: "minContains", schema: `{"contains": {"type": "integer"}, "minContains": 2}`, value: `[1, "a"]`, want: []string{`$: fewer than minContains 2 items match the contains schema`}},
		{name: "maxContains", schema: `{"contains": {"type": "integer"}, "maxContains": 1}`, value: `[1, 2]`, want: []string{`$: more than maxContains 1 items match the contains schema`}},
		{name: "minContains 0", schema: `{"contains": {"type": "integer"}, "minContains": 0}`, value: `[]`},
		{name: "allOf reports each schema", schema: `{"allOf": [{"type": "integer"}, {"const": "a"}]}`, value: `"b"`,
			want: []string{`$: expected type integer, got string`, `$: must be 'a'`}},
		{name: "duplicate errors are reported once", schema: `{"allOf": [{"required": ["a"]}, {"required": ["a"]}]}`, value: `{}`,
			want: []string{`$.a: required property is missing`}},
		{name: "not", schema: `{"not": {"type": "null"}}`, value: `null`, want: []string{`$: must not match the schema in not`}},
		{name: "if/then", schema: `{"if": {"properties": {"kind": {"const": "card"}}}, "then": {"required": ["cvv"]}, "else": {"required": ["iban"]}}`,
			value: `{"kind": "card"}`, want: []string{`$.cvv: required property is missing`}},
		{name: "if/else", schema: `{"if": {"properties": {"kind": {"const": "card"}}}, "then": {"required": ["cvv"]}, "else": {"required": ["iban"]}}`,
			value: `{"kind": "sepa"}`, want: []string{`$.iban: required property is missing`}},
		{name: "a nullable value: the value's errors", schema: `{"anyOf": [{"type": "string", "minLength": 3}, {"type": "null"}]}`, value: `"ab"`,
			want: []string{`$: shorter than minLength 3`}},
		{name: "a nullable value of another type", schema: `{"anyOf": [{"type": "string"}, {"type": "null"}]}`, value: `1`,
			want: []string{`$: expected type string|null, got integer`}},
		{name: "a union told apart by a tag: the alternative's errors", schema: `{"oneOf": [
				{"type": "object", "properties": {"kind": {"const": "card"}, "pan": {"type": "string"}}, "required": ["kind", "pan"]},
				{"type": "object", "properties": {"kind": {"const": "iban"}, "iban": {"type": "string"}}, "required": ["kind", "iban"]}]}`,
			value: `{"kind": "iban", "pan": 1}`, want: []string{`$.iban: required property is missing`}},
		{name: "a tag no alternative has", schema: `{"oneOf": [
				{"type": "object", "properties": {"kind": {"const": "card"}}, "required": ["kind"]},
				{"type": "object", "properties": {"kind": {"const": "iban"}}, "required": ["kind"]}]}`,
			value: `{"kind": "cash"}`, want: []string{`$.kind: must be one of ['card', 'iban']`}},
		{name: "a missing tag", schema: `{"oneOf": [
				{"type": "object", "properties": {"kind": {"const": "card"}}, "required": ["kind"]},
				{"type": "object", "properties": {"kind": {"const": "iban"}}, "required": ["kind"]}]}`,
			value: `{}`, want: []string{`$.kind: required property is missing`}},
		{name: "a union tried one by one", schema: `{"anyOf": [{"type": "string", "maxLength": 2}, {"type": "string", "pattern": "^x", "minLength": 9}]}`, value: `"abc"`,
			want: []string{`$: matches none of anyOf: #0 $: longer than maxLength 2; #1 $: does not match pattern '^x' (+1 more)`}},
		{name: "oneOf matching twice", schema: `{"oneOf": [{"type": "integer"}, {"type": "number"}]}`, value: `1`,
			want: []string{`$: matches more than one of oneOf: #0, #1`}},
		{name: "oneOf matching once", schema: `{"oneOf": [{"type": "integer"}, {"type": "number"}]}`, value: `1.5`},
		{name: "unevaluatedProperties", schema: `{"properties": {"a": {}}, "anyOf": [{"properties": {"b": {}}, "required": ["b"]}, {"required": ["c"]}], "unevaluatedProperties": false}`,
			value: `{"a": 1, "b": 2, "d": 3}`, want: []string{`$.d: additional property is not allowed`}},
		{name: "unevaluatedItems", schema: `{"prefixItems": [{}], "unevaluatedItems": {"type": "string"}}`, value: `[1, 2]`,
			want: []string{`$[1]: expected type string, got integer`}},
		{name: "$ref errors at the value", schema: `{"$defs": {"id": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/id"}}}`, value: `{"a": 1}`,
			want: []string{`$.a: expected type string, got integer`}},
	})
}

func TestValidateCapsTheErrors(t *testing.T) {
	s := schema.MustParseJSON(`{"additionalProperties": false}`)
	v := map[string]any{}
	for i := range 1000 {
		v[fmt.Sprintf("k%04d", i)] = i
	}
	errs := s.Validate(v)
	if len(errs) != schema.MaxErrors+1 {
		t.Fatalf("%d errors, want %d and the note", len(errs), schema.MaxErrors)
	}
	if errs[0].Path != "$.k0000" || errs[schema.MaxErrors-1].Path != fmt.Sprintf("$.k%04d", schema.MaxErrors-1) {
		t.Errorf("not the first errors in order: %v ... %v", errs[0], errs[schema.MaxErrors-1])
	}
	note := errs[schema.MaxErrors]
	if note.Path != "" || note.String() != "900 more errors not shown" || errs.Truncated() != 900 {
		t.Errorf("the note: %q, Truncated() = %d", note.String(), errs.Truncated())
	}
	if short := s.Validate(map[string]any{"a": 1}); short.Truncated() != 0 {
		t.Error("a short list claims to be truncated")
	}
}

func TestValidateGoValues(t *testing.T) {
	// Validate accepts native Go numbers too; a float64 is an integer exactly
	// when it prints as one.
	s := schema.MustParseJSON(paymentReleaseSchema)
	errs := s.Validate(map[string]any{"reference": "PMT-771", "amount_minor": 250000.0, "currency": "AED"})
	if errs != nil {
		t.Errorf("float64 250000: %v", errs)
	}
	errs = s.Validate(map[string]any{"reference": "PMT-771", "amount_minor": 2.5, "currency": "AED"})
	if want := []string{"$.amount_minor: expected type integer, got number"}; !slices.Equal(errs.Strings(), want) {
		t.Errorf("float64 2.5: %v, want %v", errs, want)
	}
	errs = s.Validate(map[string]any{"reference": "PMT-771", "amount_minor": int64(0), "currency": "AED"})
	if want := []string{"$.amount_minor: below minimum 1"}; !slices.Equal(errs.Strings(), want) {
		t.Errorf("int64 0: %v, want %v", errs, want)
	}
	errs = s.Validate(map[string]any{"reference": "PMT-771", "amount_minor": make(chan int), "currency": "AED"})
	if want := []string{"$.amount_minor: expected type integer, got invalid"}; !slices.Equal(errs.Strings(), want) {
		t.Errorf("a channel: %v, want %v", errs, want)
	}
}

func TestValidateZeroSchemaAcceptsEverything(t *testing.T) {
	var s schema.Schema
	for _, v := range []any{nil, true, json.Number("1.5"), "x", []any{1}, map[string]any{"a": nil}} {
		if errs := s.Validate(v); errs != nil {
			t.Errorf("Validate(%v) = %v", v, errs)
		}
	}
}

func TestValidateJSONRefusesMalformedInput(t *testing.T) {
	s := schema.MustParseJSON(paymentLookupSchema)
	for _, in := range []string{``, `{`, `{"reference": "PMT-771"} {}`, `{"reference": 'x'}`} {
		errs, err := s.ValidateJSON([]byte(in))
		if err == nil {
			t.Errorf("ValidateJSON(%q) = %v, want a decoding error", in, errs)
		}
		if errs != nil {
			t.Errorf("ValidateJSON(%q) returned validation errors with a decoding error: %v", in, errs)
		}
	}
}

func TestValidationErrorRendering(t *testing.T) {
	s := schema.MustParseJSON(paymentLookupSchema)
	errs, err := s.ValidateJSON([]byte(`{"reference": "PMT771", "include_legs": "yes", "urgent": true}`))
	if err != nil {
		t.Fatal(err)
	}
	const want = `$.include_legs: expected type boolean, got string; ` +
		`$.reference: does not match pattern '^PMT-\d{3,}$'; ` +
		`$.urgent: additional property is not allowed`
	if got := errs.Error(); got != want {
		t.Errorf("Errors.Error() = %q, want %q", got, want)
	}
	if got, want := errs[0].Error(), "$.include_legs: expected type boolean, got string"; got != want {
		t.Errorf("ValidationError.Error() = %q, want %q", got, want)
	}
	// The JSON form is what goes into a -32602 error's data.
	b, err := json.Marshal(errs[2])
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"path":"$.urgent","message":"additional property is not allowed"}`; got != want {
		t.Errorf("json.Marshal = %s, want %s", got, want)
	}
}

func TestValidateIsDeterministic(t *testing.T) {
	// Map iteration is random in Go; the result must not be.
	s := schema.MustParseJSON(`{"additionalProperties": false, "properties": {"a": {"type": "string"}}, "required": ["a"]}`)
	value := `{"z": 1, "y": 2, "x": 3, "w": 4, "v": 5, "u": 6, "a": 7}`
	first, err := s.ValidateJSON([]byte(value))
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 7 {
		t.Fatalf("want 7 errors, got %v", first)
	}
	for i := 0; i < 50; i++ {
		got, _ := s.ValidateJSON([]byte(value))
		if !slices.Equal(got, first) {
			t.Fatalf("run %d: %v, first run %v", i, got, first)
		}
	}
	if !slices.IsSortedFunc(first, func(a, b schema.ValidationError) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Message, b.Message))
	}) {
		t.Errorf("not sorted: %v", first)
	}
}

// Copy gives what Result gives, sorted, without duplicates and truncated
// alike, and leaves the Collector empty and usable: a pooled reader's
// next reading starts with no error of the last.
func TestCollectorCopyIsResult(t *testing.T) {
	fill := func(c *schema.Collector, n int) {
		for i := range n {
			c.Add(fmt.Sprintf("$.k%04d", (i*7)%n), "m")
			c.Add(fmt.Sprintf("$.k%04d", (i*7)%n), "m") // a duplicate
		}
	}
	for _, n := range []int{0, 1, 3, schema.MaxErrors, 3 * schema.MaxErrors} {
		var a, b schema.Collector
		fill(&a, n)
		fill(&b, n)
		want, got := a.Result(), b.Copy()
		if !slices.Equal(got, want) || got.Truncated() != want.Truncated() {
			t.Fatalf("%d errors: Copy %v, Result %v", n, got, want)
		}
		if !b.Empty() || b.Copy() != nil {
			t.Fatalf("%d errors: the Collector is not empty after Copy", n)
		}
		b.Add("$.again", "m")
		if again := b.Copy(); len(again) != 1 || again[0].Path != "$.again" {
			t.Fatalf("%d errors: used again, Copy gives %v", n, again)
		}
	}
}
