package schema_test

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

func TestIsIntegerLiteral(t *testing.T) {
	tests := map[string]bool{
		"0": true, "-0": true, "5": true, "-12": true, "10": true,
		"123456789012345678901234567890": true,
		"":                               false, "-": false, "01": false, "-01": false, "00": false,
		"5.0": false, "1e3": false, "1E3": false, "1.": false, ".5": false,
		"+1": false, " 1": false, "1 ": false, "--1": false, "1-": false,
		"0x10": false, "1_000": false, "NaN": false, "Infinity": false, "١": false,
	}
	for in, want := range tests {
		if got := schema.IsIntegerLiteral(in); got != want {
			t.Errorf("IsIntegerLiteral(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestIsNumberLiteral(t *testing.T) {
	tests := map[string]bool{
		"0": true, "-0": true, "5": true, "-12": true, "0.0": true, "1.5": true, "-1.5": true,
		"1e5": true, "1E5": true, "1e+5": true, "1e-7": true, "-1.5E-10": true, "0e0": true,
		"10.01e010": true, "123456789012345678901234567890": true, "1e400": true,
		"": false, "-": false, "01": false, "-01": false, "00.5": false, "+1": false,
		".5": false, "-.5": false, "1.": false, "1.e5": false, "1e": false, "1e+": false,
		"1e-": false, "e5": false, "1.5.5": false, "1ee5": false, "1e5.5": false,
		"NaN": false, "Infinity": false, "-Infinity": false, "Inf": false,
		" 1": false, "1 ": false, "0x1p3": false, "1_000": false, "--1": false, "١": false,
	}
	for in, want := range tests {
		if got := schema.IsNumberLiteral(in); got != want {
			t.Errorf("IsNumberLiteral(%q) = %v, want %v", in, got, want)
		}
	}
	// Every integer literal is a number literal.
	for in := range tests {
		if schema.IsIntegerLiteral(in) && !schema.IsNumberLiteral(in) {
			t.Errorf("%q is an integer literal but not a number literal", in)
		}
	}
}

func TestKindOf(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want schema.Kind
	}{
		{"nil", nil, schema.KindNull},
		{"true", true, schema.KindBoolean},
		{"false", false, schema.KindBoolean},
		{"json.Number 5", json.Number("5"), schema.KindInteger},
		{"json.Number -0", json.Number("-0"), schema.KindInteger},
		{"json.Number beyond 64 bits", json.Number("123456789012345678901234567890"), schema.KindInteger},
		{"json.Number 5.0", json.Number("5.0"), schema.KindNumber},
		{"json.Number 1e2", json.Number("1e2"), schema.KindNumber},
		{"json.Number -1.5e-7", json.Number("-1.5e-7"), schema.KindNumber},
		{"json.Number beyond a double is still a JSON number", json.Number("1e400"), schema.KindNumber},
		{"json.Number NaN", json.Number("NaN"), schema.KindInvalid},
		{"json.Number with a plus sign", json.Number("+1"), schema.KindInvalid},
		{"json.Number that is not a number", json.Number("abc"), schema.KindInvalid},
		{"json.Number empty", json.Number(""), schema.KindInvalid},
		{"float64 5", float64(5), schema.KindInteger},
		{"float64 -0", math.Copysign(0, -1), schema.KindInteger},
		{"float64 1e20", 1e20, schema.KindInteger},
		{"float64 1e21 (prints as 1e+21)", 1e21, schema.KindNumber},
		{"float64 5.5", 5.5, schema.KindNumber},
		{"float64 NaN", math.NaN(), schema.KindInvalid},
		{"float64 +Inf", math.Inf(1), schema.KindInvalid},
		{"float64 -Inf", math.Inf(-1), schema.KindInvalid},
		{"float32 2", float32(2), schema.KindInteger},
		{"float32 2.5", float32(2.5), schema.KindNumber},
		{"float32 NaN", float32(math.NaN()), schema.KindInvalid},
		{"int", int(-3), schema.KindInteger},
		{"int8", int8(-3), schema.KindInteger},
		{"int16", int16(3), schema.KindInteger},
		{"int32", int32(3), schema.KindInteger},
		{"int64", int64(math.MinInt64), schema.KindInteger},
		{"uint", uint(3), schema.KindInteger},
		{"uint8", uint8(3), schema.KindInteger},
		{"uint16", uint16(3), schema.KindInteger},
		{"uint32", uint32(3), schema.KindInteger},
		{"uint64", uint64(math.MaxUint64), schema.KindInteger},
		{"string", "x", schema.KindString},
		{"empty string", "", schema.KindString},
		{"[]any", []any{1}, schema.KindArray},
		{"nil []any", []any(nil), schema.KindArray},
		{"map[string]any", map[string]any{"a": 1}, schema.KindObject},
		{"nil map[string]any", map[string]any(nil), schema.KindObject},
		{"[]string", []string{"a"}, schema.KindInvalid},
		{"map[string]string", map[string]string{}, schema.KindInvalid},
		{"[]byte", []byte("1"), schema.KindInvalid},
		{"json.RawMessage", json.RawMessage("1"), schema.KindInvalid},
		{"channel", make(chan int), schema.KindInvalid},
		{"func", func() {}, schema.KindInvalid},
		{"struct", struct{ A int }{1}, schema.KindInvalid},
		{"pointer", new(int), schema.KindInvalid},
		{"complex", complex(1, 0), schema.KindInvalid},
	}
	for _, tt := range tests {
		if got := schema.KindOf(tt.v); got != tt.want {
			t.Errorf("KindOf(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestKindString(t *testing.T) {
	tests := map[schema.Kind]string{
		schema.KindInvalid: "invalid",
		schema.KindNull:    "null",
		schema.KindBoolean: "boolean",
		schema.KindInteger: "integer",
		schema.KindNumber:  "number",
		schema.KindString:  "string",
		schema.KindArray:   "array",
		schema.KindObject:  "object",
		schema.Kind(200):   "invalid",
	}
	for k, want := range tests {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

func TestNumberValue(t *testing.T) {
	tests := []struct {
		v    any
		want float64
		ok   bool
	}{
		{json.Number("1.5"), 1.5, true},
		{json.Number("-1e2"), -100, true},
		{json.Number("x"), 0, false},
		{2.5, 2.5, true},
		{math.NaN(), 0, false},
		{math.Inf(-1), 0, false},
		{float32(0.5), 0.5, true},
		{int(-7), -7, true},
		{int8(-8), -8, true},
		{int16(16), 16, true},
		{int32(32), 32, true},
		{int64(64), 64, true},
		{uint(1), 1, true},
		{uint8(8), 8, true},
		{uint16(16), 16, true},
		{uint32(32), 32, true},
		{uint64(1 << 63), 1 << 63, true},
		{"1", 0, false},
		{true, 0, false},
		{nil, 0, false},
	}
	for _, tt := range tests {
		got, ok := schema.NumberValue(tt.v)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("NumberValue(%#v) = %v, %v; want %v, %v", tt.v, got, ok, tt.want, tt.ok)
		}
	}
}

func TestEqual(t *testing.T) {
	obj := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	n := func(s string) json.Number { return json.Number(s) }
	tests := []struct {
		name string
		a, b any
		want bool
	}{
		{"1 and 1.0", n("1"), n("1.0"), true},
		{"1 and 1e0", n("1"), n("1e0"), true},
		{"100 and 1e2", n("100"), n("1e2"), true},
		{"0 and -0", n("0"), n("-0"), true},
		{"0.1 and 0.10", n("0.1"), n("0.10"), true},
		{"1 and 2", n("1"), n("2"), false},
		{"json 1 and int 1", n("1"), 1, true},
		{"json 1.0 and float64 1", n("1.0"), 1.0, true},
		{"json 0.1 and float64 0.1", n("0.1"), 0.1, true},
		{"int8 and uint64", int8(3), uint64(3), true},
		{"float32 0.5 and json 0.5", float32(0.5), n("0.5"), true},
		{"max int64 exactly", n("9223372036854775807"), int64(math.MaxInt64), true},
		{"int64 neighbours differ though their doubles agree", n("9223372036854775806"), int64(math.MaxInt64), false},
		{"true and 1", true, n("1"), false},
		{"false and 0", false, n("0"), false},
		{"true and int 1", true, 1, false},
		{"true and true", true, true, true},
		{"true and false", true, false, false},
		{"null and null", nil, nil, true},
		{"null and false", nil, false, false},
		{"null and empty string", nil, "", false},
		{"null and empty object", nil, map[string]any{}, false},
		{"string and number", "1", n("1"), false},
		{"strings", "é", "é", true},
		{"strings differing in normalisation", "é", "e\u0301", false},
		{"arrays with equal numbers", []any{n("1"), "a"}, []any{n("1.0"), "a"}, true},
		{"arrays in another order", []any{n("1"), n("2")}, []any{n("2"), n("1")}, false},
		{"arrays of different lengths", []any{n("1")}, []any{n("1"), n("1")}, false},
		{"empty array and empty object", []any{}, map[string]any{}, false},
		{"objects regardless of key order", obj("a", n("1"), "b", n("2")), obj("b", n("2.0"), "a", n("1")), true},
		{"object missing a key", obj("a", n("1"), "b", n("2")), obj("a", n("1")), false},
		{"objects with other keys", obj("a", nil), obj("b", nil), false},
		{"object value null versus absent", obj("a", nil, "b", n("1")), obj("b", n("1"), "c", nil), false},
		{"nested", obj("a", []any{obj("x", true)}), obj("a", []any{obj("x", true)}), true},
		{"nested difference", obj("a", []any{obj("x", true)}), obj("a", []any{obj("x", n("1"))}), false},
		{"NaN is not a JSON value", math.NaN(), math.NaN(), false},
		{"channels are not JSON values", make(chan int), make(chan int), false},
	}
	for _, tt := range tests {
		if got := schema.Equal(tt.a, tt.b); got != tt.want {
			t.Errorf("Equal(%s) = %v, want %v", tt.name, got, tt.want)
		}
		if got := schema.Equal(tt.b, tt.a); got != tt.want {
			t.Errorf("Equal(%s), reversed = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestDecodeJSON(t *testing.T) {
	got, err := schema.DecodeJSON([]byte(` {"a": [1, 2.50, 1e2, "x", true, null, {}, []]} ` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": []any{
		json.Number("1"), json.Number("2.50"), json.Number("1e2"), "x", true, nil, map[string]any{}, []any{},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DecodeJSON = %#v\nwant %#v", got, want)
	}
	// Numbers keep their literal: 5 and 5.0 are different kinds.
	for in, kind := range map[string]schema.Kind{`5`: schema.KindInteger, `5.0`: schema.KindNumber, `null`: schema.KindNull, `"s"`: schema.KindString} {
		v, err := schema.DecodeJSON([]byte(in))
		if err != nil {
			t.Fatalf("DecodeJSON(%s): %v", in, err)
		}
		if schema.KindOf(v) != kind {
			t.Errorf("DecodeJSON(%s) is %v, want %v", in, schema.KindOf(v), kind)
		}
	}
}

func TestDecodeJSONRefusesTrailingData(t *testing.T) {
	for _, in := range []string{`1 2`, `{} {}`, `{}{}`, `[] ]`, `"a" "b"`, `null x`, `{"a": 1},`, `true false`} {
		if v, err := schema.DecodeJSON([]byte(in)); !errors.Is(err, schema.ErrTrailingData) {
			t.Errorf("DecodeJSON(%q) = %#v, %v; want ErrTrailingData", in, v, err)
		}
	}
}

func TestDecodeJSONRefusesMalformedInput(t *testing.T) {
	for _, in := range []string{``, `   `, `{`, `{"a":}`, `[1,]`, `{'a': 1}`, `NaN`, `01`, `+1`, `.5`, `tru`} {
		v, err := schema.DecodeJSON([]byte(in))
		if err == nil {
			t.Errorf("DecodeJSON(%q) = %#v, want an error", in, v)
		}
	}
}
