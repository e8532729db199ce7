package bench

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/examples/bankpayments/bank"
	"github.com/mcpgen/mcpgen/runtime/estate"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// The sample estate's inputs: the traced call and the worked session
// (docs/concepts.md#the-estate).
var (
	// lookupValid is the call the model makes after repair.
	lookupValid = []byte(`{"reference": "PMT-771", "include_legs": true}`)
	// lookupInvalid is the traced call: three errors (include_legs is not
	// a boolean, reference misses the pattern, urgent is not allowed).
	lookupInvalid = []byte(`{"reference": "PMT771", "include_legs": "yes", "urgent": true}`)
	// releaseValid exercises an integer bound, an enum and a pattern.
	releaseValid = []byte(`{"reference": "PMT-771", "amount_minor": 250000, "currency": "AED"}`)
	// lookupV2Valid are arguments of payments.lookup 2.0.0 and 3.0.0, the
	// latter the version a call without a pin reaches in the bank's estate
	// (unpinnedLookup).
	lookupV2Valid = []byte(`{"reference": "PMT-771", "include_legs": true, "as_of": "2026-03-12"}`)
	// lookupLongValid are arguments of payments.lookup 2.0.0 (about 190
	// bytes) whose strings are long: a reference with many digits for the
	// pattern to walk and a free-text as_of.
	lookupLongValid = []byte(`{"reference": "PMT-7710000000000000000000000000000000000000000000000000", "include_legs": true, "as_of": "the close of business on the last working day of March 2026, Dubai time, before the cut-off"}`)
	// instructValid are arguments of payments.instruct, the $ref/oneOf
	// row: two parties through $ref, their accounts a union told apart by
	// "kind", a nullable address, formats.
	instructValid = []byte(`{"instruction_id": "3f2b8c1e-9d4a-4e7b-8c21-5a6f0e9d1b23",
		"amount": {"amount_minor": 250000, "currency": "AED"},
		"debtor": {"name": "Acme Trading FZE", "account": {"kind": "iban", "iban": "AE070331234567890123456"},
			"address": {"street": "Sheikh Zayed Road 1", "city": "Dubai", "country": "AE"}},
		"creditor": {"name": "Blue Dhow LLC", "account": {"kind": "wallet", "wallet_id": "7c9e6679-7425-40de-944b-e07fc1f90ae7"}, "address": null},
		"execute_on": "2026-03-12", "purpose": "invoice 2026-114", "tags": ["trade", "q1"]}`)
	// instructLongValid is instructValid with every bounded string at its
	// bound in Arabic script (two bytes a code point, so maxLength is
	// counted in code points, not bytes) and five tags: about 1.4 KB.
	instructLongValid = []byte(`{"instruction_id": "3f2b8c1e-9d4a-4e7b-8c21-5a6f0e9d1b23",
		"amount": {"amount_minor": 250000, "currency": "AED"},
		"debtor": {"name": "` + strings.Repeat("شركة أكمي", 14) + `", "account": {"kind": "iban", "iban": "AE070331234567890123456789012345"},
			"address": {"street": "` + strings.Repeat("شارع الشيخ زايد ", 6) + `", "city": "دبي", "country": "AE"}},
		"creditor": {"name": "` + strings.Repeat("ذا بلو داو ", 12) + `abcdefgh", "account": {"kind": "card", "pan": "4111111111111111", "expiry": "04/29"}, "address": null},
		"execute_on": "2026-03-12", "purpose": "` + strings.Repeat("فاتورة رقم ١١٤ ", 9) + `12345", "tags": ["` + strings.Repeat("ت", 20) + `", "trade", "q1", "` + strings.Repeat("x", 20) + `", "قسط"]}`)
	// instructInvalid breaks it in five places: a date that does not
	// exist, a card number too short, an unknown kind of account, a
	// currency outside the enum and an undeclared property.
	instructInvalid = []byte(`{"instruction_id": "3f2b8c1e-9d4a-4e7b-8c21-5a6f0e9d1b23",
		"amount": {"amount_minor": 250000, "currency": "XAU"},
		"debtor": {"name": "Acme Trading FZE", "account": {"kind": "card", "pan": "4111111111", "expiry": "04/29"}},
		"creditor": {"name": "Blue Dhow LLC", "account": {"kind": "cheque", "number": "000117"}},
		"execute_on": "2026-02-30", "urgent": true}`)
)

// The plain structs a hand-written service would decode into: the anchors'
// typed targets (the generated types hold optional.Value, which only the
// generated code needs).
type lookupArgs struct {
	Reference   string `json:"reference"`
	IncludeLegs *bool  `json:"include_legs,omitempty"`
}

// instructArgs is payments.instruct as a hand-written service would
// declare it for encoding/json (the account union as its fields merged).
type instructArgs struct {
	InstructionID string        `json:"instruction_id"`
	Amount        instructMoney `json:"amount"`
	Debtor        instructParty `json:"debtor"`
	Creditor      instructParty `json:"creditor"`
	ExecuteOn     string        `json:"execute_on"`
	Purpose       *string       `json:"purpose,omitempty"`
	Tags          []string      `json:"tags,omitempty"`
}

type instructMoney struct {
	AmountMinor int64  `json:"amount_minor"`
	Currency    string `json:"currency"`
}

type instructParty struct {
	Name    string `json:"name"`
	Account struct {
		Kind     string `json:"kind"`
		IBAN     string `json:"iban,omitempty"`
		Pan      string `json:"pan,omitempty"`
		Expiry   string `json:"expiry,omitempty"`
		WalletID string `json:"wallet_id,omitempty"`
	} `json:"account"`
	Address *struct {
		Street  string `json:"street,omitempty"`
		City    string `json:"city"`
		Country string `json:"country"`
	} `json:"address,omitempty"`
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

// unpinnedLookup is the version of payments.lookup a call without a pin
// reaches in the bank's estate, whose schema the anchors of the call and
// HTTP rows validate against: every server does the same work.
// BenchmarkCall checks that mcpgen's answer names it.
const unpinnedLookup = "payments.lookup@3.0.0"
