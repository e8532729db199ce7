package schema_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	corpus "github.com/mcpgen/mcpgen/internal/schemacorpus"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// The validator is judged against an implementation nobody here wrote:
// santhosh-tekuri/jsonschema, draft 2020-12. On the supported subset both
// must reach the same verdict (valid or invalid), except where this project
// deliberately differs from JSON Schema or where the two represent numbers
// differently. Those differences, and only those, are skipped:
//
//   - integralNumber: JSON Schema counts 5.0 and 1e2 as integers ("a number
//     with a zero fractional part"); this project does not, because the
//     contracts distinguish the literal an integer field receives
//     (docs/decisions.md: integer means an integer literal, so 5.0 is
//     refused). A pair is skipped when the value holds
//     such a number where the schema allows integer but not number.
//   - numberRange: a typed schema promises the Go type its values decode to
//     (int64 for an integer-only schema, float64 for a number), so a literal
//     that type cannot hold, 2^70 for an integer, is refused here; JSON
//     Schema's numbers are unbounded. A pair is skipped when the value holds
//     such a number where the validator checks it.
//   - numberPrecision: this project compares numbers as IEEE-754 doubles
//     (exactly only for integers that fit 64 bits), the precision of the
//     canonical form; the reference compares exact rationals. They can only
//     disagree when two different decimals in play round to the same double
//     (0.30000000000000001 against a maximum of 0.3), or when a literal is
//     beyond the double range: too large (1e400) or a non-zero number too
//     small to be anything but 0 (1e-400). A pair is skipped when its schema
//     and value hold such numbers. (Skipping tiny literals also spares the
//     reference's exact arithmetic, which takes seconds over a few numbers
//     like 1e-999999 and refuses exponents past 10^6.)
//
// Not differences, checked rather than skipped: pattern (the reference uses
// Go's regexp by default, unanchored, as this package does), string lengths
// (both count code points), uniqueItems, enum and const (both compare
// numbers by value, 1 equals 1.0, and objects without regard to key order),
// and the type check of a union.
const (
	diffIntegralNumber  = "integralNumber"
	diffNumberRange     = "numberRange"
	diffNumberPrecision = "numberPrecision"
)

// documentedDifference names the documented difference that applies to
// validating v against s, or returns "" when the verdicts must agree.
func documentedDifference(s *schema.Schema, v any) string {
	switch {
	case !numbersFaithful(s, v):
		return diffNumberPrecision
	case anyChecked(s, v, beyondGoType):
		return diffNumberRange
	case anyChecked(s, v, integralWhereIntegerOnly):
		return diffIntegralNumber
	}
	return ""
}

// anyChecked reports whether fn holds for some value the validator checks
// in v against s, with the schema it is checked against. It descends into
// every schema that can apply to a part of v (through $ref and the
// combinators too), and not past a type error.
func anyChecked(s *schema.Schema, v any, fn func(*schema.Schema, any) bool) bool {
	for _, x := range applying(s, nil) {
		if fn(x, v) {
			return true
		}
	}
	for _, x := range applying(s, nil) {
		if !x.Allows(schema.KindOf(v)) {
			continue
		}
		switch val := v.(type) {
		case map[string]any:
			for name, e := range val {
				subs := []*schema.Schema{x.Property(name), x.AdditionalProperties(), x.UnevaluatedProperties()}
				for _, p := range x.PatternProperties() {
					subs = append(subs, p.Schema)
				}
				for _, sub := range subs {
					if sub != nil && anyChecked(sub, e, fn) {
						return true
					}
				}
			}
		case []any:
			for i, e := range val {
				subs := []*schema.Schema{x.Items(), x.Contains(), x.UnevaluatedItems()}
				if p := x.PrefixItems(); i < len(p) {
					subs = append(subs, p[i])
				}
				for _, sub := range subs {
					if sub != nil && anyChecked(sub, e, fn) {
						return true
					}
				}
			}
		}
	}
	return false
}

// applying is s and every schema reached from it through the keywords that
// apply to the same value.
func applying(s *schema.Schema, set []*schema.Schema) []*schema.Schema {
	if s == nil || slices.Contains(set, s) {
		return set
	}
	set = append(set, s)
	ref, _ := s.Ref()
	next := append([]*schema.Schema{ref, s.Not(), s.If(), s.Then(), s.Else()}, s.AllOf()...)
	next = append(append(next, s.AnyOf()...), s.OneOf()...)
	for _, d := range s.DependentSchemas() {
		next = append(next, d)
	}
	for _, n := range next {
		set = applying(n, set)
	}
	return set
}

// integralWhereIntegerOnly reports whether v is an integral number with a
// fraction or exponent (5.0, 1e2) and s allows integer but not number.
func integralWhereIntegerOnly(s *schema.Schema, v any) bool {
	n, ok := v.(json.Number)
	if !ok || schema.KindOf(n) != schema.KindNumber || s.Allows(schema.KindNumber) || !s.Allows(schema.KindInteger) {
		return false
	}
	d, ok := schema.ParseDecimal(string(n))
	return ok && (d.Digits == "" || d.Exp >= 0)
}

// beyondGoType reports whether v is a number of an allowed type that the Go
// type s promises cannot hold.
func beyondGoType(s *schema.Schema, v any) bool {
	k := schema.KindOf(v)
	return s.Allows(k) && s.RangeError(v) != ""
}

// numbersFaithful reports whether every number the two validators compare
// (the bounds, enum and const values of s, and every number in v) is within
// the double range (neither overflowing nor a non-zero value rounding to 0)
// and no two different decimals among them round to the same double. Then
// comparing doubles gives the same answers as comparing rationals, since
// rounding to the nearest double is monotonic.
func numbersFaithful(s *schema.Schema, v any) bool {
	seen := map[float64]schema.Decimal{}
	ok := true
	add := func(n json.Number) {
		// The reference's exact arithmetic refuses (and a zero hides)
		// exponents beyond a million: 0e10000000000000000000 is zero to
		// this package and an error to the reference.
		if _, exp, found := strings.Cut(strings.ToLower(string(n)), "e"); found {
			if e, err := strconv.Atoi(exp); err != nil || e > 1_000_000 || e < -1_000_000 {
				ok = false
				return
			}
		}
		f, err := strconv.ParseFloat(string(n), 64)
		d, exact := schema.ParseDecimal(string(n))
		if err != nil || !exact || (f == 0 && d.Digits != "") {
			ok = false
			return
		}
		if prev, dup := seen[f]; dup && prev != d {
			ok = false
		}
		seen[f] = d
	}
	// Every number of the document: bounds, enum and const values, at any
	// depth (annotations too, which only makes the check stricter).
	eachNumber(s.Document(), add)
	eachNumber(v, add)
	return ok
}

// eachNumber calls fn for every number literal in v.
func eachNumber(v any, fn func(json.Number)) {
	switch x := v.(type) {
	case json.Number:
		fn(x)
	case []any:
		for _, e := range x {
			eachNumber(e, fn)
		}
	case map[string]any:
		for _, e := range x {
			eachNumber(e, fn)
		}
	}
}

// compileReference compiles a schema document with the reference validator,
// as draft 2020-12, from its JSON text.
func compileReference(doc any) (*jsonschema.Schema, error) {
	text, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	parsed, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("schema.json", parsed); err != nil {
		return nil, err
	}
	return c.Compile("schema.json")
}

// TestAgreesWithReferenceValidator compares verdicts on thousands of
// generated schema/value pairs, valid and mutated.
func TestAgreesWithReferenceValidator(t *testing.T) {
	schemas, perSchema := 800, 4
	if testing.Short() {
		schemas = 120
	}
	var (
		ref          *jsonschema.Schema
		refSeed      uint64
		agreed       int
		validAgreed  int
		skipped      = map[string]int{}
		disagreement int
	)
	corpus.Pairs(50_000, schemas, perSchema, func(p corpus.Pair) {
		if ref == nil || refSeed != p.Seed {
			var err error
			if ref, err = compileReference(p.Doc); err != nil {
				t.Fatalf("seed %d: the reference validator refuses %s: %v", p.Seed, corpus.JSON(p.Doc), err)
			}
			refSeed = p.Seed
		}
		if reason := documentedDifference(p.Schema, p.Value); reason != "" {
			skipped[reason]++
			return
		}
		errs := p.Schema.Validate(p.Value)
		refErr := ref.Validate(p.Value)
		if (errs == nil) != (refErr == nil) {
			disagreement++
			if disagreement <= 5 {
				t.Errorf("seed %d: schema %s, value %s:\nthis package: %v\nreference: %s",
					p.Seed, corpus.JSON(p.Doc), corpus.JSON(p.Value), errs, referenceVerdict(refErr))
			}
			return
		}
		agreed++
		if errs == nil {
			validAgreed++
		}
	})
	if disagreement > 5 {
		t.Errorf("... %d disagreements in all", disagreement)
	}
	t.Logf("%d pairs agreed (%d valid, %d invalid); skipped as documented differences: %v",
		agreed, validAgreed, agreed-validAgreed, skipped)
}

// TestDocumentedDifferences shows each documented difference is real: the
// two validators disagree on these values, and documentedDifference names
// the reason. If one of them stops disagreeing, the list above is stale.
func TestDocumentedDifferences(t *testing.T) {
	for _, tc := range []struct {
		schema, value, reason string
	}{
		{`{"type": "integer"}`, `5.0`, diffIntegralNumber},
		{`{"type": "object", "properties": {"n": {"type": "integer"}}}`, `{"n": 1e2}`, diffIntegralNumber},
		{`{"type": "array", "items": {"type": "integer", "minimum": 0}}`, `[1, -0.0e3]`, diffIntegralNumber},
		{`{"type": "integer"}`, `12345678901234567890`, diffNumberRange},
		{`{"type": "object", "additionalProperties": {"type": "integer"}}`, `{"n": -9223372036854775809}`, diffNumberRange},
		{`{"type": "number", "maximum": 0.3}`, `0.30000000000000001`, diffNumberPrecision},
		{`{"const": 9007199254740993}`, `9007199254740992.0`, diffNumberPrecision},
		{`{"type": "number"}`, `1e400`, diffNumberPrecision},
		{`{"type": "number", "exclusiveMinimum": 0}`, `1e-400`, diffNumberPrecision},
	} {
		t.Run(tc.schema+" "+tc.value, func(t *testing.T) {
			s := schema.MustParseJSON(tc.schema)
			v := decodeTestJSON(t, tc.value)
			if got := documentedDifference(s, v); got != tc.reason {
				t.Errorf("documentedDifference = %q, want %q", got, tc.reason)
			}
			ref, err := compileReference(s.Document())
			if err != nil {
				t.Fatal(err)
			}
			ours, theirs := s.Validate(v) == nil, ref.Validate(v) == nil
			if ours == theirs {
				t.Errorf("both validators say valid=%v: no longer a difference", ours)
			}
		})
	}

	// And values close to those differences that are not skipped.
	for _, tc := range []struct{ schema, value string }{
		{`{"type": "integer"}`, `5`},
		{`{"type": "number"}`, `5.0`},
		{`{"type": ["integer", "number"]}`, `1e2`},
		{`{"type": "integer"}`, `5.5`},
		{`{"type": "number", "maximum": 0.3}`, `0.3`},
		{`{"type": "number", "maximum": 0.3}`, `0.31`},
		{`{"type": "string"}`, `1e2`},
		{`{"type": "integer"}`, `9223372036854775807`},
		{`{"minimum": 0}`, `12345678901234567890`},
		{`{"type": "number"}`, `12345678901234567890`},
	} {
		s := schema.MustParseJSON(tc.schema)
		v := decodeTestJSON(t, tc.value)
		if got := documentedDifference(s, v); got != "" {
			t.Errorf("%s against %s: skipped as %q, but the validators must agree", tc.value, tc.schema, got)
		}
		ref, err := compileReference(s.Document())
		if err != nil {
			t.Fatal(err)
		}
		if ours, theirs := s.Validate(v) == nil, ref.Validate(v) == nil; ours != theirs {
			t.Errorf("%s against %s: valid=%v here, %v in the reference", tc.value, tc.schema, ours, theirs)
		}
	}
}

// referenceVerdict is a readable form of the reference's answer for failure
// messages.
func referenceVerdict(err error) string {
	if err == nil {
		return "valid"
	}
	return fmt.Sprintf("invalid: %v", err)
}
