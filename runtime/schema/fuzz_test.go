package schema_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// fuzzSchema is one of the fixed schemas FuzzValidate and FuzzRepair pick
// from, with the defaults FuzzRepair fills from.
type fuzzSchema struct {
	text     string
	defaults map[string]any
}

// fuzzSchemas cover the subset: the sample estate's contracts, nesting through
// properties, items and additionalProperties, unions, bounds written every
// way JSON allows, patterns, enum and const of structured values, and the
// schema without constraints.
var fuzzSchemas = []fuzzSchema{
	{lookupSchema, map[string]any{"$.reference": "PMT-000"}},
	{`{
		"type": "object",
		"properties": {
			"reference": {"type": "string", "pattern": "^PMT-\\d{3,}$"},
			"amount_minor": {"type": "integer", "minimum": 1},
			"currency": {"type": "string", "enum": ["AED", "USD", "EUR"]}
		},
		"required": ["reference", "amount_minor", "currency"],
		"additionalProperties": false
	}`, map[string]any{"$.amount_minor": "100", "$.currency": "AED"}},
	{`{
		"type": "object",
		"properties": {
			"currency": {"type": "string", "minLength": 3, "maxLength": 3},
			"amount": {"type": "number", "exclusiveMinimum": 0},
			"legs": {
				"type": "array",
				"maxItems": 4,
				"items": {
					"type": "object",
					"properties": {
						"currency": {"type": "string"},
						"amount": {"type": "integer", "minimum": -1e3, "exclusiveMaximum": 1E+3},
						"final": {"type": "boolean"}
					},
					"required": ["currency", "amount"],
					"additionalProperties": false
				}
			},
			"meta": {"type": "object", "additionalProperties": {"type": ["number", "null"]}}
		},
		"required": ["currency", "legs"],
		"additionalProperties": false
	}`, map[string]any{"$.currency": "AED", "$.legs[0].currency": "USD", "$.legs[1].amount": json.Number("2.0")}},
	{`{"type": ["integer", "string", "null"], "minimum": -5, "maximum": 5.5, "minLength": 1, "maxLength": 4, "pattern": "^[a-z0-9]+$"}`, nil},
	{`{"type": "array", "items": {"type": ["number", "boolean"], "exclusiveMinimum": 0, "exclusiveMaximum": 100}, "uniqueItems": true, "minItems": 1, "maxItems": 4}`, nil},
	{`{"enum": [1, "1", [1, 2], {"a": null}, true, 2.5, 12345678901234567890]}`, nil},
	{`{"const": {"k": [1.0, "x", {"z": false}]}}`, nil},
	{`{"minimum": 0, "maxLength": 3, "items": {"type": "string"}, "properties": {"a": {"type": "integer"}}, "required": ["a"]}`,
		map[string]any{"$.a": "7"}},
	{`{"type": "string", "pattern": "^[äöü€ ]*$", "minLength": 2, "maxLength": 5}`, nil},
	{`{}`, nil},
	{`{"type": "object", "additionalProperties": {"type": "object", "properties": {"n": {"type": "integer"}, "s": {"type": "string"}}, "required": ["n"], "additionalProperties": false}}`,
		map[string]any{"$.a.n": "3", "$.b.n": 4}},
	{`{"type": "number", "minimum": 0.1, "maximum": 0.3}`, nil},
	{`{"type": "array", "items": {"type": "array", "items": {"type": ["integer", "boolean"]}, "uniqueItems": true}}`, nil},
}

// fuzzSeedValues are values worth starting from: the traced call, each
// repairable mistake, numbers at the edges of what a double holds.
var fuzzSeedValues = []string{
	`{"reference": "PMT771", "include_legs": "yes", "urgent": true}`,
	`{"reference": "PMT-771", "include_legs": "TRUE"}`,
	`{"reference": "PMT-771", "amount_minor": "250000", "currency": "AED", "x": 1}`,
	`{"reference": 771, "amount_minor": 5.0, "currency": "EUR"}`,
	`{"currency": "AED", "amount": "0.5", "legs": [{"currency": 840, "amount": 1e2, "final": "false", "memo": 1}, {"currency": "USD"}], "meta": {"fx": "3.6725", "n": null}}`,
	`{"legs": [{}, {}]}`,
	`{"a": {"n": "1", "s": 2, "t": 3}, "b": {}}`,
	`[1, 2.5, true, 1.0, "1"]`,
	`[[1, true, 1.0], [false, "0"], []]`,
	`"5.0"`, `"true"`, `"abc"`, `"ääü"`, `5`, `5.5`, `-0.0`, `null`, `{}`, `[]`,
	`{"k": [1, "x", {"z": false}]}`,
	`0.30000000000000001`, `0.3`, `1e400`, `1e-400`, `9007199254740993`, `12345678901234567890.0`,
	`1e999999999`, `0e99999`,
}

// fuzzSetup parses the fixed schemas and compiles them with the reference
// validator once per process.
var fuzzSetup = sync.OnceValues(func() ([]*schema.Schema, []*jsonschema.Schema) {
	ours := make([]*schema.Schema, len(fuzzSchemas))
	refs := make([]*jsonschema.Schema, len(fuzzSchemas))
	for i, fs := range fuzzSchemas {
		ours[i] = schema.MustParseJSON(fs.text)
		ref, err := compileReference(ours[i].Document())
		if err != nil {
			panic("reference validator refuses fuzz schema " + fs.text + ": " + err.Error())
		}
		refs[i] = ref
	}
	return ours, refs
})

func addSchemaValueSeeds(f *testing.F) {
	for i := range fuzzSchemas {
		for _, v := range fuzzSeedValues {
			f.Add(uint8(i), []byte(v))
		}
	}
}

// failOnPanic turns a panic into a failure of this input alone, with its
// stack, so that one crasher in the checked-in corpus does not stop every other
// test of the package.
func failOnPanic(t *testing.T, input []byte) {
	if r := recover(); r != nil {
		t.Fatalf("panic on %q: %v\n%s", input, r, debug.Stack())
	}
}

// FuzzValidate validates arbitrary JSON against the fixed schemas: it never
// panics, its errors are sorted, and its verdict is the reference
// validator's apart from the documented differences (agreement_test.go).
func FuzzValidate(f *testing.F) {
	addSchemaValueSeeds(f)
	ours, refs := fuzzSetup()
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		defer failOnPanic(t, data)
		i := int(which) % len(ours)
		v, err := schema.DecodeJSON(data)
		if err != nil {
			return
		}
		errs := ours[i].Validate(v)
		if n := errs.Truncated(); n > 0 && len(errs) != schema.MaxErrors+1 {
			t.Fatalf("a truncated list of %d errors", len(errs))
		}
		body := errs
		if errs.Truncated() > 0 {
			body = errs[:len(errs)-1] // the note that ends a cut list
		}
		if !slices.IsSortedFunc(body, compareErrors) {
			t.Fatalf("errors not sorted: %v", errs)
		}
		if errs != nil && len(errs) == 0 {
			t.Fatal("an empty error list must be nil")
		}
		if documentedDifference(ours[i], v) != "" {
			return
		}
		refErr := refs[i].Validate(v)
		if (errs == nil) != (refErr == nil) {
			t.Fatalf("schema %s, value %s:\nthis package: %v\nreference: %s", fuzzSchemas[i].text, data, errs, referenceVerdict(refErr))
		}
	})
}

// FuzzRepair repairs arbitrary JSON against the fixed schemas and checks
// the repair properties (see checkRepair): idempotent, valid values
// untouched, input unmodified, nothing but removals, conversions and
// defaults.
func FuzzRepair(f *testing.F) {
	addSchemaValueSeeds(f)
	ours, _ := fuzzSetup()
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		defer failOnPanic(t, data)
		i := int(which) % len(ours)
		v, err := schema.DecodeJSON(data)
		if err != nil {
			return
		}
		checkRepair(t, ours[i], v, fuzzSchemas[i].defaults, "schema "+fuzzSchemas[i].text+", value "+string(data))
	})
}

// FuzzParse parses arbitrary bytes as a schema: it never panics, it fails
// with SchemaErrors exactly when the bytes are JSON, and a schema it accepts
// can be hashed, re-parsed from its document to the same hash, and used.
func FuzzParse(f *testing.F) {
	for _, fs := range fuzzSchemas {
		f.Add([]byte(fs.text))
	}
	for _, seed := range []string{
		``, `{`, `[]`, `5`, `{"type": "integer", "type": "string"}`, `{"type": []}`, `{"type": ["string", "string"]}`,
		`{"type": "float"}`, `{"oneOf": [{}]}`, `{"pattern": "(?<=a)"}`, `{"pattern": 5}`, `{"enum": []}`,
		`{"required": ["a"]}`, `{"items": [{}]}`, `{"minLength": -1}`, `{"minLength": 1.5}`, `{"maxItems": 1e2}`,
		`{"minimum": "1"}`, `{"const": null}`, `{"properties": {"a": 5}}`, `{"additionalProperties": 1}`,
		`{"x-secret": true, "title": "t", "examples": [1], "default": 2, "$comment": "c", "$schema": "s"}`,
		`{"properties": {"a": {"properties": {"b": {"type": "nope"}}}}}`, `{} {}`, "{\"a\xff\": 1}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer failOnPanic(t, data)
		s, err := schema.ParseJSON(data)
		_, decodeErr := schema.DecodeJSON(data)
		var schemaErrs schema.SchemaErrors
		isSchemaErr := errors.As(err, &schemaErrs)
		switch {
		case decodeErr != nil:
			if err == nil || isSchemaErr {
				t.Fatalf("%q is not JSON (%v), but ParseJSON returned %v", data, decodeErr, err)
			}
			return
		case err != nil:
			if !isSchemaErr || len(schemaErrs) == 0 {
				t.Fatalf("ParseJSON(%q) failed with %T %v, not SchemaErrors", data, err, err)
			}
			for _, e := range schemaErrs {
				if e.Message == "" {
					t.Fatalf("ParseJSON(%q): a schema error without a message at %s", data, e.Path)
				}
			}
			return
		}
		h := s.Hash()
		again, err := schema.Parse(s.Document())
		if err != nil {
			t.Fatalf("its own document does not parse: %v", err)
		}
		if again.Hash() != h {
			t.Fatalf("re-parsed document hashes %s, not %s", again.Hash(), h)
		}
		for _, v := range []any{nil, true, json.Number("1"), json.Number("1.5"), "s", []any{}, map[string]any{}, s.Document()} {
			s.Validate(v)
			schema.Repair(v, s, nil)
		}
	})
}

// FuzzCanonical canonicalizes arbitrary bytes: it never panics, the
// canonical form is its own canonical form, and the same value spelled
// differently (other number literals, whitespace, key order, escapes)
// canonicalizes and hashes the same.
func FuzzCanonical(f *testing.F) {
	for _, seed := range fuzzSeedValues {
		f.Add([]byte(seed))
	}
	for _, seed := range []string{
		`{"b": 1, "a": [1.0, 1e0, 10e-1, -0, 0.000001, 1e-7, 1e21, 123456789012345678901234567890]}`,
		`{"\u20ac": "\ud83d\ude00", "\ufb33": 1, "\ud800\udc00": 2, "<&>": "\u2028\u0000"}`,
		`"\"\\\/\b\f\n\r\t\u001f"`, `[1e308, -1.7976931348623157e308, 5e-324]`, `{"a": {"a": {"a": []}}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer failOnPanic(t, data)
		out, err := schema.Canonicalize(data)
		if err != nil {
			return
		}
		if again, err := schema.Canonicalize(out); err != nil || !bytes.Equal(again, out) {
			t.Fatalf("canonical %s re-canonicalizes to %s, %v", out, again, err)
		}
		v, err := schema.DecodeJSON(data)
		if err != nil {
			t.Fatalf("Canonicalize accepted %q, DecodeJSON did not: %v", data, err)
		}
		h, err := schema.HashValue(v)
		if err != nil || h != schema.HashCanonical(out) {
			t.Fatalf("HashValue = %s, %v; the hash of the canonical form is %s", h, err, schema.HashCanonical(out))
		}
		respelled := respellNumbers(v)
		if !schema.Equal(v, respelled) {
			t.Fatalf("test bug: respelling %s changed the value", out)
		}
		text, err := json.MarshalIndent(respelled, "", "\t")
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		other, err := schema.Canonicalize(text)
		if err != nil || !bytes.Equal(other, out) {
			t.Fatalf("the same value spelled %s canonicalizes to %s, %v; want %s", text, other, err, out)
		}
		if h2, _ := schema.HashValue(respelled); h2 != h {
			t.Fatalf("equal values hash %s and %s", h, h2)
		}
	})
}

// respellNumbers returns v with every number literal written differently
// but meaning the same number: 5 as 5e0, 2.5 as 2.5E+0; a literal that
// already has an exponent gains a zero fraction digit where it has none.
func respellNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, "eE") {
			if strings.Contains(s, ".") {
				return json.Number(s + "E+0")
			}
			return json.Number(s + "e0")
		}
		if !strings.Contains(s, ".") {
			i := strings.IndexAny(s, "eE")
			return json.Number(s[:i] + ".0" + s[i:])
		}
		return x
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = respellNumbers(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = respellNumbers(e)
		}
		return out
	}
	return v
}

// FuzzClassify classifies two arbitrary schemas against each other: it
// never panics or loops (recursive $refs, unions on one side only), a
// schema compared with itself is no change, and every reason has a rule,
// a path and a text.
func FuzzClassify(f *testing.F) {
	for i, a := range fuzzSchemas {
		b := fuzzSchemas[(i+1)%len(fuzzSchemas)]
		f.Add([]byte(a.text), []byte(b.text))
	}
	jsonValue := `{"$defs":{"v":{"anyOf":[{"type":"string"},{"type":"array","items":{"$ref":"#/$defs/v"}},{"type":"object","additionalProperties":{"$ref":"#/$defs/v"}}]}},"$ref":"#/$defs/v"}`
	f.Add([]byte(jsonValue), []byte(`{"type":["string","array","object","null"],"items":{"$ref":"#"},"additionalProperties":{"$ref":"#"}}`))
	f.Add([]byte(`{"anyOf":[{"type":"string"},{"type":"null"}]}`), []byte(`{"oneOf":[{"type":"string","maxLength":3},{"type":"string"}]}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		defer failOnPanic(t, append(append(a, '\n'), b...))
		old, err := schema.ParseJSON(a)
		if err != nil {
			return
		}
		new, err := schema.ParseJSON(b)
		if err != nil {
			return
		}
		if d := schema.Classify(old, old, schema.Input); d.Class != schema.None {
			t.Fatalf("%s against itself: %v", a, d.Changes)
		}
		for _, dir := range []schema.Direction{schema.Input, schema.Output} {
			for _, ch := range schema.Classify(old, new, dir).Changes {
				if ch.Rule == "" || ch.Path == "" || ch.Text == "" {
					t.Fatalf("a reason without a rule, path or text: %+v", ch)
				}
			}
		}
	})
}
