package schema

import (
	"math"
	"math/big"
	"slices"
	"strconv"
)

// MultipleOf reports whether the number literal lit is a multiple of m,
// exactly, in decimal: 0.3 is a multiple of 0.1 (as a double it would not
// be), and 1e308 is a multiple of 0.5. The arithmetic is on the digits, so
// its cost is linear in the literal's length and independent of its
// exponent: 1e999999 costs what 1 does.
func MultipleOf(lit string, m *Bound) bool {
	v, ok := parseDecimal(lit)
	if !ok {
		// An exponent beyond a million: not a number a caller could mean,
		// and no value of any Go type.
		return false
	}
	if v.digits == "" {
		return true // zero is a multiple of everything
	}
	d, _ := parseDecimal(m.Literal())
	// v = m1·10^e1, d = m2·10^e2, neither m with a trailing zero.
	k := v.exp - d.exp
	if k < 0 {
		// m1 / (m2·10^-k) would need m1 to end in a zero.
		return false
	}
	// m2 | m1·10^k: 10^k helps only with m2's factors 2 and 5, so k
	// beyond their multiplicity changes nothing.
	m2 := new(big.Int)
	m2.SetString(d.digits, 10)
	return remainder(v.digits, min(k, twosAndFives(m2)), m2) == 0
}

// twosAndFives is the larger of the multiplicities of 2 and 5 in n (n > 0).
func twosAndFives(n *big.Int) int {
	count := func(p int64) int {
		c, x, r := 0, new(big.Int).Set(n), new(big.Int)
		bp := big.NewInt(p)
		for {
			q, rem := new(big.Int).QuoRem(x, bp, r)
			if rem.Sign() != 0 {
				return c
			}
			x, c = q, c+1
		}
	}
	return max(count(2), count(5))
}

// remainder is the sign of (digits·10^zeros) modulo m > 0, digits being a
// decimal natural number, computed digit by digit: linear in len(digits).
func remainder(digits string, zeros int, m *big.Int) int {
	if m.IsUint64() && m.Uint64() < 1<<56 {
		mod, r := m.Uint64(), uint64(0)
		for i := 0; i < len(digits); i++ {
			r = (r*10 + uint64(digits[i]-'0')) % mod
		}
		for range zeros {
			r = r * 10 % mod
		}
		if r != 0 {
			return 1
		}
		return 0
	}
	r, ten, d := new(big.Int), big.NewInt(10), new(big.Int)
	for i := 0; i < len(digits)+zeros; i++ {
		r.Mul(r, ten)
		if i < len(digits) {
			r.Add(r, d.SetInt64(int64(digits[i]-'0')))
		}
		r.Mod(r, m)
	}
	return r.Sign()
}

// The numeric formats, OpenAPI's: int32 and int64 are integral values
// within the range of those Go types, float a finite value a float32 can
// hold, double a finite value a float64 can hold. They are range checks on
// the value; whether 5.0 is acceptable at all is the type keyword's
// question.
var numberFormats = map[string]func(lit string) bool{
	"int32": func(lit string) bool { return integralIn(lit, math.MinInt32, math.MaxInt32) },
	"int64": func(lit string) bool { return integralIn(lit, math.MinInt64, math.MaxInt64) },
	"float": func(lit string) bool {
		f, err := strconv.ParseFloat(lit, 64)
		return err == nil && math.Abs(f) <= math.MaxFloat32
	},
	"double": func(lit string) bool { _, err := strconv.ParseFloat(lit, 64); return err == nil },
}

func integralIn(lit string, lo, hi int64) bool {
	i, ok := integerLiteral(lit)
	if !ok {
		return false
	}
	n, err := strconv.ParseInt(i, 10, 64)
	return err == nil && n >= lo && n <= hi
}

// NumberFormat returns the check of a numeric format by its name: it takes
// the value's JSON number literal.
func NumberFormat(name string) (check func(lit string) bool, ok bool) {
	check, ok = numberFormats[name]
	return check, ok
}

// NumberFormats lists the numeric formats, sorted.
var NumberFormats = []string{"double", "float", "int32", "int64"}

func isAssertedFormat(name string) bool {
	_, str := StringFormat(name)
	_, num := numberFormats[name]
	return str || num
}

// AssertedFormats lists every format the contract language asserts,
// string and numeric, sorted.
func AssertedFormats() []string {
	out := append(append([]string{}, StringFormats...), NumberFormats...)
	slices.Sort(out)
	return out
}
