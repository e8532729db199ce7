package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/internal/textdec"
)

// A JSON value, as this package sees it, is one of:
//
//	nil             JSON null
//	bool            JSON true / false
//	json.Number     a JSON number, kept as its literal text
//	string          a JSON string
//	[]any           a JSON array
//	map[string]any  a JSON object
//
// That is what [DecodeJSON] produces. Numbers stay literal because the
// difference between 5 and 5.0 is part of the contract: the first is an
// integer, the second is not. For the convenience of Go callers the functions
// here also accept float64, float32 and the int types, which they treat as the
// numbers they print as.

// Kind names the JSON type of a value, in the words JSON Schema uses.
type Kind uint8

// The JSON kinds. KindInteger is a number whose literal has no fraction and no
// exponent; every integer is also a number.
const (
	KindInvalid Kind = iota
	KindNull
	KindBoolean
	KindInteger
	KindNumber
	KindString
	KindArray
	KindObject
)

var kindNames = [...]string{
	KindInvalid: "invalid",
	KindNull:    "null",
	KindBoolean: "boolean",
	KindInteger: "integer",
	KindNumber:  "number",
	KindString:  "string",
	KindArray:   "array",
	KindObject:  "object",
}

// String returns the JSON Schema type name of k.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// KindOf reports the JSON kind of v. A value that is not a JSON value
// (a channel, a func, NaN) is KindInvalid.
func KindOf(v any) Kind {
	switch v := v.(type) {
	case nil:
		return KindNull
	case bool:
		return KindBoolean
	case json.Number:
		switch {
		case IsIntegerLiteral(string(v)):
			return KindInteger
		case IsNumberLiteral(string(v)):
			// Even a literal beyond a double's range is a JSON number;
			// whether it fits is the validator's question, not a type.
			return KindNumber
		}
		return KindInvalid
	case float64:
		return floatKind(v)
	case float32:
		f, _ := NumberValue(v)
		return floatKind(f)
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return KindInteger
	case string:
		return KindString
	case []any:
		return KindArray
	case map[string]any:
		return KindObject
	}
	return KindInvalid
}

func floatKind(f float64) Kind {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return KindInvalid
	}
	// A Go float carries no literal; it is an integer exactly when it prints as
	// one, which is what encoding/json would send.
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return KindInteger
	}
	return KindNumber
}

// IsIntegerLiteral reports whether s (a string or the bytes of one, such as a
// decoder's raw number) is a JSON number literal with neither a
// fraction nor an exponent: "5" and "-12" are, "5.0" and "1e3" are not.
func IsIntegerLiteral[T ~string | ~[]byte](s T) bool {
	if len(s) == 0 {
		return false
	}
	i := 0
	if s[0] == '-' {
		i = 1
	}
	if i == len(s) {
		return false
	}
	if s[i] == '0' {
		return i+1 == len(s)
	}
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// IsNumberLiteral reports whether s is exactly a JSON number literal
// (RFC 8259 §6): no leading '+', no leading zeros, no "NaN" or "Inf", no
// surrounding space.
func IsNumberLiteral(s string) bool {
	i, n := 0, len(s)
	if i < n && s[i] == '-' {
		i++
	}
	if i == n {
		return false
	}
	switch {
	case s[i] == '0':
		i++
	case s[i] >= '1' && s[i] <= '9':
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < n && s[i] == '.' {
		i++
		start := i
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == n
}

// NumberValue returns v as a float64 when v is a JSON number.
func NumberValue(v any) (float64, bool) {
	switch v := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		return f, err == nil
	case float64:
		return v, !math.IsNaN(v) && !math.IsInf(v, 0)
	case float32:
		// The shortest decimal that round-trips the float32, so 0.1 is
		// 0.1 and not the widened 0.10000000149011612.
		f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(v), 'g', -1, 32), 64)
		return f, !math.IsNaN(f) && !math.IsInf(f, 0)
	case int:
		return float64(v), true
	case int8:
		return float64(v), true
	case int16:
		return float64(v), true
	case int32:
		return float64(v), true
	case int64:
		return float64(v), true
	case uint:
		return float64(v), true
	case uint8:
		return float64(v), true
	case uint16:
		return float64(v), true
	case uint32:
		return float64(v), true
	case uint64:
		return float64(v), true
	}
	return 0, false
}

// ErrTrailingData is returned by DecodeJSON when more than one JSON value is
// present (errors.Is).
var ErrTrailingData = textdec.ErrTrailingData

// DecodeJSON decodes one JSON value into the representation described at the
// top of this file. It is strict where parsers disagree, because a value two
// parsers read differently is a way past a check: invalid UTF-8 (including
// an escaped lone surrogate) and duplicate object member names at any depth
// are errors, as is anything after the value. The text is checked by the
// same scanner that checks whole messages (runtime/internal/textdec), so
// arguments that reach a validator have one reading, and then built.
func DecodeJSON(data []byte) (any, error) {
	if err := textdec.Validate(data); err != nil {
		return nil, err
	}
	return buildValue(textdec.TrimSpace(data)), nil
}

// buildValue builds the value of text Validate accepted.
func buildValue(v []byte) any {
	switch textdec.Kind(v) {
	case '{':
		m := map[string]any{}
		var buf [64]byte
		textdec.EachMember(v, func(member textdec.Member) {
			m[string(member.UnquotedName(buf[:0]))] = buildValue(member.Value)
		})
		return m
	case '[':
		a := []any{}
		textdec.EachElement(v, func(value []byte) {
			a = append(a, buildValue(value))
		})
		return a
	case '"':
		if len(v) >= 2 && bytes.IndexByte(v, '\\') < 0 {
			return string(v[1 : len(v)-1])
		}
		s, _ := textdec.AppendUnquote(nil, v)
		return string(s)
	case '0':
		return json.Number(string(v))
	case 't':
		return true
	case 'f':
		return false
	}
	return nil
}

// Equal reports whether a and b are the same JSON value: numbers compare by
// value (1 equals 1.0), booleans never equal numbers, objects compare without
// regard to key order.
func Equal(a, b any) bool {
	ka, kb := KindOf(a), KindOf(b)
	numeric := func(k Kind) bool { return k == KindInteger || k == KindNumber }
	if numeric(ka) && numeric(kb) {
		return numberEqual(a, b)
	}
	if ka != kb {
		return false
	}
	switch ka {
	case KindNull:
		return true
	case KindBoolean:
		return a.(bool) == b.(bool)
	case KindString:
		return a.(string) == b.(string)
	case KindArray:
		x, y := a.([]any), b.([]any)
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case KindObject:
		x, y := a.(map[string]any), b.(map[string]any)
		if len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !Equal(xv, yv) {
				return false
			}
		}
		return true
	}
	return false
}

// numberEqual compares two numbers exactly when both are integers that fit
// in 64 bits and as IEEE-754 doubles otherwise (the same precision the
// canonical form has).
func numberEqual(a, b any) bool {
	if x, ok := exactInt(a); ok {
		if y, ok := exactInt(b); ok {
			return x == y
		}
	}
	x, _ := NumberValue(a)
	y, _ := NumberValue(b)
	return x == y
}

func exactInt(v any) (int64, bool) {
	switch v := v.(type) {
	case json.Number:
		if !IsIntegerLiteral(string(v)) {
			return 0, false
		}
		n, err := strconv.ParseInt(string(v), 10, 64)
		return n, err == nil
	case int:
		return int64(v), true
	case int64:
		return v, true
	case int32:
		return int64(v), true
	}
	return 0, false
}

// describe names a Go value that is not JSON, for error messages.
func describe(v any) string {
	return fmt.Sprintf("%T", v)
}

// Clone returns a deep copy of the objects and arrays of v (a nil map or
// slice stays nil); other values are immutable and returned as they are.
func Clone(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if v == nil {
			return v
		}
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = Clone(e)
		}
		return out
	case []any:
		if v == nil {
			return v
		}
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = Clone(e)
		}
		return out
	}
	return v
}
