package encode_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/encode"
)

// floats are the edges of encoding/json's float form: both sides of its
// 1e-6 and 1e21 cut-overs, exponents of one, two and three digits, the
// negative zero, the extremes.
var floats = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.1, 1.5, 100, 1e20, 1e21, 1.5e21, -1e21, 9.999999999999999e20,
	1e-6, 9.99e-7, 1e-7, -1e-7, 1.2345e-10, 5e-324, math.MaxFloat64, -math.MaxFloat64,
	math.SmallestNonzeroFloat64, 123456789.125, 1e100, 1e-100, 3.14159,
}

// TestFloatIsEncodingJSONs holds Float to json.Marshal of a float64.
func TestFloatIsEncodingJSONs(t *testing.T) {
	for _, f := range floats {
		checkFloat(t, f)
	}
}

func checkFloat(t *testing.T, f float64) {
	t.Helper()
	want, wantErr := json.Marshal(f)
	got, err := encode.Float([]byte("x:"), f)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("Float(%v) error %v, json.Marshal's %v", f, err, wantErr)
	}
	if err == nil && string(got) != "x:"+string(want) {
		t.Errorf("Float(%v) = %s, json.Marshal %s", f, got, want)
	}
}

// TestFloatRefusesWhatJSONCannotWrite: NaN and the infinities are errors.
func TestFloatRefusesWhatJSONCannotWrite(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if b, err := encode.Float(nil, f); err == nil {
			t.Errorf("Float(%v) = %s, want an error", f, b)
		}
	}
}

// FuzzFloat holds Float to json.Marshal of a float64 on any bits: the same
// text for every number, an error for NaN and the infinities.
func FuzzFloat(f *testing.F) {
	for _, x := range floats {
		f.Add(math.Float64bits(x))
	}
	f.Fuzz(func(t *testing.T, bits uint64) { checkFloat(t, math.Float64frombits(bits)) })
}

// TestEndObject: the first member's comma becomes the brace; no member is
// an empty object; what b held before start is left alone.
func TestEndObject(t *testing.T) {
	for _, c := range []struct{ members, want string }{
		{"", "pre{}"},
		{`,"a":1`, `pre{"a":1}`},
		{`,"a":1,"b":[]`, `pre{"a":1,"b":[]}`},
	} {
		b := append([]byte("pre"), c.members...)
		if got := string(encode.EndObject(b, len("pre"))); got != c.want {
			t.Errorf("EndObject(%q) = %s, want %s", c.members, got, c.want)
		}
	}
}

// selfWritten writes itself, unlike what encoding/json would make of it.
type selfWritten struct{ V int }

func (selfWritten) AppendJSON(b []byte) ([]byte, error) { return append(b, `"self"`...), nil }

// TestMarshal: no HTML escaping, map keys sorted, an Appender asked to
// write itself (when it is the value), by Marshal and by Append after what
// b holds.
func TestMarshal(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{map[string]any{"z": "<a&b>", "a": 1}, `{"a":1,"z":"<a&b>"}`},
		{selfWritten{V: 1}, `"self"`},
		// Inside a value encoding/json writes, an Appender is a value like
		// any other: its encoding is the same by its contract.
		{[]any{selfWritten{}, "\u2028"}, `[{"V":0},"\u2028"]`},
	} {
		got, err := encode.Marshal(c.v)
		if err != nil || string(got) != c.want {
			t.Errorf("Marshal(%#v) = %s, %v; want %s", c.v, got, err, c.want)
		}
		got, err = encode.Append([]byte("pre"), c.v)
		if err != nil || string(got) != "pre"+c.want {
			t.Errorf("Append(pre, %#v) = %s, %v; want pre%s", c.v, got, err, c.want)
		}
	}
	// A nil pointer to an Appender is null, as encoding/json writes it,
	// not a call of its method on nil.
	if got, err := encode.Marshal((*selfWritten)(nil)); err != nil || string(got) != "null" {
		t.Errorf("Marshal of a nil *selfWritten = %s, %v; want null", got, err)
	}
	if got, err := encode.Append([]byte("pre"), (*selfWritten)(nil)); err != nil || string(got) != "prenull" {
		t.Errorf("Append of a nil *selfWritten = %s, %v; want prenull", got, err)
	}
	// Reflect is encoding/json's, the type's own encoding left aside.
	if got, err := encode.Reflect(selfWritten{V: 2}); err != nil || string(got) != `{"V":2}` {
		t.Errorf("Reflect of a selfWritten = %s, %v; want {\"V\":2}", got, err)
	}
	if got, err := encode.Marshal(&selfWritten{}); err != nil || string(got) != `"self"` {
		t.Errorf("Marshal of a *selfWritten = %s, %v; want \"self\"", got, err)
	}
	if _, err := encode.Marshal(math.NaN()); err == nil {
		t.Error("Marshal(NaN) did not fail")
	}
}

// TestTooDeep: nil below MaxDepth, an error from it on.
func TestTooDeep(t *testing.T) {
	for _, c := range []struct {
		depth int
		fails bool
	}{{0, false}, {encode.MaxDepth - 1, false}, {encode.MaxDepth, true}, {encode.MaxDepth + 1, true}} {
		if err := encode.TooDeep(c.depth); (err != nil) != c.fails {
			t.Errorf("TooDeep(%d) = %v", c.depth, err)
		}
	}
}
