package optional_test

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/encode"
	"github.com/mcpgen/mcpgen/runtime/optional"
)

type args struct {
	Reference   string                `json:"reference"`
	IncludeLegs optional.Value[bool]  `json:"include_legs,omitzero"`
	Limit       optional.Value[int64] `json:"limit,omitzero"`
}

func TestOmitzeroLeavesUnsetOut(t *testing.T) {
	b, err := json.Marshal(args{Reference: "PMT-1", IncludeLegs: optional.Some(false)})
	if err != nil {
		t.Fatal(err)
	}
	// false is present (set), limit is absent.
	if string(b) != `{"reference":"PMT-1","include_legs":false}` {
		t.Errorf("got %s", b)
	}
	var back args
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if v, ok := back.IncludeLegs.Get(); !ok || v {
		t.Errorf("include_legs = %v, %v", v, ok)
	}
	if back.Limit.Set || back.Limit.Or(7) != 7 {
		t.Errorf("limit = %+v", back.Limit)
	}
}

type patch struct {
	Due  optional.Nullable[string] `json:"due,omitzero"`
	Note optional.Nullable[string] `json:"note,omitzero"`
	Tag  optional.Nullable[string] `json:"tag,omitzero"`
}

func TestNullableKeepsAbsentNullAndValueApart(t *testing.T) {
	in := patch{Due: optional.Null[string](), Note: optional.NotNull("x")}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"due":null,"note":"x"}` {
		t.Errorf("got %s", b)
	}
	var back patch
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !back.Due.IsNull() || back.Due.IsZero() {
		t.Errorf("due = %+v, want present and null", back.Due)
	}
	if v, ok := back.Note.Get(); !ok || v != "x" || back.Note.IsNull() {
		t.Errorf("note = %+v", back.Note)
	}
	if !back.Tag.IsZero() || back.Tag.IsNull() {
		t.Errorf("tag = %+v, want absent", back.Tag)
	}
	if _, ok := back.Due.Get(); ok {
		t.Error("a null has a value")
	}
}

// TestMarshalLeavesHTMLToTheEncoder: a Value or Nullable writes "<" as it
// is, so that the encoding around it decides: json.Marshal escapes it, an
// encoder without HTML escaping (the server's) does not, as for a string
// of the struct's own.
func TestMarshalLeavesHTMLToTheEncoder(t *testing.T) {
	type note struct {
		Plain string                    `json:"plain"`
		Opt   optional.Value[string]    `json:"opt,omitzero"`
		Null  optional.Nullable[string] `json:"null,omitzero"`
	}
	v := note{Plain: "<a&b>", Opt: optional.Some("<a&b>"), Null: optional.NotNull("<a&b>")}
	escaped, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"plain":"\u003ca\u0026b\u003e","opt":"\u003ca\u0026b\u003e","null":"\u003ca\u0026b\u003e"}`; string(escaped) != want {
		t.Errorf("json.Marshal: %s, want %s", escaped, want)
	}
	plain, err := encode.Reflect(v)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"plain":"<a&b>","opt":"<a&b>","null":"<a&b>"}`; string(plain) != want {
		t.Errorf("without HTML escaping: %s, want %s", plain, want)
	}
}
