package schema_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// redactionDocs are the schemas the text redactor is held to Redact with:
// secretDoc, and one with the array keywords, unevaluatedProperties and an
// allOf, a secret reached only in place.
var redactionDocs = []string{secretDoc, `{
	"type": "object",
	"properties": {
		"pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "string", "x-secret": true}], "items": {"type": "integer"}},
		"bag": {"type": "array", "contains": {"type": "object", "properties": {"key": {"x-secret": true}}}},
		"tail": {"type": "array", "unevaluatedItems": {"x-secret": true}},
		"both": {"allOf": [{"$ref": "#/$defs/hidden"}, {"type": "string"}]}
	},
	"unevaluatedProperties": {"type": "object", "properties": {"otp": {"x-secret": true}}},
	"$defs": {"hidden": {"x-secret": true}}
}`}

// mustAgree asserts that AppendRedacted of text is, read back, what Redact
// makes of text's value, and that it is one valid JSON value.
func mustAgree(t *testing.T, s *schema.Schema, text string) {
	t.Helper()
	v, err := schema.DecodeJSON([]byte(text))
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	out := s.AppendRedacted(nil, []byte(text), []byte(`"***"`))
	got, err := schema.DecodeJSON(out)
	if err != nil {
		t.Fatalf("AppendRedacted of %s wrote %s: %v", text, out, err)
	}
	if g, w := canonicalText(t, got), canonicalText(t, s.Redact(v, "***")); g != w {
		t.Fatalf("AppendRedacted of %s\n got %s\nwant %s (Redact)", text, g, w)
	}
}

func TestAppendRedactedIsRedactOnTheText(t *testing.T) {
	for i, doc := range redactionDocs {
		s := mustParse(t, doc)
		for _, text := range []string{
			`{"token":"t0k3n","legs":[{"iban":"AE07","bank":"x"},{"bank":"y"}],"auth":"Bearer x","pin1":"1234","note":"hello"}`,
			` { "auth" : null , "pin\u0031" : "12" , "t\u006fken" : "x", "legs" : [ ] } `,
			`{"pair":["a","b",1,2],"bag":[{"key":"k","v":1},3],"tail":[1,{"a":[2]}],"both":"hidden","extra":{"otp":"1","user":"u"}}`,
			`{"pair":["only"],"deep":{"otp":{"a":[1,2]}},"note":"snow ☃ and \"quotes\""}`,
			`{}`, `[]`, `"x"`, `12.50`, `null`,
		} {
			t.Run(strings.Repeat("doc", i+1)+"/"+text, func(t *testing.T) { mustAgree(t, s, text) })
		}
	}
}

// What no secret reaches is copied as written, spacing left out; members
// keep their order.
func TestAppendRedactedKeepsTheTextAsWritten(t *testing.T) {
	s := mustParse(t, secretDoc)
	text := `{"note": "a\u0041b", "legs": [{"bank": "x", "iban": "AE07"}], "token": "t", "n": 1.50e+2}`
	want := `{"note":"a\u0041b","legs":[{"bank":"x","iban":"#"}],"token":"#","n":1.50e+2}`
	if got := s.AppendRedacted([]byte("prefix:"), []byte(text), []byte(`"#"`)); string(got) != "prefix:"+want {
		t.Errorf("got  %s\nwant prefix:%s", got, want)
	}
	public := mustParse(t, publicDoc)
	compact := `{"note":"a\u0041b","legs":[{"bank":"x","iban":"AE07"}],"token":"t","n":1.50e+2}`
	if got := public.AppendRedacted(nil, []byte(text), []byte(`"#"`)); string(got) != compact {
		t.Errorf("a schema without secrets: %s, want %s", got, compact)
	}
}

func FuzzAppendRedacted(f *testing.F) {
	for _, seed := range []string{
		`{"token":"t","legs":[{"iban":"a"}],"pin2":"1","auth":null,"x":"y"}`,
		`{"pair":["a","b",3],"bag":[{"key":1}],"tail":[1,[2]],"both":"b","other":{"otp":2}}`,
		`[{"token":"t"}]`, `"s"`, `{"\u0070in":"1"}`,
	} {
		f.Add(seed)
	}
	var schemas []*schema.Schema
	for _, doc := range redactionDocs {
		s, err := schema.ParseJSON([]byte(doc))
		if err != nil {
			f.Fatal(err)
		}
		schemas = append(schemas, s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if _, err := schema.DecodeJSON([]byte(text)); err != nil {
			return // AppendRedacted takes text a strict reader accepted
		}
		for _, s := range schemas {
			mustAgree(t, s, text)
		}
		// The mask is all that stands in for a secret.
		if out := schemas[0].AppendRedacted(nil, []byte(`{"token":`+text+`}`), []byte(`"***"`)); !bytes.Equal(out, []byte(`{"token":"***"}`)) {
			t.Fatalf("a secret value of %s: %s", text, out)
		}
	})
}
