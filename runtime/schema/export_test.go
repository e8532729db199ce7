package schema

// The tests that draw from the generated corpus (internal/schemacorpus,
// which imports this package) are in package schema_test; these are the
// internals they check.

// IntegerLiteral is integerLiteral, the digit arithmetic of the integral
// conversion.
var IntegerLiteral = integerLiteral

// Decimal is the normal form of a JSON number literal (see decimal), with
// its fields exported.
type Decimal struct {
	Neg    bool
	Digits string
	Exp    int
}

// ParseDecimal is parseDecimal.
func ParseDecimal(lit string) (Decimal, bool) {
	d, ok := parseDecimal(lit)
	return Decimal{Neg: d.neg, Digits: d.digits, Exp: d.exp}, ok
}

// RangeError is the message of the range check that follows the type check
// for v, or "" (see rangeError).
func (s *Schema) RangeError(v any) string { return s.rangeError(v, KindOf(v)) }
