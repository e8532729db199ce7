package schema_test

import (
	"bytes"
	"reflect"
	"strconv"
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
	// Compared as values of the model (numbers as their text), not as
	// canonical text, which refuses a number no double holds (1E700).
	if want := s.Redact(v, "***"); !reflect.DeepEqual(got, want) {
		t.Fatalf("AppendRedacted of %s\n got %s\nwant %#v (Redact)", text, out, want)
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

// treeDoc lets a schema apply at every depth (a tree of arrays and
// objects whose "pin" is secret), so that a redaction walks all the way
// down.
const treeDoc = `{"$defs":{"node":{"type":["array","object"],"items":{"$ref":"#/$defs/node"},"properties":{"pin":{"x-secret":true}},"additionalProperties":{"$ref":"#/$defs/node"}}},"$ref":"#/$defs/node"}`

// nested is a tree depth levels deep with a secret at its bottom.
func nested(depth int) string {
	return strings.Repeat(`[{"k":`, depth) + `{"pin":"SECRET"}` + strings.Repeat(`}]`, depth)
}

func TestAppendRedactedWalksDeepText(t *testing.T) {
	s := mustParse(t, treeDoc)
	mustAgree(t, s, nested(300))
	if out := s.AppendRedacted(nil, []byte(nested(300)), []byte(`"***"`)); bytes.Contains(out, []byte("SECRET")) {
		t.Fatalf("the secret 300 levels down was not redacted")
	}
}

// Text a strict reader refuses never reaches AppendRedacted from the
// server; given it anyway, it stops: no panic, no endless loop.
func TestAppendRedactedStopsOnTextItIsNotGiven(t *testing.T) {
	s := mustParse(t, treeDoc)
	for _, text := range []string{``, ` `, `[`, `{`, `[}`, `[:`, `{"a"`, `{"a":`, `{"a":}`, `[1,`, `{"a":1,}`, `[[[[`, `{"pin"`, `"abc`} {
		s.AppendRedacted(nil, []byte(text), []byte(`"***"`))
	}
}

// BenchmarkAppendRedacted is the redaction of a tree nested depth levels
// deep (treeDoc), padded with spaces to 4 KiB: its time grows in
// proportion to the depth, a level's work the same at every depth (the
// walk is linear in the text), where finding each member's end before
// walking into it grew with the depth's square.
func BenchmarkAppendRedacted(b *testing.B) {
	s := schema.MustParseJSON(treeDoc)
	for _, depth := range []int{50, 200, 500} {
		b.Run("depth="+strconv.Itoa(depth), func(b *testing.B) {
			text := []byte(nested(depth))
			text = append(text[:len(text):len(text)], []byte(strings.Repeat(" ", max(0, 4096-len(text))))...)
			dst := make([]byte, 0, 2*len(text))
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				dst = s.AppendRedacted(dst[:0], text, []byte(`"***"`))
			}
		})
	}
}
