package estate

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Small contracts whose classification is unambiguous.
var (
	// base is the starting contract: one required property, closed.
	base = `{"type":"object","properties":{"reference":{"type":"string"}},"required":["reference"],"additionalProperties":false}`
	// withOptional adds an optional property to the closed object: minor.
	withOptional = `{"type":"object","properties":{"reference":{"type":"string"},"legs":{"type":"boolean"}},"required":["reference"],"additionalProperties":false}`
	// withTwoOptional adds a second optional property: minor from withOptional.
	withTwoOptional = `{"type":"object","properties":{"reference":{"type":"string"},"legs":{"type":"boolean"},"urgent":{"type":"boolean"}},"required":["reference"],"additionalProperties":false}`
	// withRequired adds a required property: major.
	withRequired = `{"type":"object","properties":{"reference":{"type":"string"},"account":{"type":"string"}},"required":["account","reference"],"additionalProperties":false}`
	// described only adds a description: patch.
	described = `{"type":"object","description":"Look up a payment.","properties":{"reference":{"type":"string"}},"required":["reference"],"additionalProperties":false}`
)

// spec returns a valid active spec of name@version with the input schema in.
func spec(name, version, in string) ToolSpec {
	return ToolSpec{
		Name:               name,
		Version:            MustParseVersion(version),
		Title:              name,
		Description:        "A tool.",
		InputSchema:        schema.MustParseJSON(in),
		SideEffect:         Read,
		DataClassification: Internal,
		Owner:              "payments-team",
	}
}

func mustPublish(t testing.TB, r *Registry, s ToolSpec) {
	t.Helper()
	if err := r.Publish(s); err != nil {
		t.Fatalf("Publish(%s): %v", s.Key(), err)
	}
}

// publishErr publishes s and returns the *PublishError it must be refused
// with.
func publishErr(t *testing.T, r *Registry, s ToolSpec) *PublishError {
	t.Helper()
	err := r.Publish(s)
	if err == nil {
		t.Fatalf("Publish(%s) accepted, want a refusal", s.Key())
	}
	pe, ok := err.(*PublishError)
	if !ok {
		t.Fatalf("Publish(%s) error is %T, want *PublishError: %v", s.Key(), err, err)
	}
	return pe
}

func keys(specs []ToolSpec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Key()
	}
	return out
}
