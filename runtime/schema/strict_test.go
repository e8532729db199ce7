package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// TestDecodeJSONIsStrict: input that parsers read differently is refused,
// never repaired into one of its readings.
func TestDecodeJSONIsStrict(t *testing.T) {
	for _, in := range []string{
		`"\ud800"`,              // an escaped lone high surrogate
		`"\udc00x"`,             // an escaped lone low surrogate
		"\"\xff\"",              // a raw invalid UTF-8 byte
		`{"a":1,"a":2}`,         // duplicate member names
		`[{"b":{"c":1,"c":1}}]`, // at any depth
	} {
		if v, err := schema.DecodeJSON([]byte(in)); err == nil {
			t.Errorf("DecodeJSON(%q) = %#v, want an error", in, v)
		}
		if c, err := schema.Canonicalize([]byte(in)); err == nil {
			t.Errorf("Canonicalize(%q) = %s, want an error", in, c)
		}
	}
	// A surrogate pair written as escapes is one valid character.
	v, err := schema.DecodeJSON([]byte(`"\ud83d\ude00"`))
	if err != nil || v != "😀" {
		t.Errorf("surrogate pair: %q, %v", v, err)
	}
}

func TestParseRefusesNonJSONAnnotations(t *testing.T) {
	for _, kw := range []string{"const", "default", "enum", "examples"} {
		var v any = make(chan int)
		if kw == "enum" || kw == "examples" {
			v = []any{make(chan int)}
		}
		_, err := schema.Parse(map[string]any{kw: v})
		errs, ok := err.(schema.SchemaErrors)
		if !ok || len(errs) != 1 || errs[0].Path.String() != "/"+kw {
			t.Errorf("%s holding a channel: %v", kw, err)
		}
	}
}

// TestPublicStripsOnlyTheMarker: a property named x-secret, or such a key
// inside a value, is content; two different contracts must not hash alike.
func TestPublicStripsOnlyTheMarker(t *testing.T) {
	pairs := [][2]string{
		{`{"type":"object","properties":{"x-secret":{"type":"string"}},"required":["x-secret"]}`,
			`{"type":"object","properties":{"x-secret":{"type":"integer"}},"required":["x-secret"]}`},
		{`{"const":{"x-secret":true}}`, `{"const":{}}`},
		{`{"enum":[{"x-secret":1}]}`, `{"enum":[{}]}`},
	}
	for _, p := range pairs {
		a, b := schema.MustParseJSON(p[0]), schema.MustParseJSON(p[1])
		if a.Hash() == b.Hash() {
			t.Errorf("%s and %s hash alike", p[0], p[1])
		}
	}
	s := schema.MustParseJSON(`{"type":"object","properties":{"x-secret":{"type":"string","x-secret":true}}}`)
	got, _ := json.Marshal(s.Public())
	if string(got) != `{"properties":{"x-secret":{"type":"string"}},"type":"object"}` {
		t.Errorf("Public() = %s", got)
	}
}

func TestUniqueAgreesWithEqualBeyondDoubles(t *testing.T) {
	a, b := json.Number("9007199254740993"), json.Number("9007199254740992")
	if schema.Equal(a, b) {
		t.Fatal("Equal says two different int64 values are equal")
	}
	if !schema.Unique([]any{a, b}) {
		t.Error("Unique says two different int64 values are duplicates")
	}
	if schema.Unique([]any{a, json.Number("9007199254740993")}) {
		t.Error("Unique missed a duplicate beyond 2^53")
	}
}

func TestFloat32PrintsAsItsShortestForm(t *testing.T) {
	c, err := schema.CanonicalJSON(float32(0.1))
	if err != nil || string(c) != "0.1" {
		t.Errorf("CanonicalJSON(float32(0.1)) = %s, %v", c, err)
	}
}

// TestEncodeKeepsLiterals: Encode is for sending and storing, so numbers
// come out exactly as written; CanonicalJSON is for hashing and rounds to a
// double. Messages name the value the schema holds.
func TestEncodeKeepsLiterals(t *testing.T) {
	v, _ := schema.DecodeJSON([]byte(`{"b": [9007199254740993, 1.50, 1e400], "a": "<x>"}`))
	enc, err := schema.Encode(v)
	if err != nil || string(enc) != `{"a":"<x>","b":[9007199254740993,1.50,1e400]}` {
		t.Errorf("Encode = %s, %v", enc, err)
	}
	if _, err := schema.CanonicalJSON(v); err == nil {
		t.Error("CanonicalJSON accepted a number beyond a double")
	}
	s := schema.MustParseJSON(`{"const": 9007199254740993}`)
	if errs := s.Validate(json.Number("9007199254740992")); len(errs) != 1 || errs[0].Message != "must be 9007199254740993" {
		t.Errorf("const message: %v", errs)
	}
}

// BenchmarkDecodeJSON decodes a stateless-era request's _meta, the value
// dispatch decodes on every such request.
func BenchmarkDecodeJSON(b *testing.B) {
	data := []byte(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{},"elicitation":{}}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := schema.DecodeJSON(data); err != nil {
			b.Fatal(err)
		}
	}
}
