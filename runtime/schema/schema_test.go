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

func mustParse(t *testing.T, doc string) *schema.Schema {
	t.Helper()
	s, err := schema.ParseJSON([]byte(doc))
	if err != nil {
		t.Fatalf("ParseJSON(%s): %v", doc, err)
	}
	return s
}

func TestParseRefusesKeywordsOutsideTheLanguage(t *testing.T) {
	// Each refusal names the keyword and says what to write instead.
	keywords := map[string]string{
		"$dynamicRef":     "use $ref",
		"$dynamicAnchor":  "use $anchor and $ref",
		"$recursiveRef":   "use $ref",
		"$vocabulary":     "custom meta-schemas",
		"nullable":        `type: [T, "null"]`,
		"dependencies":    "dependentRequired or dependentSchemas",
		"additionalItems": "prefixItems",
		"id":              "use $id",
		"Type":            "vendor annotations start with",
		"maxlength":       "vendor annotations start with",
	}
	positions := []struct {
		wrap    func(kw string) string
		pointer string
	}{
		{func(kw string) string { return fmt.Sprintf(`{%q: "x"}`, kw) }, ""},
		{func(kw string) string { return fmt.Sprintf(`{"properties": {"a": {%q: "x"}}}`, kw) }, "/properties/a"},
		{func(kw string) string { return fmt.Sprintf(`{"$defs": {"d": {"anyOf": [{}, {%q: "x"}]}}}`, kw) }, "/$defs/d/anyOf/1"},
		{func(kw string) string { return fmt.Sprintf(`{"items": {"not": {%q: "x"}}}`, kw) }, "/items/not"},
	}
	for kw, hint := range keywords {
		for _, pos := range positions {
			doc := pos.wrap(kw)
			got := parseErrors(t, doc)
			prefix := pos.pointer + "/" + kw + ": "
			if len(got) != 1 || !strings.HasPrefix(got[0], prefix) || !strings.Contains(got[0], fmt.Sprintf("%q", kw)) || !strings.Contains(got[0], hint) {
				t.Errorf("ParseJSON(%s) = %q, want one error at %s naming %q with the hint %q", doc, got, prefix, kw, hint)
			}
		}
	}
}

func TestVendorAnnotationsAreAccepted(t *testing.T) {
	s := mustParse(t, `{"type": "string", "x-order": 3, "x-examples": {"a": [1]}}`)
	if errs := s.Validate("anything"); errs != nil {
		t.Errorf("a vendor annotation constrained a value: %v", errs)
	}
	if doc := s.Document(); doc["x-order"] == nil {
		t.Error("a vendor annotation is not kept as written")
	}
}

func TestSupportedKeywordsAreAccepted(t *testing.T) {
	// A valid value for every supported keyword. A keyword added to the
	// language without a sample here fails the test, so the list stays
	// honest.
	samples := map[string]string{
		"$anchor":               `"a"`,
		"$comment":              `"c"`,
		"$defs":                 `{"d": {"type": "string"}}`,
		"$id":                   `"https://example.com/s.json"`,
		"$ref":                  `"#/$defs/d"`,
		"$schema":               `"https://json-schema.org/draft/2020-12/schema"`,
		"additionalProperties":  `{"type": "string"}`,
		"allOf":                 `[{"type": "string"}, true]`,
		"anyOf":                 `[{"type": "string"}, {"type": "null"}]`,
		"const":                 `{"a": [1]}`,
		"contains":              `{"type": "integer"}`,
		"contentEncoding":       `"base64"`,
		"contentMediaType":      `"image/png"`,
		"contentSchema":         `{"type": "object"}`,
		"default":               `null`,
		"definitions":           `{"e": false}`,
		"dependentRequired":     `{"a": ["b"]}`,
		"dependentSchemas":      `{"a": {"required": ["b"]}}`,
		"deprecated":            `true`,
		"description":           `"d"`,
		"discriminator":         `{"propertyName": "kind"}`,
		"else":                  `{"minLength": 1}`,
		"enum":                  `[1, "a", null]`,
		"examples":              `[{"a": 1}]`,
		"exclusiveMaximum":      `10.5`,
		"exclusiveMinimum":      `-1`,
		"format":                `"date"`,
		"if":                    `{"type": "string"}`,
		"items":                 `{"type": "integer"}`,
		"maxContains":           `3`,
		"maxItems":              `3`,
		"maxLength":             `3`,
		"maxProperties":         `3`,
		"maximum":               `1e3`,
		"minContains":           `0`,
		"minItems":              `0`,
		"minLength":             `1`,
		"minProperties":         `1`,
		"minimum":               `0`,
		"multipleOf":            `0.01`,
		"not":                   `{"type": "null"}`,
		"oneOf":                 `[{"type": "string"}, {"type": "integer"}]`,
		"pattern":               `"^a+$"`,
		"patternProperties":     `{"^x-": {"type": "string"}}`,
		"prefixItems":           `[{"type": "string"}, true]`,
		"properties":            `{"a": {}}`,
		"propertyNames":         `{"maxLength": 8}`,
		"readOnly":              `true`,
		"required":              `["a"]`,
		"then":                  `{"maxLength": 9}`,
		"title":                 `"t"`,
		"type":                  `["object", "null"]`,
		"unevaluatedItems":      `false`,
		"unevaluatedProperties": `{"type": "integer"}`,
		"uniqueItems":           `true`,
		"writeOnly":             `false`,
		"x-secret":              `true`,
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
		switch kw {
		case "$ref":
			doc = `{"$ref": "#/$defs/d", "$defs": {"d": {"type": "string"}}}`
		case "discriminator":
			doc = `{"discriminator": {"propertyName": "kind"}, "oneOf": [
				{"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]},
				{"type": "object", "properties": {"kind": {"const": "b"}}, "required": ["kind"]}]}`
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
		{`{"pattern": "(?<=a)b"}`, "/pattern", "(?<=a)b"},
		{`{"pattern": "(a)\\1"}`, "/pattern", `(a)\1`},
		{`{"pattern": "[a-"}`, "/pattern", "[a-"},
		{`{"properties": {"iban": {"type": "string", "pattern": "[A-Z](?=[A-Z]{2})"}}}`, "/properties/iban/pattern", "[A-Z](?=[A-Z]{2})"},
		{`{"patternProperties": {"(?!x)": {}}}`, "/patternProperties/(?!x)", "(?!x)"},
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
		{"schema is a number", `5`, []string{`/: a schema must be an object or a boolean, not integer`}},
		{"schema is an array", `[]`, []string{`/: a schema must be an object or a boolean, not array`}},
		{"schema is null", `null`, []string{`/: a schema must be an object or a boolean, not null`}},
		{"property schema is a string", `{"properties": {"a": "string"}}`, []string{`/properties/a: a schema must be an object or a boolean, not string`}},

		{"type is a number", `{"type": 5}`, []string{`/type: type must be a string or an array of strings`}},
		{"type is an empty array", `{"type": []}`, []string{`/type: type must not be an empty array`}},
		{"unknown type name", `{"type": "float"}`, []string{`/type: unknown type "float"`}},
		{"type names are case-sensitive", `{"type": "String"}`, []string{`/type: unknown type "String"`}},
		{"type listed twice", `{"type": ["string", "null", "string"]}`, []string{`/type: type "string" is listed twice`}},

		{"enum is a string", `{"enum": "AED"}`, []string{`/enum: enum must be an array`}},
		{"required holds a number", `{"required": ["a", 1]}`, []string{`/required: must be an array of strings`}},
		{"properties is an array", `{"properties": []}`, []string{`/properties: properties must be an object of schemas`}},
		{"additionalProperties is a string", `{"additionalProperties": "no"}`, []string{`/additionalProperties: a schema must be an object or a boolean, not string`}},
		{"items in tuple form", `{"items": [{"type": "string"}]}`, []string{`/items: items must be a schema; the array form is from draft 7: use prefixItems for the first elements and items for the rest`}},
		{"prefixItems empty", `{"prefixItems": []}`, []string{`/prefixItems: prefixItems must be a non-empty array of schemas`}},
		{"anyOf empty", `{"anyOf": []}`, []string{`/anyOf: anyOf must be a non-empty array of schemas`}},
		{"allOf an object", `{"allOf": {}}`, []string{`/allOf: allOf must be a non-empty array of schemas`}},
		{"dependentRequired holds a string", `{"dependentRequired": {"a": "b"}}`, []string{`/dependentRequired/a: must be an array of strings`}},

		{"minimum is a string", `{"minimum": "1"}`, []string{`/minimum: minimum must be a number`}},
		{"exclusiveMaximum in its draft-04 form", `{"maximum": 5, "exclusiveMaximum": true}`, []string{`/exclusiveMaximum: exclusiveMaximum must be a number`}},
		{"multipleOf zero", `{"multipleOf": 0}`, []string{`/multipleOf: multipleOf must be greater than 0`}},
		{"multipleOf negative", `{"multipleOf": -0.5}`, []string{`/multipleOf: multipleOf must be greater than 0`}},
		{"minLength is negative", `{"minLength": -1}`, []string{`/minLength: minLength must be a non-negative integer`}},
		{"maxLength is a fraction", `{"maxLength": 1.5}`, []string{`/maxLength: maxLength must be a non-negative integer`}},
		{"maxItems is beyond any array", `{"maxItems": 123456789012345678901234567890}`, []string{`/maxItems: maxItems must be a non-negative integer`}},
		{"uniqueItems is a string", `{"uniqueItems": "yes"}`, []string{`/uniqueItems: uniqueItems must be a boolean`}},
		{"x-secret is a number", `{"x-secret": 1}`, []string{`/x-secret: x-secret must be a boolean`}},
		{"title is a number", `{"title": 5}`, []string{`/title: title must be a string`}},
		{"examples is an object", `{"examples": {}}`, []string{`/examples: examples must be an array`}},
		{"$anchor with a slash", `{"$anchor": "a/b"}`, []string{`/$anchor: $anchor must be a plain name (a letter or '_', then letters, digits, '-', '_', '.')`}},
		{"format is a number", `{"format": 5}`, []string{`/format: format must be a string`}},

		{"pointer escapes / and ~ in property names", `{"properties": {"a/b~c": {"minLength": -2}}}`,
			[]string{`/properties/a~1b~0c/minLength: minLength must be a non-negative integer`}},
		{"every problem is reported, in key order", `{"type": "float", "minLength": -1, "properties": {"b": {"nullable": true}, "a": {"type": 1}}}`,
			[]string{
				`/minLength: minLength must be a non-negative integer`,
				`/properties/a/type: type must be a string or an array of strings`,
				`/properties/b/nullable: keyword "nullable" is outside the contract language: nullable is OpenAPI 3.0's; write type: [T, "null"] or anyOf: [{...}, {"type": "null"}]`,
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

func TestParseRefusesOtherDrafts(t *testing.T) {
	for _, dialect := range []string{"http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2019-09/schema", "https://example.com/my-meta"} {
		got := parseErrors(t, fmt.Sprintf(`{"$schema": %q, "type": "string"}`, dialect))
		if len(got) != 1 || !strings.HasPrefix(got[0], "/$schema: ") || !strings.Contains(got[0], "must be converted") {
			t.Errorf("$schema %s: %q", dialect, got)
		}
	}
	for _, dialect := range []string{"https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2020-12/schema#"} {
		mustParse(t, fmt.Sprintf(`{"$schema": %q}`, dialect))
	}
}

func TestReferences(t *testing.T) {
	tests := []struct {
		name, doc     string
		valid, broken []string // JSON values
	}{
		{"pointer into $defs", `{"$defs": {"id": {"type": "string", "minLength": 2}}, "properties": {"a": {"$ref": "#/$defs/id"}}}`,
			[]string{`{"a": "xy"}`, `{}`}, []string{`{"a": 5}`, `{"a": "x"}`}},
		{"pointer into the older definitions", `{"definitions": {"id": {"type": "integer"}}, "items": {"$ref": "#/definitions/id"}}`,
			[]string{`[1, 2]`}, []string{`[1, "2"]`}},
		{"recursion through the root", `{"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#"}}, "name": {"type": "string"}}, "additionalProperties": false}`,
			[]string{`{"children": [{"children": [{"name": "leaf"}]}]}`}, []string{`{"children": [{"children": [{"nam": "leaf"}]}]}`}},
		{"a linked list through $defs", `{"$defs": {"node": {"type": ["object", "null"], "properties": {"next": {"$ref": "#/$defs/node"}, "v": {"type": "integer"}}, "required": ["v"]}}, "$ref": "#/$defs/node"}`,
			[]string{`null`, `{"v": 1, "next": {"v": 2, "next": null}}`}, []string{`{"v": 1, "next": {"next": null}}`}},
		{"an anchor", `{"$defs": {"x": {"$anchor": "money", "type": "number", "minimum": 0}}, "properties": {"amount": {"$ref": "#money"}}}`,
			[]string{`{"amount": 1.5}`}, []string{`{"amount": -1}`}},
		{"an $id-relative reference", `{"$id": "https://example.com/root.json", "$defs": {"a": {"$id": "a.json", "type": "boolean"}}, "properties": {"x": {"$ref": "a.json"}, "y": {"$ref": "https://example.com/a.json"}}}`,
			[]string{`{"x": true, "y": false}`}, []string{`{"x": 1}`, `{"y": "no"}`}},
		{"a pointer inside an embedded resource", `{"$defs": {"a": {"$id": "https://example.com/a", "$defs": {"b": {"type": "null"}}, "$ref": "#/$defs/b"}}, "$ref": "#/$defs/a"}`,
			[]string{`null`}, []string{`0`}},
		{"an escaped pointer", `{"$defs": {"a/b": {"type": "integer"}, "c~d": {"type": "string"}, "e f": {"type": "null"}}, "prefixItems": [{"$ref": "#/$defs/a~1b"}, {"$ref": "#/$defs/c~0d"}, {"$ref": "#/$defs/e%20f"}]}`,
			[]string{`[1, "x", null]`}, []string{`["1"]`, `[1, 2]`, `[1, "x", 0]`}},
		{"a reference to the schema false", `{"$defs": {"no": false}, "properties": {"x": {"$ref": "#/$defs/no"}}}`,
			[]string{`{}`}, []string{`{"x": null}`}},
		{"a URN base", `{"$id": "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed", "$defs": {"b": {"type": "string"}}, "properties": {"x": {"$ref": "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed#/$defs/b"}}}`,
			[]string{`{"x": "s"}`}, []string{`{"x": 1}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustParse(t, tt.doc)
			for _, v := range tt.valid {
				if errs, err := s.ValidateJSON([]byte(v)); err != nil || errs != nil {
					t.Errorf("%s: %v %v, want valid", v, errs, err)
				}
			}
			for _, v := range tt.broken {
				if errs, err := s.ValidateJSON([]byte(v)); err != nil || errs == nil {
					t.Errorf("%s: accepted, want refused", v)
				}
			}
		})
	}
}

func TestParseRefusesReferencesOutOfTheDocument(t *testing.T) {
	tests := []struct{ doc, want string }{
		{`{"$ref": "https://example.com/other.json"}`, `/$ref: $ref "https://example.com/other.json" leaves this document`},
		{`{"$ref": "other.json#/$defs/a"}`, `/$ref: $ref "other.json#/$defs/a" leaves this document`},
		{`{"$ref": "https://json-schema.org/draft/2020-12/schema"}`, `/$ref: $ref "https://json-schema.org/draft/2020-12/schema" leaves this document`},
		{`{"properties": {"a": {"$ref": "#/$defs/missing"}}}`, `/properties/a/$ref: $ref "#/$defs/missing" does not point at a schema in this document`},
		{`{"$ref": "#/examples/0", "examples": [{}]}`, `/$ref: $ref "#/examples/0" does not point at a schema in this document`},
		{`{"$ref": "#nowhere"}`, `/$ref: $ref "#nowhere" names an anchor "nowhere" that is not declared in its schema resource`},
		{`{"$ref": 5}`, `/$ref: $ref must be a string`},
		{`{"$id": "https://example.com/a#frag"}`, `/$id: $id "https://example.com/a#frag" must not have a fragment (name a location with $anchor)`},
	}
	for _, tt := range tests {
		got := parseErrors(t, tt.doc)
		if len(got) != 1 || !strings.HasPrefix(got[0], tt.want) {
			t.Errorf("ParseJSON(%s)\n got %q\nwant one error starting %q", tt.doc, got, tt.want)
		}
	}
	// A remote reference says what to write instead.
	if got := parseErrors(t, `{"$ref": "https://example.com/x"}`)[0]; !strings.Contains(got, `#/$defs/name`) {
		t.Errorf("the refusal gives no hint: %s", got)
	}
}

func TestParseRefusesLoopsThatNeverDescend(t *testing.T) {
	for _, doc := range []string{
		`{"$ref": "#"}`,
		`{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}`,
		`{"$defs": {"a": {"anyOf": [{"type": "null"}, {"not": {"$ref": "#/$defs/a"}}]}}}`,
	} {
		got := parseErrors(t, doc)
		if len(got) != 1 || !strings.Contains(got[0], "would never end") {
			t.Errorf("ParseJSON(%s) = %q, want the loop refused", doc, got)
		}
	}
	// A recursion that descends is a tree, not a loop.
	mustParse(t, `{"properties": {"kids": {"items": {"$ref": "#"}}}}`)
}

func TestFormats(t *testing.T) {
	got := parseErrors(t, `{"properties": {"c": {"type": "string", "format": "color"}}}`)
	if len(got) != 1 || !strings.HasPrefix(got[0], `/properties/c/format: format "color" is not one the contract language asserts`) || !strings.Contains(got[0], "formatAnnotations") {
		t.Errorf("an unknown format: %q", got)
	}
	s, err := schema.ParseJSONWith([]byte(`{"type": "string", "format": "color"}`), schema.Options{AnnotationFormats: []string{"color"}})
	if err != nil {
		t.Fatal(err)
	}
	if name, asserted := s.Format(); name != "color" || asserted {
		t.Errorf("Format() = %q, %v; want an annotation", name, asserted)
	}
	if errs := s.Validate("not a color at all"); errs != nil {
		t.Errorf("an annotation format was asserted: %v", errs)
	}
	d := mustParse(t, `{"type": "string", "format": "date"}`)
	if name, asserted := d.Format(); name != "date" || !asserted {
		t.Errorf("Format() = %q, %v; want date asserted", name, asserted)
	}
	if got := d.Validate("2026-02-30"); len(got) != 1 || got[0].Message != "does not match format 'date'" {
		t.Errorf("an impossible date: %v", got)
	}
	if got := d.Validate(5); len(got) != 1 || !strings.HasPrefix(got[0].Message, "expected type string") {
		t.Errorf("format on a number: %v", got)
	}
	n := mustParse(t, `{"format": "int32"}`)
	for v, ok := range map[string]bool{"2147483647": true, "-2147483648": true, "2147483648": false, "1.5": false, "3.0": true, `"x"`: true} {
		if errs, _ := n.ValidateJSON([]byte(v)); (errs == nil) != ok {
			t.Errorf("int32 %s: %v, want valid=%v", v, errs, ok)
		}
	}
	if !slices.IsSorted(schema.AssertedFormats()) || !slices.Contains(schema.AssertedFormats(), "date-time") || !slices.Contains(schema.AssertedFormats(), "int64") {
		t.Errorf("AssertedFormats() = %q", schema.AssertedFormats())
	}
}

func TestUnionsAreToldApart(t *testing.T) {
	tests := []struct {
		doc      string
		kind     schema.UnionKind
		property string
	}{
		{`{"anyOf": [{"type": "string"}, {"type": "null"}]}`, schema.UnionByType, ""},
		{`{"anyOf": [{"$ref": "#/$defs/a"}, {"type": "null"}], "$defs": {"a": {"type": "object"}}}`, schema.UnionByType, ""},
		{`{"anyOf": [{"type": "integer"}, {"type": "number"}]}`, schema.UnionGeneral, ""},
		{`{"anyOf": [{"type": "string"}, {"minLength": 2}]}`, schema.UnionGeneral, ""},
		{`{"anyOf": [{"type": "integer"}]}`, schema.UnionByType, ""},
		{`{"oneOf": [
			{"type": "object", "properties": {"kind": {"const": "card"}}, "required": ["kind"]},
			{"type": "object", "properties": {"kind": {"enum": ["iban"]}}, "required": ["kind"]}]}`, schema.UnionByProperty, "kind"},
		{`{"oneOf": [
			{"allOf": [{"$ref": "#/$defs/base"}, {"properties": {"t": {"const": "a"}}}]},
			{"allOf": [{"$ref": "#/$defs/base"}, {"properties": {"t": {"const": "b"}}}]}],
		  "$defs": {"base": {"type": "object", "required": ["t"]}}}`, schema.UnionByProperty, "t"},
		{`{"oneOf": [
			{"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]},
			{"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]}]}`, schema.UnionGeneral, ""},
		{`{"oneOf": [
			{"type": "object", "properties": {"kind": {"const": "a"}}},
			{"type": "object", "properties": {"kind": {"const": "b"}}}]}`, schema.UnionGeneral, ""},
	}
	for _, tt := range tests {
		s := mustParse(t, tt.doc)
		u := s.AnyOfUnion()
		if u == nil {
			u = s.OneOfUnion()
		}
		if u.Kind != tt.kind || u.Property != tt.property {
			t.Errorf("%s: union %v %q, want %v %q", tt.doc, u.Kind, u.Property, tt.kind, tt.property)
		}
	}
}

func TestDiscriminatorMustAgree(t *testing.T) {
	const alts = `[
		{"$ref": "#/$defs/card"},
		{"$ref": "#/$defs/iban"}]`
	const defs = `"$defs": {
		"card": {"type": "object", "properties": {"kind": {"const": "card"}}, "required": ["kind"]},
		"iban": {"type": "object", "properties": {"kind": {"const": "iban"}}, "required": ["kind"]}}`
	mustParse(t, `{"oneOf": `+alts+`, "discriminator": {"propertyName": "kind", "mapping": {"card": "#/$defs/card", "iban": "#/$defs/iban"}}, `+defs+`}`)
	for _, d := range []string{
		`{"propertyName": "type"}`,
		`{"propertyName": "kind", "mapping": {"card": "#/$defs/iban"}}`,
		`{"propertyName": "kind", "extra": 1}`,
	} {
		got := parseErrors(t, `{"oneOf": `+alts+`, "discriminator": `+d+`, `+defs+`}`)
		if len(got) != 1 || !strings.HasPrefix(got[0], "/discriminator") {
			t.Errorf("discriminator %s: %q", d, got)
		}
	}
}

func TestPublishedSchemaCannotBeChangedThroughItsAccessors(t *testing.T) {
	s := mustParse(t, `{"type": "object", "properties": {"a": {"type": "string", "enum": ["x", "y"]}, "b": {"const": {"k": [1]}}},
		"required": ["a"], "prefixItems": [{}], "allOf": [{"minProperties": 1}], "$defs": {"d": {}},
		"dependentRequired": {"a": ["b"]}, "minimum": 1}`)
	hash := s.Hash()
	// Everything a caller is handed, changed as a careless caller would.
	req := s.Required()
	req[0] = "zzz"
	names := s.PropertyNames()
	names[0] = "zzz"
	types := s.Types()
	types[0] = schema.KindString
	enum, _ := s.Property("a").Enum()
	enum[0] = "changed"
	c, _ := s.Property("b").Const()
	c.(map[string]any)["k"] = "changed"
	s.AllOf()[0] = nil
	s.PrefixItems()[0] = nil
	delete(s.Defs(), "d")
	s.DependentRequired()["a"][0] = "c"
	s.Minimum().Value = 100
	doc := s.Document()
	doc["required"] = []any{}
	if s.Hash() != hash {
		t.Error("the hash changed")
	}
	if got := s.Validate(map[string]any{}); len(got) != 2 {
		t.Errorf("required no longer enforced: %v", got)
	}
	if got := s.Validate(map[string]any{"a": "changed", "b": map[string]any{"k": []any{1}}}); len(got) != 1 {
		t.Errorf("the enum or the const changed: %v", got)
	}
	if slices.Contains(s.Required(), "zzz") || s.Property("a") == nil || len(s.AllOf()) != 1 || s.AllOf()[0] == nil || s.Minimum().Value != 1 {
		t.Error("an accessor handed out shared state")
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
			"legs": {"type": "array", "items": {"$ref": "#/$defs/leg"}},
			"auth": {"anyOf": [{"type": "null"}, {"type": "string", "x-secret": true}]}
		},
		"patternProperties": {"^pin": {"type": "string", "x-secret": true}},
		"additionalProperties": {"type": "string"},
		"$defs": {"leg": {"type": "object", "properties": {"iban": {"type": "string", "x-secret": true, "examples": ["AE07..."]}}}}
	}`
	publicDoc = `{
		"type": "object",
		"properties": {
			"token": {"type": "string"},
			"legs": {"type": "array", "items": {"$ref": "#/$defs/leg"}},
			"auth": {"anyOf": [{"type": "null"}, {"type": "string"}]}
		},
		"patternProperties": {"^pin": {"type": "string"}},
		"additionalProperties": {"type": "string"},
		"$defs": {"leg": {"type": "object", "properties": {"iban": {"type": "string", "examples": ["AE07..."]}}}}
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
	s := mustParse(t, secretDoc)
	want, err := schema.Canonicalize([]byte(publicDoc))
	if err != nil {
		t.Fatal(err)
	}
	if got := canonicalText(t, s.Public()); got != string(want) {
		t.Errorf("Public()\n got %s\nwant %s", got, want)
	}
	// The document as written keeps the markers: the call log needs them.
	if got := canonicalText(t, s.Document()); strings.Count(got, `"x-secret":true`) != 4 {
		t.Errorf("Document() lost the markers: %s", got)
	}
	// A property named x-secret, and the key inside a const, are content.
	c := mustParse(t, `{"properties": {"x-secret": {"const": {"x-secret": true}}}}`)
	if got := canonicalText(t, c.Public()); got != `{"properties":{"x-secret":{"const":{"x-secret":true}}}}` {
		t.Errorf("Public() removed content: %s", got)
	}
}

func TestRedactFollowsEverySchemaThatApplies(t *testing.T) {
	s := mustParse(t, secretDoc)
	v := map[string]any{
		"token": "t0k3n",
		"legs":  []any{map[string]any{"iban": "AE07", "bank": "x"}},
		"auth":  "Bearer x",
		"pin1":  "1234",
		"note":  "hello",
	}
	got := canonicalText(t, s.Redact(v, "***"))
	want := `{"auth":"***","legs":[{"bank":"x","iban":"***"}],"note":"hello","pin1":"***","token":"***"}`
	if got != want {
		t.Errorf("Redact\n got %s\nwant %s", got, want)
	}
	if v["token"] != "t0k3n" {
		t.Error("Redact modified its argument")
	}
}

func TestHashIgnoresSecretMarkers(t *testing.T) {
	secret, public := mustParse(t, secretDoc), mustParse(t, publicDoc)
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
}

func TestHashFollowsTheContract(t *testing.T) {
	base := mustParse(t, paymentLookupSchema)
	respelled := mustParse(t, `{"additionalProperties":false,"required":["reference"],"type":"object",`+
		`"properties":{"include_legs":{"type":"boolean"},"reference":{"pattern":"^PMT-\\d{3,}$","type":"string"}}}`)
	if base.Hash() != respelled.Hash() {
		t.Errorf("key order or whitespace changed the hash")
	}
	for _, changed := range []string{
		`{"type":"object","properties":{"reference":{"type":"string","pattern":"^PMT-\\d{3,}$"},"include_legs":{"type":"boolean"}},"required":["reference"]}`,
		`{"type":"object","properties":{"reference":{"type":"string","pattern":"^PMT-\\d{4,}$"},"include_legs":{"type":"boolean"}},"required":["reference"],"additionalProperties":false}`,
		`{"type":"object","properties":{"reference":{"type":"string","pattern":"^PMT-\\d{3,}$"},"include_legs":{"type":"boolean","description":"x"}},"required":["reference"],"additionalProperties":false}`,
	} {
		if mustParse(t, changed).Hash() == base.Hash() {
			t.Errorf("%s hashes like the lookup schema", changed)
		}
	}
	if !strings.HasPrefix(base.Hash(), schema.HashPrefix) || len(base.Hash()) != len(schema.HashPrefix)+16 {
		t.Errorf("Hash() = %q, want %s and 16 hex digits", base.Hash(), schema.HashPrefix)
	}
}

func TestZeroAndBooleanSchemas(t *testing.T) {
	var want string
	for _, v := range loadCanonicalVectors(t) {
		if v.Name == "empty object" {
			want = v.Hash
		}
	}
	var zero schema.Schema
	if got := zero.Hash(); got != want {
		t.Errorf("zero Schema Hash() = %s, want the hash of {} %s", got, want)
	}
	if got := canonicalText(t, zero.Document()); got != "{}" {
		t.Errorf("zero Schema Document() = %s", got)
	}
	yes, no := mustParse(t, `true`), mustParse(t, `false`)
	if !yes.IsTrue() || yes.IsFalse() || no.IsTrue() || !no.IsFalse() {
		t.Error("IsTrue/IsFalse of the boolean schemas")
	}
	if yes.Validate(map[string]any{"a": 1}) != nil {
		t.Error("true refused a value")
	}
	if got := no.Validate(nil); len(got) != 1 || got[0].Message != schema.MsgFalse {
		t.Errorf("false: %v", got)
	}
	if yes.Raw() != true || no.Raw() != false {
		t.Error("Raw() of a boolean schema is not the boolean")
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
		s := mustParse(t, doc)
		want, err := schema.Canonicalize([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if got := canonicalText(t, s.Document()); got != string(want) {
			t.Errorf("Document()\n got %s\nwant %s", got, want)
		}
		again, err := schema.Parse(s.Document())
		if err != nil {
			t.Fatalf("Parse(Document()): %v", err)
		}
		if again.Hash() != s.Hash() {
			t.Errorf("Parse(Document()) is a different schema")
		}
		b, err := json.Marshal(s.Document())
		if err != nil {
			t.Fatal(err)
		}
		if third, err := schema.ParseJSON(b); err != nil || third.Hash() != s.Hash() {
			t.Errorf("json.Marshal(Document()) parses back to %v, %v", third, err)
		}
	}
}

func TestLookup(t *testing.T) {
	s := mustParse(t, `{"properties": {"a/b": {"items": {"type": "string"}}}, "$defs": {"d": {"type": "null"}}}`)
	if got := s.Lookup("/properties/a~1b/items"); got == nil || !slices.Equal(got.Types(), []schema.Kind{schema.KindString}) {
		t.Errorf("Lookup of an items schema: %v", got)
	}
	if s.Lookup("") != s || s.Lookup("/$defs/d") == nil || s.Lookup("/properties/zz") != nil {
		t.Error("Lookup")
	}
}

func TestParseErrorsAreDeterministic(t *testing.T) {
	// Go randomises map iteration; errors must come out the same every time.
	const doc = `{
		"type": ["string", "bogus", "string"],
		"properties": {
			"e": {"oneOf": []}, "d": {"format": "x"}, "c": {"minItems": -1},
			"b": {"pattern": "(?=x)"}, "a": {"items": [{}]}, "f": {"$ref": "#/nope"}, "g": {"$ref": "#nope"}
		},
		"anyOf": [], "allOf": [], "not": {"nullable": 1}
	}`
	first := parseErrors(t, doc)
	if len(first) != 12 {
		t.Fatalf("want 12 errors, got %d: %q", len(first), first)
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
			t.Fatal("MustParseJSON did not panic on a remote reference")
		}
		if msg := fmt.Sprint(r); !strings.Contains(msg, `/$ref: $ref "https://x.example/s" leaves this document`) {
			t.Errorf("panic message %q does not locate the problem", msg)
		}
	}()
	schema.MustParseJSON(`{"$ref": "https://x.example/s"}`)
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
	if *s.MaxLength() != 3 || *s.MinLength() != 1 {
		t.Errorf("lengths = %d, %d", *s.MaxLength(), *s.MinLength())
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
	}
	for _, tt := range tests {
		s := mustParse(t, tt.doc)
		for _, k := range all {
			if got, want := s.Allows(k), slices.Contains(tt.allowed, k); got != want {
				t.Errorf("%s Allows(%v) = %v, want %v", tt.doc, k, got, want)
			}
		}
	}
}
