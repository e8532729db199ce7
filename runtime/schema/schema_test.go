package schema_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// parseErrors parses doc, which must be refused, and returns each problem as
// "pointer: message".
func parseErrors(t *testing.T, doc string) []string {
	t.Helper()
	s, err := schema.ParseJSON([]byte(doc))
	if err == nil {
		t.Fatalf("ParseJSON(%s) accepted it: %+v", doc, s)
	}
	if s != nil {
		t.Errorf("ParseJSON returned a schema with an error")
	}
	var errs schema.SchemaErrors
	if !errors.As(err, &errs) {
		t.Fatalf("ParseJSON(%s): %v is not SchemaErrors", doc, err)
	}
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.Path.String() + ": " + e.Message
	}
	return out
}

func unsupportedMessage(keyword string) string {
	return fmt.Sprintf("unsupported keyword %q (supported: %s)", keyword, strings.Join(schema.SupportedKeywords, ", "))
}

func TestParseRefusesUnsupportedKeywords(t *testing.T) {
	keywords := []string{
		"$ref", "$defs", "$id", "$anchor", "definitions", "oneOf", "anyOf", "allOf", "not",
		"if", "then", "else", "format", "patternProperties", "propertyNames",
		"dependentRequired", "dependentSchemas", "dependencies", "contains", "minContains",
		"prefixItems", "additionalItems", "unevaluatedProperties", "multipleOf",
		"minProperties", "maxProperties", "contentEncoding", "nullable", "x-other", "Type",
	}
	// Each keyword at several depths, with the pointer the refusal must carry.
	positions := []struct {
		wrap    func(kw string) string
		pointer string
	}{
		{func(kw string) string { return fmt.Sprintf(`{%q: {}}`, kw) }, ""},
		{func(kw string) string { return fmt.Sprintf(`{"properties": {"a": {%q: {}}}}`, kw) }, "/properties/a"},
		{func(kw string) string { return fmt.Sprintf(`{"items": {%q: {}}}`, kw) }, "/items"},
		{func(kw string) string { return fmt.Sprintf(`{"additionalProperties": {%q: {}}}`, kw) }, "/additionalProperties"},
		{func(kw string) string {
			return fmt.Sprintf(`{"type": "object", "properties": {"legs": {"type": "array", "items": {"properties": {"iban": {"type": "string", %q: {}}}}}}}`, kw)
		}, "/properties/legs/items/properties/iban"},
	}
	for _, kw := range keywords {
		for _, pos := range positions {
			doc := pos.wrap(kw)
			want := []string{pos.pointer + "/" + kw + ": " + unsupportedMessage(kw)}
			if got := parseErrors(t, doc); !slices.Equal(got, want) {
				t.Errorf("ParseJSON(%s)\n got %q\nwant %q", doc, got, want)
			}
		}
	}
}

func TestSupportedKeywordsAreAccepted(t *testing.T) {
	// A valid value for every supported keyword. A keyword added to the
	// subset without a sample here fails the test, so the list stays honest.
	samples := map[string]string{
		"$comment":             `"c"`,
		"$schema":              `"https://json-schema.org/draft/2020-12/schema"`,
		"additionalProperties": `{"type": "string"}`,
		"const":                `{"a": [1]}`,
		"default":              `null`,
		"description":          `"d"`,
		"enum":                 `[1, "a", null]`,
		"examples":             `[{"a": 1}]`,
		"exclusiveMaximum":     `10.5`,
		"exclusiveMinimum":     `-1`,
		"items":                `{"type": "integer"}`,
		"maxItems":             `3`,
		"maxLength":            `3`,
		"maximum":              `1e3`,
		"minItems":             `0`,
		"minLength":            `1`,
		"minimum":              `0`,
		"pattern":              `"^a+$"`,
		"properties":           `{"a": {}}`,
		"required":             `["a"]`,
		"title":                `"t"`,
		"type":                 `["object", "null"]`,
		"uniqueItems":          `true`,
		"x-secret":             `true`,
	}
	if !slices.IsSorted(schema.SupportedKeywords) {
		t.Errorf("SupportedKeywords is not sorted: %q", schema.SupportedKeywords)
	}
	for _, kw := range schema.SupportedKeywords {
		sample, ok := samples[kw]
		if !ok {
			t.Errorf("no sample value for supported keyword %q", kw)
			continue
		}
		doc := fmt.Sprintf(`{%q: %s}`, kw, sample)
		if kw == "required" {
			doc = `{"required": ["a"], "properties": {"a": {}}}`
		}
		if _, err := schema.ParseJSON([]byte(doc)); err != nil {
			t.Errorf("ParseJSON(%s): %v", doc, err)
		}
	}
	for kw := range samples {
		if !slices.Contains(schema.SupportedKeywords, kw) {
			t.Errorf("%q has a sample but is not in SupportedKeywords", kw)
		}
	}
}

func TestParseRefusesPatternsRE2CannotCompile(t *testing.T) {
	tests := []struct{ doc, pointer, pattern string }{
		{`{"pattern": "(?=x)"}`, "/pattern", "(?=x)"},
		{`{"pattern": "(?!x)y"}`, "/pattern", "(?!x)y"},
		{`{"pattern": "(?<=a)b"}`, "/pattern", "(?<=a)b"},
		{`{"pattern": "(a)\\1"}`, "/pattern", `(a)\1`},
		{`{"pattern": "a++"}`, "/pattern", "a++"},
		{`{"pattern": "[a-"}`, "/pattern", "[a-"},
		{`{"properties": {"iban": {"type": "string", "pattern": "^(?=[A-Z]{2})"}}}`, "/properties/iban/pattern", "^(?=[A-Z]{2})"},
		{`{"items": {"pattern": "(x)\\1"}}`, "/items/pattern", `(x)\1`},
	}
	for _, tt := range tests {
		got := parseErrors(t, tt.doc)
		prefix := tt.pointer + ": " + fmt.Sprintf("pattern %q does not compile with Go's regexp (RE2): ", tt.pattern)
		if len(got) != 1 || !strings.HasPrefix(got[0], prefix) || len(got[0]) == len(prefix) {
			t.Errorf("ParseJSON(%s)\n got %q\nwant one error starting %q and giving the reason", tt.doc, got, prefix)
		}
	}
}

func TestParseRefusesMalformedKeywords(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		{"schema is a number", `5`, []string{`/: a schema must be an object, not integer`}},
		{"schema is a boolean", `true`, []string{`/: a schema must be an object, not boolean`}},
		{"schema is an array", `[]`, []string{`/: a schema must be an object, not array`}},
		{"schema is null", `null`, []string{`/: a schema must be an object, not null`}},
		{"property schema is a boolean", `{"properties": {"a": true}}`, []string{`/properties/a: a schema must be an object, not boolean`}},
		{"property schema is a string", `{"properties": {"a": "string"}}`, []string{`/properties/a: a schema must be an object, not string`}},

		{"type is a number", `{"type": 5}`, []string{`/type: type must be a string or an array of strings`}},
		{"type is an empty array", `{"type": []}`, []string{`/type: type must not be an empty array`}},
		{"type array holds a number", `{"type": ["string", 1]}`, []string{`/type: type must be a string or an array of strings`}},
		{"unknown type name", `{"type": "float"}`, []string{`/type: unknown type "float"`}},
		{"unknown type name in a union", `{"type": ["string", "int"]}`, []string{`/type: unknown type "int"`}},
		{"type names are case-sensitive", `{"type": "String"}`, []string{`/type: unknown type "String"`}},
		{"type listed twice", `{"type": ["string", "null", "string"]}`, []string{`/type: type "string" is listed twice`}},
		{"unknown nested type", `{"properties": {"a": {"items": {"type": "any"}}}}`, []string{`/properties/a/items/type: unknown type "any"`}},

		{"enum is a string", `{"enum": "AED"}`, []string{`/enum: enum must be a non-empty array`}},
		{"enum is empty", `{"enum": []}`, []string{`/enum: enum must be a non-empty array`}},
		{"required is a string", `{"required": "a", "properties": {"a": {}}}`, []string{`/required: must be an array of strings`}},
		{"required holds a number", `{"required": ["a", 1], "properties": {"a": {}}}`, []string{`/required: must be an array of strings`}},
		{"properties is an array", `{"properties": []}`, []string{`/properties: properties must be an object`}},
		{"additionalProperties is a string", `{"additionalProperties": "no"}`, []string{`/additionalProperties: additionalProperties must be a boolean or a schema`}},
		{"additionalProperties is null", `{"additionalProperties": null}`, []string{`/additionalProperties: additionalProperties must be a boolean or a schema`}},
		{"items in tuple form", `{"items": [{"type": "string"}, {"type": "integer"}]}`, []string{`/items: items must be a schema (the array form is not supported)`}},
		{"items is a boolean", `{"items": true}`, []string{`/items: items must be a schema (the array form is not supported)`}},

		{"minimum is a string", `{"minimum": "1"}`, []string{`/minimum: minimum must be a number`}},
		{"maximum is a boolean", `{"maximum": true}`, []string{`/maximum: maximum must be a number`}},
		{"exclusiveMinimum is null", `{"exclusiveMinimum": null}`, []string{`/exclusiveMinimum: exclusiveMinimum must be a number`}},
		{"exclusiveMaximum is a boolean (draft-04 form)", `{"maximum": 5, "exclusiveMaximum": true}`, []string{`/exclusiveMaximum: exclusiveMaximum must be a number`}},
		{"minLength is negative", `{"minLength": -1}`, []string{`/minLength: minLength must be a non-negative integer`}},
		{"maxLength is a fraction", `{"maxLength": 1.5}`, []string{`/maxLength: maxLength must be a non-negative integer`}},
		{"maxLength is written as 1.0", `{"maxLength": 1.0}`, []string{`/maxLength: maxLength must be a non-negative integer`}},
		{"minItems is a string", `{"minItems": "2"}`, []string{`/minItems: minItems must be a non-negative integer`}},
		{"maxItems is beyond any array", `{"maxItems": 123456789012345678901234567890}`, []string{`/maxItems: maxItems must be a non-negative integer`}},
		{"pattern is a number", `{"pattern": 5}`, []string{`/pattern: pattern must be a string`}},
		{"uniqueItems is a string", `{"uniqueItems": "yes"}`, []string{`/uniqueItems: uniqueItems must be a boolean`}},
		{"x-secret is a number", `{"x-secret": 1}`, []string{`/x-secret: x-secret must be a boolean`}},
		{"title is a number", `{"title": 5}`, []string{`/title: title must be a string`}},
		{"description is a boolean", `{"description": false}`, []string{`/description: description must be a string`}},
		{"$comment is an object", `{"$comment": {}}`, []string{`/$comment: $comment must be a string`}},
		{"$schema is a number", `{"$schema": 7}`, []string{`/$schema: $schema must be a string`}},
		{"examples is an object", `{"examples": {}}`, []string{`/examples: examples must be an array`}},

		{"required name not declared", `{"properties": {"a": {}}, "required": ["a", "b"]}`,
			[]string{`/required: required property "b" is not declared in properties`}},
		{"required without properties", `{"type": "object", "required": ["a"]}`,
			[]string{`/required: required property "a" is not declared in properties`}},
		{"nested required name not declared", `{"properties": {"o": {"type": "object", "required": ["x"]}}}`,
			[]string{`/properties/o/required: required property "x" is not declared in properties`}},

		{"pointer escapes / and ~ in property names", `{"properties": {"a/b~c": {"format": "date"}}}`,
			[]string{`/properties/a~1b~0c/format: ` + unsupportedMessage("format")}},
		{"every problem is reported, in key order", `{"type": "float", "minLength": -1, "properties": {"b": {"$ref": "#"}, "a": {"type": 1}}}`,
			[]string{
				`/minLength: minLength must be a non-negative integer`,
				`/properties/a/type: type must be a string or an array of strings`,
				`/properties/b/$ref: ` + unsupportedMessage("$ref"),
				`/type: unknown type "float"`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseErrors(t, tt.doc); !slices.Equal(got, tt.want) {
				t.Errorf("ParseJSON(%s)\n got %q\nwant %q", tt.doc, got, tt.want)
			}
		})
	}
}

func TestParseErrorsAreDeterministic(t *testing.T) {
	// Go randomises map iteration; errors must come out the same every time.
	const doc = `{
		"type": ["string", "bogus", "string"],
		"required": ["z", "y", "a"],
		"properties": {
			"e": {"oneOf": []}, "d": {"format": "x"}, "c": {"minItems": -1},
			"b": {"pattern": "(?=x)"}, "a": {"items": [{}]}
		},
		"anyOf": [], "allOf": [], "not": {},
		"enum": []
	}`
	first := parseErrors(t, doc)
	if len(first) != 13 {
		t.Fatalf("want 13 errors, got %d: %q", len(first), first)
	}
	for i := 0; i < 50; i++ {
		if got := parseErrors(t, doc); !slices.Equal(got, first) {
			t.Fatalf("run %d:\n%q\nfirst run:\n%q", i, got, first)
		}
	}
}

func TestParseJSONRefusesInvalidJSON(t *testing.T) {
	for _, in := range []string{``, `{`, `{"type": "string"} {}`, `{'type': 'string'}`} {
		_, err := schema.ParseJSON([]byte(in))
		if err == nil {
			t.Errorf("ParseJSON(%q) accepted it", in)
			continue
		}
		var errs schema.SchemaErrors
		if errors.As(err, &errs) {
			t.Errorf("ParseJSON(%q): a JSON syntax error reported as schema errors: %v", in, err)
		}
	}
}

func TestMustParseJSONPanics(t *testing.T) {
	defer func() {
		r := recover()
		if r == nil {
			t.Fatal("MustParseJSON did not panic on an unsupported keyword")
		}
		if msg := fmt.Sprint(r); !strings.Contains(msg, `/$ref: unsupported keyword "$ref"`) {
			t.Errorf("panic message %q does not locate the problem", msg)
		}
	}()
	schema.MustParseJSON(`{"$ref": "#/definitions/x"}`)
}

func TestSchemaErrorRendering(t *testing.T) {
	_, err := schema.ParseJSON([]byte(`{"minItems": -1, "type": "float"}`))
	want := `/minItems: minItems must be a non-negative integer; /type: unknown type "float"`
	if err == nil || err.Error() != want {
		t.Errorf("Error() = %v, want %q", err, want)
	}
	if got := (schema.Path{}).String(); got != "/" {
		t.Errorf("empty Path renders as %q, want /", got)
	}
	if got := (schema.Path{"properties", "a/b", "~x"}).String(); got != "/properties/a~1b/~0x" {
		t.Errorf("Path renders as %q", got)
	}
}

func TestParseModel(t *testing.T) {
	s, err := schema.ParseJSON([]byte(`{
		"type": "object",
		"title": "Release",
		"description": "Release a held payment.",
		"properties": {
			"reference": {"type": "string", "pattern": "^PMT-\\d{3,}$", "minLength": 7, "maxLength": 32},
			"amount_minor": {"type": "integer", "minimum": 1.0, "exclusiveMaximum": 1e12},
			"currency": {"type": "string", "enum": ["AED", "USD", "EUR"], "default": "AED"},
			"token": {"type": "string", "x-secret": true},
			"legs": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 4, "uniqueItems": true},
			"kind": {"const": null, "examples": [null]}
		},
		"required": ["reference", "currency", "amount_minor", "reference"],
		"additionalProperties": false
	}`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Types, []schema.Kind{schema.KindObject}) {
		t.Errorf("Types = %v", s.Types)
	}
	if s.Title != "Release" || s.Description != "Release a held payment." {
		t.Errorf("Title, Description = %q, %q", s.Title, s.Description)
	}
	if want := []string{"amount_minor", "currency", "kind", "legs", "reference", "token"}; !slices.Equal(s.PropertyNames, want) {
		t.Errorf("PropertyNames = %q, want %q", s.PropertyNames, want)
	}
	if want := []string{"amount_minor", "currency", "reference"}; !slices.Equal(s.Required, want) {
		t.Errorf("Required = %q, want sorted without duplicates %q", s.Required, want)
	}
	if !s.Closed || s.AdditionalProperties != nil {
		t.Errorf("Closed, AdditionalProperties = %v, %v", s.Closed, s.AdditionalProperties)
	}

	ref := s.Properties["reference"]
	if ref.Pattern != `^PMT-\d{3,}$` || ref.Regexp == nil || !ref.Regexp.MatchString("PMT-771") {
		t.Errorf("reference pattern = %q, %v", ref.Pattern, ref.Regexp)
	}
	if ref.MinLength == nil || *ref.MinLength != 7 || ref.MaxLength == nil || *ref.MaxLength != 32 {
		t.Errorf("reference lengths = %v, %v", ref.MinLength, ref.MaxLength)
	}

	amount := s.Properties["amount_minor"]
	if amount.Minimum == nil || amount.Minimum.Value != 1 || amount.Minimum.Text != "1" {
		t.Errorf("minimum = %+v, want value 1 printed canonically as 1", amount.Minimum)
	}
	if amount.ExclusiveMaximum == nil || amount.ExclusiveMaximum.Text != "1000000000000" {
		t.Errorf("exclusiveMaximum = %+v", amount.ExclusiveMaximum)
	}
	if amount.Maximum != nil || amount.ExclusiveMinimum != nil {
		t.Errorf("absent bounds must be nil: %+v, %+v", amount.Maximum, amount.ExclusiveMinimum)
	}

	currency := s.Properties["currency"]
	if !currency.HasEnum || len(currency.Enum) != 3 || currency.Enum[2] != "EUR" {
		t.Errorf("enum = %v, %v", currency.HasEnum, currency.Enum)
	}
	if !currency.HasDefault || currency.Default != "AED" {
		t.Errorf("default = %v, %v", currency.HasDefault, currency.Default)
	}

	if !s.Properties["token"].Secret || s.Properties["currency"].Secret || s.Secret {
		t.Errorf("only token is secret")
	}

	legs := s.Properties["legs"]
	if legs.Items == nil || !slices.Equal(legs.Items.Types, []schema.Kind{schema.KindString}) {
		t.Errorf("items = %+v", legs.Items)
	}
	if *legs.MinItems != 1 || *legs.MaxItems != 4 || !legs.UniqueItems {
		t.Errorf("legs = %d, %d, %v", *legs.MinItems, *legs.MaxItems, legs.UniqueItems)
	}

	kind := s.Properties["kind"]
	if !kind.HasConst || kind.Const != nil || len(kind.Examples) != 1 {
		t.Errorf("a const of null must be recorded as present: %v, %v, %v", kind.HasConst, kind.Const, kind.Examples)
	}
	if kind.HasEnum || kind.HasDefault || len(kind.Types) != 0 {
		t.Errorf("kind declares no enum, default or type")
	}
}

func TestParseGoDocument(t *testing.T) {
	// A document built in Go, with native numbers, parses like its JSON text.
	s, err := schema.Parse(map[string]any{
		"type":       []any{"string", "null"},
		"maxLength":  float64(3),
		"minLength":  1,
		"properties": map[string]any{},
	})
	if err != nil {
		t.Fatal(err)
	}
	if *s.MaxLength != 3 || *s.MinLength != 1 {
		t.Errorf("lengths = %d, %d", *s.MaxLength, *s.MinLength)
	}
	if _, err := schema.Parse(map[string]any{"maxLength": 2.5}); err == nil {
		t.Error("a fractional float64 maxLength was accepted")
	}
	if _, err := schema.Parse(map[string]any{"type": []string{"string"}}); err == nil {
		t.Error("a []string type was accepted; JSON arrays are []any")
	}
}

func TestAllows(t *testing.T) {
	all := []schema.Kind{schema.KindNull, schema.KindBoolean, schema.KindInteger, schema.KindNumber,
		schema.KindString, schema.KindArray, schema.KindObject}
	tests := []struct {
		doc     string
		allowed []schema.Kind
	}{
		{`{}`, all},
		{`{"type": "integer"}`, []schema.Kind{schema.KindInteger}},
		{`{"type": "number"}`, []schema.Kind{schema.KindInteger, schema.KindNumber}},
		{`{"type": ["string", "null"]}`, []schema.Kind{schema.KindNull, schema.KindString}},
		{`{"type": ["boolean", "number"]}`, []schema.Kind{schema.KindBoolean, schema.KindInteger, schema.KindNumber}},
	}
	for _, tt := range tests {
		s := schema.MustParseJSON(tt.doc)
		for _, k := range all {
			if got, want := s.Allows(k), slices.Contains(tt.allowed, k); got != want {
				t.Errorf("%s Allows(%v) = %v, want %v", tt.doc, k, got, want)
			}
		}
		if s.Allows(schema.KindInvalid) && len(s.Types) > 0 {
			t.Errorf("%s allows an invalid value", tt.doc)
		}
	}
}

// secretDoc marks secrets at several depths; publicDoc is the same contract
// without the markers.
const (
	secretDoc = `{
		"type": "object",
		"x-secret": false,
		"properties": {
			"token": {"type": "string", "x-secret": true},
			"legs": {"type": "array", "items": {"type": "object", "x-secret": true,
				"properties": {"iban": {"type": "string", "x-secret": true, "examples": ["AE07..."]}}}}
		},
		"additionalProperties": {"type": "string", "x-secret": true}
	}`
	publicDoc = `{
		"type": "object",
		"properties": {
			"token": {"type": "string"},
			"legs": {"type": "array", "items": {"type": "object",
				"properties": {"iban": {"type": "string", "examples": ["AE07..."]}}}}
		},
		"additionalProperties": {"type": "string"}
	}`
)

func canonicalText(t *testing.T, v any) string {
	t.Helper()
	b, err := schema.CanonicalJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPublicStripsSecretMarkersAtEveryDepth(t *testing.T) {
	s := schema.MustParseJSON(secretDoc)
	want, err := schema.Canonicalize([]byte(publicDoc))
	if err != nil {
		t.Fatal(err)
	}
	if got := canonicalText(t, s.Public()); got != string(want) {
		t.Errorf("Public()\n got %s\nwant %s", got, want)
	}
	// The document as written keeps the markers: the call log needs them.
	if got := canonicalText(t, s.Document()); !strings.Contains(got, `"x-secret":true`) {
		t.Errorf("Document() lost the markers: %s", got)
	}
	if !s.Properties["token"].Secret || !s.Properties["legs"].Items.Properties["iban"].Secret || !s.AdditionalProperties.Secret {
		t.Error("the parsed model lost a marker")
	}
}

func TestPublicIsAFreshCopy(t *testing.T) {
	s := schema.MustParseJSON(secretDoc)
	before, hash := canonicalText(t, s.Document()), s.Hash()
	pub := s.Public()
	pub["type"] = "array"
	pub["properties"].(map[string]any)["token"].(map[string]any)["type"] = "integer"
	if got := canonicalText(t, s.Document()); got != before {
		t.Errorf("changing Public() changed Document():\n%s\n%s", got, before)
	}
	if s.Hash() != hash {
		t.Error("changing Public() changed Hash()")
	}
}

func TestHashIgnoresSecretMarkers(t *testing.T) {
	secret, public := schema.MustParseJSON(secretDoc), schema.MustParseJSON(publicDoc)
	if secret.Hash() != public.Hash() {
		t.Errorf("x-secret changed the hash: %s vs %s", secret.Hash(), public.Hash())
	}
	want, err := schema.HashValue(secret.Public())
	if err != nil {
		t.Fatal(err)
	}
	if secret.Hash() != want {
		t.Errorf("Hash() = %s, HashValue(Public()) = %s", secret.Hash(), want)
	}
	written, err := schema.HashValue(secret.Document())
	if err != nil {
		t.Fatal(err)
	}
	if written == secret.Hash() {
		t.Error("the hash of the written document must differ: it has the markers")
	}
}

func TestHashFollowsTheContract(t *testing.T) {
	base := schema.MustParseJSON(paymentLookupSchema)
	// Same contract, other spelling: same hash.
	respelled := schema.MustParseJSON(`{"additionalProperties":false,"required":["reference"],"type":"object",` +
		`"properties":{"include_legs":{"type":"boolean"},"reference":{"pattern":"^PMT-\\d{3,}$","type":"string"}}}`)
	if base.Hash() != respelled.Hash() {
		t.Errorf("key order or whitespace changed the hash")
	}
	// Any change to the contract, annotations included, changes it.
	for _, changed := range []string{
		`{"type":"object","properties":{"reference":{"type":"string","pattern":"^PMT-\\d{3,}$"},"include_legs":{"type":"boolean"}},"required":["reference"]}`,
		`{"type":"object","properties":{"reference":{"type":"string","pattern":"^PMT-\\d{4,}$"},"include_legs":{"type":"boolean"}},"required":["reference"],"additionalProperties":false}`,
		`{"type":"object","properties":{"reference":{"type":"string","pattern":"^PMT-\\d{3,}$"},"include_legs":{"type":"boolean","description":"x"}},"required":["reference"],"additionalProperties":false}`,
	} {
		if schema.MustParseJSON(changed).Hash() == base.Hash() {
			t.Errorf("%s hashes like the seed schema", changed)
		}
	}
	if !strings.HasPrefix(base.Hash(), schema.HashPrefix) || len(base.Hash()) != len(schema.HashPrefix)+16 {
		t.Errorf("Hash() = %q, want %s and 16 hex digits", base.Hash(), schema.HashPrefix)
	}
}

func TestZeroSchemaHashesAsEmptyObject(t *testing.T) {
	var want string
	for _, v := range loadCanonicalVectors(t) {
		if v.Name == "empty object" {
			want = v.Hash
		}
	}
	var s schema.Schema
	if got := s.Hash(); got != want {
		t.Errorf("zero Schema Hash() = %s, want the hash of {} %s", got, want)
	}
	if got := canonicalText(t, s.Document()); got != "{}" {
		t.Errorf("zero Schema Document() = %s", got)
	}
}

func TestDocumentRoundTrips(t *testing.T) {
	for _, doc := range []string{
		`{}`,
		paymentLookupSchema,
		paymentReleaseSchema,
		secretDoc,
		`{"$schema": "https://json-schema.org/draft/2020-12/schema", "$comment": "c", "title": "T",
		  "type": ["array", "null"], "items": {"type": "number", "exclusiveMinimum": 0.5, "default": 1.0,
		  "examples": [1, 2.5e3]}, "uniqueItems": true, "const": [1.0], "enum": [[1], [2]]}`,
	} {
		s, err := schema.ParseJSON([]byte(doc))
		if err != nil {
			t.Fatalf("ParseJSON(%s): %v", doc, err)
		}
		want, err := schema.Canonicalize([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if got := canonicalText(t, s.Document()); got != string(want) {
			t.Errorf("Document()\n got %s\nwant %s", got, want)
		}
		// The document parses back to the same contract.
		again, err := schema.Parse(s.Document())
		if err != nil {
			t.Fatalf("Parse(Document()): %v", err)
		}
		if again.Hash() != s.Hash() || canonicalText(t, again.Document()) != string(want) {
			t.Errorf("Parse(Document()) is a different schema")
		}
		// And survives encoding/json, as a tools/list entry would.
		b, err := json.Marshal(s.Document())
		if err != nil {
			t.Fatal(err)
		}
		if third, err := schema.ParseJSON(b); err != nil || third.Hash() != s.Hash() {
			t.Errorf("json.Marshal(Document()) parses back to %v, %v", third, err)
		}
	}
}
