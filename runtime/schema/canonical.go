package schema

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/internal/textdec"
)

// Canonical JSON and the schema hash (docs/concepts.md#the-hash-and-drift).
//
// The canonical form is this RFC 8785 (JCS) subset: object keys
// sorted by their UTF-16 code units (the order JavaScript's sort gives, so a
// hash computed by a TypeScript peer agrees), no insignificant whitespace,
// arrays in order, numbers as ECMAScript prints a double (1.0, 1e0 and 10e-1
// are all "1"), strings with the minimal escaping RFC 8785 prescribes. Values
// that are not JSON (NaN, infinities, numbers beyond a double, invalid UTF-8,
// Go values of other types) are refused, never approximated: two peers must
// never hash different documents to the same form by accident.

// CanonicalJSON returns the canonical form of v, a JSON value as described in
// value.go.
func CanonicalJSON(v any) ([]byte, error) {
	var b []byte
	b, err := appendCanonical(b, v)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Canonicalize decodes data and returns its canonical form.
func Canonicalize(data []byte) ([]byte, error) {
	v, err := DecodeJSON(data)
	if err != nil {
		return nil, err
	}
	return CanonicalJSON(v)
}

// HashPrefix is the algorithm tag every schema hash starts with.
const HashPrefix = "fnv1a64:"

// HashValue returns the schema hash of v: FNV-1a 64 over the canonical form,
// written as "fnv1a64:" and 16 lower-case hex digits.
func HashValue(v any) (string, error) {
	b, err := CanonicalJSON(v)
	if err != nil {
		return "", err
	}
	return HashCanonical(b), nil
}

// HashCanonical hashes bytes that are already in canonical form.
func HashCanonical(canonical []byte) string {
	h := fnv.New64a()
	h.Write(canonical)
	return fmt.Sprintf("%s%016x", HashPrefix, h.Sum64())
}

// Encode returns v as compact JSON: keys sorted as CanonicalJSON sorts them,
// minimal string escapes, but numbers exactly as written. It is the form for
// storing and sending a value (a repaired argument list, a schema embedded
// in generated code), where CanonicalJSON is the form for hashing: a double
// cannot hold 9007199254740993, and what is sent must not be rounded.
func Encode(v any) ([]byte, error) {
	return appendJSON(nil, v, false)
}

func appendCanonical(b []byte, v any) ([]byte, error) {
	return appendJSON(b, v, true)
}

// appendJSON writes v; canonicalNumbers prints numbers as ECMAScript does
// (the hash form) instead of as written.
func appendJSON(b []byte, v any, canonicalNumbers bool) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		if v {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case string:
		return appendCanonicalString(b, v)
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSON(b, e, canonicalNumbers); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, CompareUTF16)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendCanonicalString(b, k); err != nil {
				return nil, err
			}
			b = append(b, ':')
			if b, err = appendJSON(b, v[k], canonicalNumbers); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case json.Number:
		if !IsNumberLiteral(string(v)) {
			return nil, fmt.Errorf("canonical JSON: %q is not a JSON number", string(v))
		}
		if !canonicalNumbers {
			return append(b, v...), nil // a JSON literal, as written
		}
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return nil, fmt.Errorf("canonical JSON: number %s does not fit a double", string(v))
		}
		return appendCanonicalNumber(b, f), nil
	}
	if KindOf(v) == KindInteger || KindOf(v) == KindNumber {
		f, _ := NumberValue(v)
		return appendCanonicalNumber(b, f), nil
	}
	return nil, fmt.Errorf("canonical JSON: %s is not a JSON value", describe(v))
}

// FormatNumber prints f as ECMAScript's Number.prototype.toString does, which
// is the number form of RFC 8785. f must be finite.
func FormatNumber(f float64) string {
	return string(appendCanonicalNumber(nil, f))
}

func appendCanonicalNumber(b []byte, f float64) []byte {
	if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		// -0 prints as 0; NaN and infinities never reach here (refused by
		// the callers), the guard only keeps this function total.
		return append(b, '0')
	}
	if f < 0 {
		b = append(b, '-')
		f = -f
	}
	// Shortest round-tripping digits and their exponent.
	e := strconv.FormatFloat(f, 'e', -1, 64) // d[.ddd]e±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1 // n: position of the decimal point
	switch {
	case k <= n && n <= 21:
		b = append(b, digits...)
		for i := 0; i < n-k; i++ {
			b = append(b, '0')
		}
	case 0 < n && n <= 21:
		b = append(b, digits[:n]...)
		b = append(b, '.')
		b = append(b, digits[n:]...)
	case -6 < n && n <= 0:
		b = append(b, "0."...)
		for i := 0; i < -n; i++ {
			b = append(b, '0')
		}
		b = append(b, digits...)
	default:
		b = append(b, digits[0])
		if k > 1 {
			b = append(b, '.')
			b = append(b, digits[1:]...)
		}
		b = append(b, 'e')
		if n-1 >= 0 {
			b = append(b, '+')
		}
		b = strconv.AppendInt(b, int64(n-1), 10)
	}
	return b
}

// appendCanonicalString writes s as RFC 8785 says: the quote, the
// backslash and the control characters escaped (the short forms where
// JSON has them, lower-case \u00xx for the rest), everything else as it
// is, which is what textdec.AppendQuote writes for valid UTF-8.
func appendCanonicalString(b []byte, s string) ([]byte, error) {
	if !utf8.ValidString(s) {
		return nil, fmt.Errorf("canonical JSON: string %q is not valid UTF-8", s)
	}
	return textdec.AppendQuote(b, s), nil
}

// CompareUTF16 orders strings by their UTF-16 code units, as RFC 8785 and
// JavaScript's default sort do. It differs from Go's byte order only between
// characters above U+FFFF and those in U+E000..U+FFFF.
func CompareUTF16(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := firstUnit(ra), firstUnit(rb)
			if ua != ub {
				if ua < ub {
					return -1
				}
				return 1
			}
			// Same high surrogate: code point order is unit order.
			if ra < rb {
				return -1
			}
			return 1
		}
		a, b = a[na:], b[nb:]
	}
	switch {
	case a == "" && b == "":
		return 0
	case a == "":
		return -1
	}
	return 1
}

func firstUnit(r rune) rune {
	if r < 0x10000 {
		return r
	}
	return 0xD800 + ((r - 0x10000) >> 10)
}
