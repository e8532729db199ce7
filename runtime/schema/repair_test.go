package schema_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	corpus "github.com/mcpgen/mcpgen/internal/schemacorpus"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// lookupSchema is the input schema of the sample estate's payments.lookup@1.0.0.
const lookupSchema = `{
	"type": "object",
	"properties": {
		"reference": {"type": "string", "pattern": "^PMT-\\d{3,}$"},
		"include_legs": {"type": "boolean"}
	},
	"required": ["reference"],
	"additionalProperties": false
}`

func decodeTestJSON(t testing.TB, text string) any {
	t.Helper()
	v, err := schema.DecodeJSON([]byte(text))
	if err != nil {
		t.Fatalf("DecodeJSON(%s): %v", text, err)
	}
	return v
}

// TestRepairTracedCall is the traced call (docs/concepts.md#the-estate): include_legs is not coercible ("yes" is
// not "true"), urgent is dropped by additionalProperties: false, reference is
// untouched (repairing a pattern would be guessing), and two errors remain.
func TestRepairTracedCall(t *testing.T) {
	s := schema.MustParseJSON(lookupSchema)
	in := decodeTestJSON(t, `{"reference": "PMT771", "include_legs": "yes", "urgent": true}`)
	out, errs := schema.Repair(in, s, nil)

	want := decodeTestJSON(t, `{"reference": "PMT771", "include_legs": "yes"}`)
	if !reflect.DeepEqual(out, want) {
		t.Errorf("repaired %s, want %s", corpus.JSON(out), corpus.JSON(want))
	}
	wantErrs := []string{
		`$.include_legs: expected type boolean, got string`,
		`$.reference: does not match pattern '^PMT-\d{3,}$'`,
	}
	if got := errs.Strings(); !slices.Equal(got, wantErrs) {
		t.Errorf("errors %q, want %q", got, wantErrs)
	}
	if _, ok := in.(map[string]any)["urgent"]; !ok {
		t.Error("Repair removed urgent from its input")
	}
}

// repairCase is one Repair call: schema, value and defaults as JSON text
// (defaults may be empty), and the exact result: the value with its number
// literals as written, and the remaining errors.
type repairCase struct {
	name     string
	schema   string
	value    string
	defaults string
	want     string
	errs     []string
}

func runRepairCases(t *testing.T, cases []repairCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := schema.MustParseJSON(tc.schema)
			in := decodeTestJSON(t, tc.value)
			var defaults map[string]any
			if tc.defaults != "" {
				defaults = decodeTestJSON(t, tc.defaults).(map[string]any)
			}
			inCopy, defaultsCopy := corpus.Clone(in), corpus.Clone(defaults)

			out, errs := schema.Repair(in, s, defaults)

			if want := decodeTestJSON(t, tc.want); !reflect.DeepEqual(out, want) {
				t.Errorf("Repair(%s) = %s, want %s", tc.value, corpus.JSON(out), tc.want)
			}
			if got := errs.Strings(); !slices.Equal(got, tc.errs) {
				t.Errorf("errors %q, want %q", got, tc.errs)
			}
			if len(tc.errs) == 0 && errs != nil {
				t.Errorf("a valid result must give nil errors, got %#v", errs)
			}
			if !reflect.DeepEqual(in, inCopy) {
				t.Errorf("Repair modified its input: %s, was %s", corpus.JSON(in), corpus.JSON(inCopy))
			}
			if !reflect.DeepEqual(any(defaults), defaultsCopy) {
				t.Errorf("Repair modified the defaults: %s", corpus.JSON(defaults))
			}
			again, againErrs := schema.Repair(out, s, defaults)
			if !reflect.DeepEqual(again, out) || !slices.Equal(againErrs, errs) {
				t.Errorf("not idempotent: %s (%v), then %s (%v)", corpus.JSON(out), errs, corpus.JSON(again), againErrs)
			}
		})
	}
}

// TestRepairConversions covers each syntax repair at the top level, and the
// cases that look like one but are not.
func TestRepairConversions(t *testing.T) {
	runRepairCases(t, []repairCase{
		{name: "numeric string to integer", schema: `{"type": "integer"}`, value: `"42"`, want: `42`},
		{name: "negative numeric string to integer", schema: `{"type": "integer"}`, value: `"-7"`, want: `-7`},
		{name: "numeric string to number keeps the literal", schema: `{"type": "number"}`, value: `"2.50"`, want: `2.50`},
		{name: "exponent string to number", schema: `{"type": "number"}`, value: `"1E-3"`, want: `1E-3`},
		{name: "integral string with a fraction to integer", schema: `{"type": "integer"}`, value: `"5.0"`, want: `5`},
		{name: "integral string with an exponent to integer", schema: `{"type": "integer"}`, value: `"1e2"`, want: `100`},
		{name: "negative zero string to integer", schema: `{"type": "integer"}`, value: `"-0.0"`, want: `0`},
		{
			name: "fractional string stays for an integer", schema: `{"type": "integer"}`, value: `"5.5"`, want: `"5.5"`,
			errs: []string{"$: expected type integer, got string"},
		},
		{
			name: "string beyond a double stays", schema: `{"type": "number"}`, value: `"1e400"`, want: `"1e400"`,
			errs: []string{"$: expected type number, got string"},
		},
		{
			name: "padded numeric string stays", schema: `{"type": "integer"}`, value: `" 42"`, want: `" 42"`,
			errs: []string{"$: expected type integer, got string"},
		},
		{
			name: "plus sign stays", schema: `{"type": "number"}`, value: `"+1"`, want: `"+1"`,
			errs: []string{"$: expected type number, got string"},
		},
		{
			name: "leading zero stays", schema: `{"type": "integer"}`, value: `"01"`, want: `"01"`,
			errs: []string{"$: expected type integer, got string"},
		},
		{
			name: "hex stays", schema: `{"type": "integer"}`, value: `"0x2A"`, want: `"0x2A"`,
			errs: []string{"$: expected type integer, got string"},
		},
		{
			name: "NaN stays", schema: `{"type": "number"}`, value: `"NaN"`, want: `"NaN"`,
			errs: []string{"$: expected type number, got string"},
		},
		{
			name: "Infinity stays", schema: `{"type": "number"}`, value: `"Infinity"`, want: `"Infinity"`,
			errs: []string{"$: expected type number, got string"},
		},
		{
			name: "empty string stays", schema: `{"type": "integer"}`, value: `""`, want: `""`,
			errs: []string{"$: expected type integer, got string"},
		},
		{name: "numeric string in a union without string", schema: `{"type": ["null", "integer"]}`, value: `"3"`, want: `3`},
		{name: "numeric string already valid in a union with string", schema: `{"type": ["string", "integer"]}`, value: `"3"`, want: `"3"`},
		{name: "numeric string already valid without a type", schema: `{}`, value: `"3"`, want: `"3"`},

		{name: "integer to string", schema: `{"type": "string"}`, value: `771`, want: `"771"`},
		{name: "number to string keeps the literal", schema: `{"type": "string"}`, value: `5.0`, want: `"5.0"`},
		{name: "exponent to string keeps the literal", schema: `{"type": "string"}`, value: `-1E+2`, want: `"-1E+2"`},
		{
			name: "converted string still checked", schema: `{"type": "string", "pattern": "^PMT-"}`, value: `771`, want: `"771"`,
			errs: []string{"$: does not match pattern '^PMT-'"},
		},
		{
			name: "number stays when integers are allowed", schema: `{"type": ["integer", "string"]}`, value: `5.5`, want: `5.5`,
			errs: []string{"$: expected type integer|string, got number"},
		},
		{
			name: "boolean never becomes a string", schema: `{"type": "string"}`, value: `true`, want: `true`,
			errs: []string{"$: expected type string, got boolean"},
		},

		{name: "true string to boolean", schema: `{"type": "boolean"}`, value: `"true"`, want: `true`},
		{name: "upper-case TRUE to boolean", schema: `{"type": "boolean"}`, value: `"TRUE"`, want: `true`},
		{name: "mixed-case False to boolean", schema: `{"type": "boolean"}`, value: `"False"`, want: `false`},
		{name: "boolean string in a union with number", schema: `{"type": ["number", "boolean"]}`, value: `"false"`, want: `false`},
		{
			name: "yes is not a boolean", schema: `{"type": "boolean"}`, value: `"yes"`, want: `"yes"`,
			errs: []string{"$: expected type boolean, got string"},
		},
		{
			name: "1 is not a boolean", schema: `{"type": "boolean"}`, value: `"1"`, want: `"1"`,
			errs: []string{"$: expected type boolean, got string"},
		},
		{
			name: "padded true stays", schema: `{"type": "boolean"}`, value: `"true "`, want: `"true "`,
			errs: []string{"$: expected type boolean, got string"},
		},
		{name: "true string already valid with string", schema: `{"type": ["boolean", "string"]}`, value: `"true"`, want: `"true"`},

		{name: "integral fraction to integer", schema: `{"type": "integer"}`, value: `5.0`, want: `5`},
		{name: "integral exponent to integer", schema: `{"type": "integer"}`, value: `1e2`, want: `100`},
		{name: "fraction and exponent to integer", schema: `{"type": "integer"}`, value: `2.50e1`, want: `25`},
		{name: "leading-zero fraction to integer", schema: `{"type": "integer"}`, value: `0.05e2`, want: `5`},
		{name: "negative exponent to integer", schema: `{"type": "integer"}`, value: `-1200e-2`, want: `-12`},
		{name: "negative zero to integer", schema: `{"type": "integer"}`, value: `-0.0`, want: `0`},
		{name: "zero with a huge exponent to integer", schema: `{"type": "integer"}`, value: `0e999999999`, want: `0`},
		{name: "largest exact integer", schema: `{"type": "integer"}`, value: `9007199254740991.0`, want: `9007199254740991`},
		{
			name: "2^53 is beyond exact", schema: `{"type": "integer"}`, value: `9007199254740992.0`, want: `9007199254740992.0`,
			errs: []string{"$: expected type integer, got number"},
		},
		{
			name: "1e16 is beyond exact", schema: `{"type": "integer"}`, value: `1e16`, want: `1e16`,
			errs: []string{"$: expected type integer, got number"},
		},
		{
			name: "huge exponent stays without allocating", schema: `{"type": "integer"}`, value: `1e999999999`, want: `1e999999999`,
			errs: []string{"$: expected type integer, got number"},
		},
		{
			name: "exponent beyond int stays", schema: `{"type": "integer"}`, value: `1e99999999999999999999`, want: `1e99999999999999999999`,
			errs: []string{"$: expected type integer, got number"},
		},
		{
			name: "non-integral stays", schema: `{"type": "integer", "minimum": 1}`, value: `1.5`, want: `1.5`,
			errs: []string{"$: expected type integer, got number"},
		},
		{
			name: "tiny fraction stays", schema: `{"type": "integer"}`, value: `5.0000000000000000001`, want: `5.0000000000000000001`,
			errs: []string{"$: expected type integer, got number"},
		},
		{name: "integral number already valid for number", schema: `{"type": "number"}`, value: `5.0`, want: `5.0`},
		{name: "integral number to integer in a union with string", schema: `{"type": ["integer", "string"]}`, value: `5.0`, want: `5`},
		{
			name: "converted integer still checked", schema: `{"type": "integer", "maximum": 10}`, value: `1.2e1`, want: `12`,
			errs: []string{"$: above maximum 10"},
		},
		{name: "integer string beyond 2^53 kept exact", schema: `{"type": "integer"}`, value: `"9007199254740993"`, want: `9007199254740993`},
		{
			name: "integer string beyond int64 stays", schema: `{"type": "integer"}`, value: `"123456789012345678901234567890"`,
			want: `"123456789012345678901234567890"`, errs: []string{"$: expected type integer, got string"},
		},
		{
			name: "integer string beyond int64 is a number", schema: `{"type": "number"}`, value: `"123456789012345678901234567890"`,
			want: `123456789012345678901234567890`,
		},
	})
}

// TestRepairObjects covers dropping, filling from defaults, and the rules at
// every depth: properties, items and additionalProperties schemas.
func TestRepairObjects(t *testing.T) {
	const legs = `{
		"type": "object",
		"properties": {
			"currency": {"type": "string", "enum": ["AED", "USD"]},
			"amount": {"type": "integer", "minimum": 1},
			"legs": {
				"type": "array",
				"items": {
					"type": "object",
					"properties": {
						"currency": {"type": "string"},
						"amount": {"type": "integer"},
						"final": {"type": "boolean"}
					},
					"required": ["currency", "amount"],
					"additionalProperties": false
				}
			},
			"meta": {"type": "object", "additionalProperties": {"type": "number"}}
		},
		"required": ["currency", "amount"],
		"additionalProperties": false
	}`
	runRepairCases(t, []repairCase{
		{
			name:   "everything at the top",
			schema: legs, value: `{"currency": "AED", "amount": "250000", "urgent": true, "note": "x"}`,
			want: `{"currency": "AED", "amount": 250000}`,
		},
		{
			name:   "everything nested",
			schema: legs,
			value: `{"currency": "USD", "amount": 1, "legs": [
				{"currency": 840, "amount": "5.0", "final": "TRUE", "memo": "drop me"},
				{"currency": "AED", "amount": 2e1}
			], "meta": {"rate": "3.6725", "fee": 0}}`,
			want: `{"currency": "USD", "amount": 1, "legs": [
				{"currency": "840", "amount": 5, "final": true},
				{"currency": "AED", "amount": 20}
			], "meta": {"rate": 3.6725, "fee": 0}}`,
		},
		{
			name:   "missing required filled from defaults by path",
			schema: legs, value: `{"amount": 3, "legs": [{"amount": 1}, {"amount": 2}]}`,
			defaults: `{"$.currency": "AED", "$.legs[1].currency": "USD", "$.legs[0].final": true}`,
			want:     `{"currency": "AED", "amount": 3, "legs": [{"amount": 1}, {"amount": 2, "currency": "USD"}]}`,
			errs:     []string{"$.legs[0].currency: required property is missing"},
		},
		{
			name:   "a filled default is repaired",
			schema: legs, value: `{"currency": "AED"}`,
			defaults: `{"$.amount": "10"}`,
			want:     `{"currency": "AED", "amount": 10}`,
		},
		{
			name:   "a filled default is checked like any value",
			schema: legs, value: `{"amount": 3}`,
			defaults: `{"$.currency": "GBP"}`,
			want:     `{"currency": "GBP", "amount": 3}`,
			errs:     []string{"$.currency: must be one of ['AED', 'USD']"},
		},
		{
			name:   "an object default is filled and repaired inside",
			schema: `{"type": "object", "properties": {"leg": {"type": "object", "properties": {"n": {"type": "integer"}, "c": {"type": "string"}}, "required": ["n", "c"]}}, "required": ["leg"]}`,
			value:  `{}`, defaults: `{"$.leg": {"n": "4"}, "$.leg.c": "AED"}`,
			want: `{"leg": {"n": 4, "c": "AED"}}`,
		},
		{
			name:   "nothing is invented without a default",
			schema: lookupSchema, value: `{"include_legs": "false"}`, defaults: `{"$.include_legs": true, "reference": "PMT-1"}`,
			want: `{"include_legs": false}`,
			errs: []string{"$.reference: required property is missing"},
		},
		{
			name:   "optional properties are not filled",
			schema: legs, value: `{"currency": "AED", "amount": 1}`, defaults: `{"$.legs": [], "$.meta": {}}`,
			want: `{"currency": "AED", "amount": 1}`,
		},
		{
			name:   "open objects keep undeclared properties",
			schema: `{"type": "object", "properties": {"a": {"type": "integer"}}}`, value: `{"a": "1", "b": "2"}`,
			want: `{"a": 1, "b": "2"}`,
		},
		{
			name:   "items repaired, non-repairable items reported",
			schema: `{"type": "array", "items": {"type": "integer"}, "uniqueItems": true}`, value: `["1", 1.0, "x", 2]`,
			want: `[1, 1, "x", 2]`,
			errs: []string{"$: items must be unique", "$[2]: expected type integer, got string"},
		},
		{
			name:   "arrays without an items schema are left alone",
			schema: `{"type": "array"}`, value: `["1", {"a": "2"}]`, want: `["1", {"a": "2"}]`,
		},
		{
			name:   "a container of the wrong type is left alone inside",
			schema: `{"type": "array", "properties": {"a": {"type": "integer"}}, "additionalProperties": false}`,
			value:  `{"a": "1", "b": 2}`, want: `{"a": "1", "b": 2}`,
			errs: []string{"$: expected type array, got object"},
		},
		{
			name:   "properties apply without a type keyword",
			schema: `{"properties": {"a": {"type": "integer"}}, "additionalProperties": false}`,
			value:  `{"a": "1", "b": 2}`, want: `{"a": 1}`,
		},
		{
			name:   "values that already match are never converted",
			schema: `{"type": "object", "properties": {"s": {"type": "string"}, "n": {"type": "number"}, "u": {"type": ["string", "number"]}}}`,
			value:  `{"s": "42", "n": 5.0, "u": "true"}`, want: `{"s": "42", "n": 5.0, "u": "true"}`,
		},
		{
			name:   "enum and const are not guessed",
			schema: `{"type": "object", "properties": {"c": {"enum": ["AED", "USD"]}, "k": {"const": 1}}}`,
			value:  `{"c": "aed", "k": "1"}`, want: `{"c": "aed", "k": "1"}`,
			errs: []string{"$.c: must be one of ['AED', 'USD']", "$.k: must be 1"},
		},
	})
}

// TestRepairEdges covers the nil schema, Go-typed numbers and the aliasing
// promises.
func TestRepairEdges(t *testing.T) {
	in := map[string]any{"a": "1"}
	if out, errs := schema.Repair(in, nil, nil); !reflect.DeepEqual(out, in) || errs != nil {
		t.Errorf("Repair with a nil schema = %v, %v; want the value unchanged and no errors", out, errs)
	}

	goTyped := schema.MustParseJSON(`{"type": "object", "properties": {
		"s": {"type": "string"}, "f": {"type": "string"}, "g": {"type": "string"}, "i": {"type": "integer"}}}`)
	out, errs := schema.Repair(map[string]any{"s": 771.0, "f": float32(0.1), "g": int64(-3), "i": 12.0}, goTyped, nil)
	want := map[string]any{"s": "771", "f": "0.1", "g": "-3", "i": 12.0}
	if !reflect.DeepEqual(out, want) || errs != nil {
		t.Errorf("Go-typed numbers: got %#v, %v; want %#v", out, errs, want)
	}

	// A result shares what needed no repair, but a filled default is a copy:
	// changing the result must never change the caller's defaults.
	s := schema.MustParseJSON(`{"type": "object", "properties": {"leg": {"type": "object"}, "x": {"type": "object"}}, "required": ["leg"]}`)
	defaults := map[string]any{"$.leg": map[string]any{"c": "AED"}}
	untouched := map[string]any{"k": "v"}
	out, _ = schema.Repair(map[string]any{"x": untouched}, s, defaults)
	out.(map[string]any)["leg"].(map[string]any)["c"] = "changed"
	if got := defaults["$.leg"].(map[string]any)["c"]; got != "AED" {
		t.Errorf("changing the result changed the defaults to %v", got)
	}
	if reflect.ValueOf(out.(map[string]any)["x"]).UnsafePointer() != reflect.ValueOf(untouched).UnsafePointer() {
		t.Error("a part that needed no repair was copied")
	}
	valid := map[string]any{"x": untouched, "leg": map[string]any{}}
	if out, _ := schema.Repair(valid, s, defaults); reflect.ValueOf(out).UnsafePointer() != reflect.ValueOf(valid).UnsafePointer() {
		t.Error("a valid value was copied")
	}

	// A nil object is an empty one: filling it must not panic.
	var nilObject map[string]any
	out, errs = schema.Repair(nilObject, s, map[string]any{"$.leg": map[string]any{}})
	if !reflect.DeepEqual(out, map[string]any{"leg": map[string]any{}}) || errs != nil {
		t.Errorf("filling a nil object: %#v, %v", out, errs)
	}
}

// TestIntegerLiteral pins the digit arithmetic of the integral conversion.
func TestIntegerLiteral(t *testing.T) {
	for lit, want := range map[string]string{
		"0": "0", "-0": "-0", "12": "12", "5.0": "5", "5.00e0": "5", "1e2": "100", "1E+2": "100",
		"120e-1": "12", "-1.5e1": "-15", "0.0": "0", "-0e5": "0", "0.000e-999999999999": "0",
		"9007199254740991e0": "9007199254740991", "90071992547409910e-1": "9007199254740991",
		"5.5": "", "1e-1": "", "9007199254740992e0": "", "1e16": "", "1e999999999": "",
		"1e-999999999": "", "1e9223372036854775807": "", "1.5e-9223372036854775808": "",
		"10000000000000000000000000000000000000000e-40": "1",
	} {
		got, ok := schema.IntegerLiteral(lit)
		if want == "" && ok {
			t.Errorf("integerLiteral(%s) = %s, want no conversion", lit, got)
		}
		if want != "" && (!ok || got != want) {
			t.Errorf("integerLiteral(%s) = %q, %v; want %s", lit, got, ok, want)
		}
	}
}

// TestRepairProperties checks Repair on thousands of generated schema/value
// pairs: it is idempotent, it leaves valid values alone, it never modifies
// its input, and everything in its output came from the input or the
// defaults, by removal or conversion only.
func TestRepairProperties(t *testing.T) {
	schemas, perSchema := 1000, 4
	if testing.Short() {
		schemas = 150
	}
	var pairs, valid, repaired, fixed int
	corpus.Pairs(1000, schemas, perSchema, func(p corpus.Pair) {
		pairs++
		where := fmt.Sprintf("seed %d, schema %s, value %s, defaults %s", p.Seed, corpus.JSON(p.Doc), corpus.JSON(p.Value), corpus.JSON(p.Defaults))
		before := p.Schema.Validate(p.Value)
		out, n := checkRepair(t, p.Schema, p.Value, p.Defaults, where)
		if before == nil {
			valid++
			return
		}
		if !reflect.DeepEqual(out, p.Value) {
			repaired++
			if n == 0 {
				fixed++
			}
		}
	})
	// Sanity of the corpus, not of Repair: the generator must exercise it.
	if repaired == 0 || fixed == 0 {
		t.Errorf("the corpus exercised no repair (%d repaired, %d fixed)", repaired, fixed)
	}
	t.Logf("%d schema/value pairs checked: %d valid, %d changed by repair, %d of them made valid", pairs, valid, repaired, fixed)
}

// checkRepair asserts the repair properties for one value and returns the
// repaired value and the number of remaining errors.
func checkRepair(t testing.TB, s *schema.Schema, v any, defaults map[string]any, where string) (any, int) {
	t.Helper()
	inCopy, defaultsCopy := corpus.Clone(v), corpus.Clone(defaults)
	out, errs := schema.Repair(v, s, defaults)
	if !reflect.DeepEqual(v, inCopy) || !reflect.DeepEqual(any(defaults), defaultsCopy) {
		t.Fatalf("%s: Repair modified its input or defaults", where)
	}
	if want := s.Validate(out); !slices.Equal(errs, want) {
		t.Fatalf("%s: Repair returned errors %v, but its result has %v", where, errs, want)
	}
	if !slices.IsSortedFunc(errs, compareErrors) {
		t.Fatalf("%s: errors not sorted: %v", where, errs)
	}
	again, againErrs := schema.Repair(out, s, defaults)
	if !schema.Equal(again, out) || !reflect.DeepEqual(again, out) || !slices.Equal(againErrs, errs) {
		t.Fatalf("%s: not idempotent:\nonce  %s %v\ntwice %s %v", where, corpus.JSON(out), errs, corpus.JSON(again), againErrs)
	}
	if s.Validate(v) == nil && (!reflect.DeepEqual(out, v) || errs != nil) {
		t.Fatalf("%s: a valid value was changed to %s (%v)", where, corpus.JSON(out), errs)
	}
	if err := provenance(v, out, s, defaults, "$"); err != nil {
		t.Fatalf("%s: repaired %s: %v", where, corpus.JSON(out), err)
	}
	for _, e := range errs {
		if e.Message == schema.MsgAdditional {
			t.Fatalf("%s: a forbidden property survived repair: %v", where, e)
		}
		if _, ok := defaults[e.Path]; ok && e.Message == schema.MsgRequired {
			t.Fatalf("%s: a required property with a default is still missing: %v", where, e)
		}
	}
	return out, len(errs)
}

func compareErrors(a, b schema.ValidationError) int {
	if c := strings.Compare(a.Path, b.Path); c != 0 {
		return c
	}
	return strings.Compare(a.Message, b.Message)
}

// provenance returns an error when out holds something that is not in in at
// the same path, a syntax conversion of it, or a default for a missing
// required property; and when something is missing from out that
// additionalProperties: false did not forbid. It reads the rules from the
// schema independently of how Repair is written.
func provenance(in, out any, s *schema.Schema, defaults map[string]any, path string) error {
	if s == nil {
		if !reflect.DeepEqual(in, out) {
			return fmt.Errorf("%s: a value no schema governs changed from %s to %s", path, corpus.JSON(in), corpus.JSON(out))
		}
		return nil
	}
	if !s.Allows(schema.KindOf(in)) {
		if reflect.DeepEqual(in, out) {
			return nil
		}
		if !s.Allows(schema.KindOf(out)) {
			return fmt.Errorf("%s: converted %s to %s, which the schema does not allow either", path, corpus.JSON(in), corpus.JSON(out))
		}
		return isConversion(in, out, path)
	}
	switch x := in.(type) {
	case map[string]any:
		y, ok := out.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: an object became %s", path, corpus.JSON(out))
		}
		for name, xv := range x {
			child := schema.PropertyPath(path, name)
			ps := s.Property(name)
			declared := ps != nil
			if !declared {
				ps = s.AdditionalProperties()
			}
			yv, kept := y[name]
			if !kept {
				if declared || !s.Closed() {
					return fmt.Errorf("%s: removed although the schema allows it", child)
				}
				continue
			}
			if !declared && s.Closed() {
				return fmt.Errorf("%s: kept although additionalProperties is false", child)
			}
			if err := provenance(xv, yv, ps, defaults, child); err != nil {
				return err
			}
		}
		for name, yv := range y {
			if _, ok := x[name]; ok {
				continue
			}
			child := schema.PropertyPath(path, name)
			d, hasDefault := defaults[child]
			if !s.IsRequired(name) || !hasDefault {
				return fmt.Errorf("%s: added without being a required property with a default", child)
			}
			if err := provenance(d, yv, s.Property(name), defaults, child); err != nil {
				return fmt.Errorf("from the default: %w", err)
			}
		}
		return nil
	case []any:
		y, ok := out.([]any)
		if !ok || len(y) != len(x) {
			return fmt.Errorf("%s: an array of %d became %s", path, len(x), corpus.JSON(out))
		}
		for i := range x {
			if err := provenance(x[i], y[i], s.Items(), defaults, schema.IndexPath(path, i)); err != nil {
				return err
			}
		}
		return nil
	}
	if !reflect.DeepEqual(in, out) {
		return fmt.Errorf("%s: a valid %s changed to %s", path, corpus.JSON(in), corpus.JSON(out))
	}
	return nil
}

// isConversion accepts exactly the four syntax conversions: the same number
// without quotes, the same number with quotes, the same boolean without
// quotes, the same integer without a fraction or exponent.
func isConversion(in, out any, path string) error {
	ok := false
	switch x := in.(type) {
	case string:
		switch y := out.(type) {
		case json.Number:
			ok = schema.IsNumberLiteral(x) && schema.Equal(json.Number(x), y)
		case bool:
			ok = strings.EqualFold(x, fmt.Sprint(y))
		}
	case json.Number:
		switch y := out.(type) {
		case string:
			ok = y == string(x)
		case json.Number:
			ok = schema.KindOf(x) == schema.KindNumber && schema.KindOf(y) == schema.KindInteger && schema.Equal(x, y)
		}
	}
	if !ok {
		return fmt.Errorf("%s: %s to %s is not a syntax conversion", path, corpus.JSON(in), corpus.JSON(out))
	}
	return nil
}
