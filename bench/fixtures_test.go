package bench

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// The seed's inputs (seed 000 §6 and the worked session of seed 001).
var (
	// lookupValid is the call the model makes after repair.
	lookupValid = []byte(`{"reference": "PMT-771", "include_legs": true}`)
	// lookupInvalid is the traced call: three errors (include_legs is not
	// a boolean, reference misses the pattern, urgent is not allowed).
	lookupInvalid = []byte(`{"reference": "PMT771", "include_legs": "yes", "urgent": true}`)
	// releaseValid exercises an integer bound, an enum and a pattern.
	releaseValid = []byte(`{"reference": "PMT-771", "amount_minor": 250000, "currency": "AED"}`)
	// lookupV2Valid are arguments of payments.lookup 2.0.0, the version a
	// call without a pin reaches in the bank's estate.
	lookupV2Valid = []byte(`{"reference": "PMT-771", "include_legs": true, "as_of": "2026-03-12"}`)
)

// The plain structs a hand-written service would decode into: the anchors'
// typed targets (the generated types hold optional.Value, which only the
// generated code needs).
type lookupArgs struct {
	Reference   string `json:"reference"`
	IncludeLegs *bool  `json:"include_legs,omitempty"`
}

type lookupV2Args struct {
	Reference   string `json:"reference"`
	IncludeLegs *bool  `json:"include_legs,omitempty"`
	AsOf        string `json:"as_of"`
}

type releaseArgs struct {
	Reference   string `json:"reference"`
	AmountMinor int64  `json:"amount_minor"`
	Currency    string `json:"currency"`
}

// bankSpec returns the bank estate's name@version spec, as the generated
// package publishes it.
func bankSpec(tb testing.TB, key string) estate.ToolSpec {
	tb.Helper()
	for _, s := range bank.Specs() {
		if s.Key() == key {
			return s
		}
	}
	tb.Fatalf("no spec %s in the bank's estate", key)
	return estate.ToolSpec{}
}

// schemaJSON is a schema as written, for the anchors to compile: the same
// document the generated decoder was generated from.
func schemaJSON(tb testing.TB, s *schema.Schema) []byte {
	tb.Helper()
	b, err := json.Marshal(s.Document())
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
