package bench

import (
	"bytes"
	"encoding/json"
	"testing"

	gjs "github.com/google/jsonschema-go/jsonschema"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"
	segjson "github.com/segmentio/encoding/json"

	"github.com/mcpgen/mcpgen/bench/instruct"
	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/gen"
	"github.com/mcpgen/mcpgen/internal/gentest"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// decodeCase is one row of the decode table: a schema, an input, what the
// generated decoder must find, and the anchors' typed target.
type decodeCase struct {
	name    string
	key     string // the bank's name@version, or instruct's
	input   []byte
	wantErr int // number of violations every implementation must report
	// generated runs the generated decoder and returns its violations.
	generated func([]byte) (schema.Errors, error)
	// typed returns a fresh pointer to the anchors' struct.
	typed func() any
}

var decodeCases = []decodeCase{
	{
		name: "lookup-valid", key: "payments.lookup@1.0.0", input: lookupValid,
		generated: func(b []byte) (schema.Errors, error) {
			_, errs, err := bank.DecodePaymentsLookupV1_0_0Args(b)
			return errs, err
		},
		typed: func() any { return new(lookupArgs) },
	},
	{
		name: "lookup-invalid", key: "payments.lookup@1.0.0", input: lookupInvalid, wantErr: 3,
		generated: func(b []byte) (schema.Errors, error) {
			_, errs, err := bank.DecodePaymentsLookupV1_0_0Args(b)
			return errs, err
		},
		typed: func() any { return new(lookupArgs) },
	},
	{
		name: "release-valid", key: "payments.release@1.0.0", input: releaseValid,
		generated: func(b []byte) (schema.Errors, error) {
			_, errs, err := bank.DecodePaymentsReleaseV1_0_0Args(b)
			return errs, err
		},
		typed: func() any { return new(releaseArgs) },
	},
	{
		name: "lookup-long-valid", key: "payments.lookup@2.0.0", input: lookupLongValid,
		generated: func(b []byte) (schema.Errors, error) {
			_, errs, err := bank.DecodePaymentsLookupV2_0_0Args(b)
			return errs, err
		},
		typed: func() any { return new(lookupV2Args) },
	},
	{
		name: "instruct-valid", key: "payments.instruct@1.0.0", input: instructValid,
		generated: func(b []byte) (schema.Errors, error) {
			_, errs, err := instruct.DecodePaymentsInstructV1_0_0Args(b)
			return errs, err
		},
		typed: func() any { return new(instructArgs) },
	},
	{
		name: "instruct-long-valid", key: "payments.instruct@1.0.0", input: instructLongValid,
		generated: func(b []byte) (schema.Errors, error) {
			_, errs, err := instruct.DecodePaymentsInstructV1_0_0Args(b)
			return errs, err
		},
		typed: func() any { return new(instructArgs) },
	},
	{
		name: "instruct-invalid", key: "payments.instruct@1.0.0", input: instructInvalid, wantErr: 5,
		generated: func(b []byte) (schema.Errors, error) {
			_, errs, err := instruct.DecodePaymentsInstructV1_0_0Args(b)
			return errs, err
		},
		typed: func() any { return new(instructArgs) },
	},
}

// specOf is the spec of a decode row's version: the bank's or instruct's.
func specOf(tb testing.TB, key string) estate.ToolSpec {
	tb.Helper()
	for _, s := range instruct.Specs() {
		if s.Key() == key {
			return s
		}
	}
	return bankSpec(tb, key)
}

// compileSanthosh compiles a schema document once, as a service would,
// asserting formats as mcpgen does (the same work on both sides).
func compileSanthosh(tb testing.TB, doc []byte) *sjs.Schema {
	tb.Helper()
	v, err := sjs.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		tb.Fatal(err)
	}
	c := sjs.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("schema.json", v); err != nil {
		tb.Fatal(err)
	}
	s, err := c.Compile("schema.json")
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// resolveGoogle resolves a schema document once, as the official Go SDK does
// when a tool is added (ValidateDefaults, as its setSchema asks).
func resolveGoogle(tb testing.TB, doc []byte) *gjs.Resolved {
	tb.Helper()
	var s gjs.Schema
	if err := json.Unmarshal(doc, &s); err != nil {
		tb.Fatal(err)
	}
	r, err := s.Resolve(&gjs.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// sdkArgumentPath is the official Go SDK's per-call argument path for a
// tool added with mcp.AddTool, step by step with the libraries it uses
// (go-sdk v1.8.0, mcp/tool.go applySchema and the typed unmarshal after
// it): decode the arguments into a map with segmentio/encoding/json
// (case-sensitive field matching), apply the schema's defaults, validate,
// re-encode with encoding/json, and decode that into the typed input.
func sdkArgumentPath(r *gjs.Resolved, data []byte, in any) error {
	var m any = map[string]any{}
	dec := segjson.NewDecoder(bytes.NewReader(data))
	dec.DontMatchCaseInsensitiveStructFields()
	if err := dec.Decode(&m); err != nil {
		return err
	}
	if err := r.ApplyDefaults(&m); err != nil {
		return err
	}
	if err := r.Validate(&m); err != nil {
		return err
	}
	out, err := json.Marshal(m)
	if err != nil {
		return err
	}
	dec = segjson.NewDecoder(bytes.NewReader(out))
	dec.DontMatchCaseInsensitiveStructFields()
	return dec.Decode(in)
}

// TestDecodeAgreement checks, before anything is timed, that every
// implementation in the decode table does the work the row claims: valid
// input is accepted by all, and the invalid input is refused by all, with
// the generated decoder reporting exactly the traced call's three errors (docs/concepts.md#the-estate).
func TestDecodeAgreement(t *testing.T) {
	for _, c := range decodeCases {
		doc := schemaJSON(t, specOf(t, c.key).InputSchema)
		errs, err := c.generated(c.input)
		if err != nil || len(errs) != c.wantErr {
			t.Errorf("%s: generated decoder: %v, %v; want %d violations", c.name, errs, err, c.wantErr)
		}
		valid := c.wantErr == 0
		v, _ := sjs.UnmarshalJSON(bytes.NewReader(c.input))
		if err := compileSanthosh(t, doc).Validate(v); (err == nil) != valid {
			t.Errorf("%s: santhosh-tekuri/jsonschema: %v", c.name, err)
		}
		r := resolveGoogle(t, doc)
		var m map[string]any
		if err := json.Unmarshal(c.input, &m); err != nil {
			t.Fatal(err)
		}
		if err := r.Validate(m); (err == nil) != valid {
			t.Errorf("%s: google/jsonschema-go: %v", c.name, err)
		}
		if err := sdkArgumentPath(r, c.input, c.typed()); (err == nil) != valid {
			t.Errorf("%s: SDK argument path: %v", c.name, err)
		}
	}
	want := []string{
		"$.include_legs: expected type boolean, got string",
		"$.reference: does not match pattern '^PMT-\\d{3,}$'",
		"$.urgent: additional property is not allowed",
	}
	errs, _ := decodeCases[1].generated(lookupInvalid)
	if got := errs.Strings(); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("the traced call: got %q, want %q", got, want)
	}
}

// BenchmarkDecode is the decode table: each case decodes and validates the
// same raw bytes against the same schema, one sub-benchmark per
// implementation. "mcpgen" is the generated decoder (typed value and every
// violation, sorted); the anchors are santhosh-tekuri/jsonschema/v6 compiled
// once (decode to any, validate), google/jsonschema-go as the official Go SDK
// calls it (decode to a map, validate), the SDK's whole per-call argument
// path, and encoding/json into the typed struct with no validation at all
// (the floor).
func BenchmarkDecode(b *testing.B) {
	for _, c := range decodeCases {
		doc := schemaJSON(b, specOf(b, c.key).InputSchema)
		sanSchema := compileSanthosh(b, doc)
		resolved := resolveGoogle(b, doc)
		input := c.input

		b.Run(c.name+"/impl=mcpgen", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.generated(input); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/impl=santhosh-tekuri", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v, err := sjs.UnmarshalJSON(bytes.NewReader(input))
				if err != nil {
					b.Fatal(err)
				}
				_ = sanSchema.Validate(v)
			}
		})
		b.Run(c.name+"/impl=google-jsonschema-go", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var m map[string]any
				if err := json.Unmarshal(input, &m); err != nil {
					b.Fatal(err)
				}
				_ = resolved.Validate(m)
			}
		})
		b.Run(c.name+"/impl=go-sdk-args-path", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = sdkArgumentPath(resolved, input, c.typed())
			}
		})
		b.Run(c.name+"/impl=encoding-json-floor", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = json.Unmarshal(input, c.typed())
			}
		})
	}
}

// TestInstructIsUpToDate checks that package instruct is what mcpgen
// generates from testdata/instruct now (go generate regenerates it).
func TestInstructIsUpToDate(t *testing.T) {
	out := t.TempDir()
	if _, err := gen.Generate(gen.Options{Manifests: "testdata/instruct", Out: out, Package: "instruct"}); err != nil {
		t.Fatal(err)
	}
	gentest.SameFiles(t, out, "instruct", "run go generate in bench")
}
