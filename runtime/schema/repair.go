package schema

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Repair applies the deterministic repairs a caller makes before asking a
// model to try again, and returns the repaired value with the errors that
// remain (s.Validate of the result, sorted, nil when it is valid).
//
// Repair fixes syntax, never semantics (docs/concepts.md#repair). It changes a value
// only where the schema leaves a single reading of what the sender meant:
//
//   - a string holding exactly a JSON number literal where a number is
//     expected becomes that number, if the schema's number type can hold
//     it;
//   - a number where only a string is allowed becomes its literal text;
//   - "true" or "false", in any case, where a boolean and no string is allowed
//     becomes the boolean;
//   - an integral number written with a fraction or an exponent (5.0, 1e2)
//     where only an integer is allowed becomes the integer;
//   - a property that additionalProperties: false forbids is dropped;
//   - a missing required property is filled from defaults, when defaults holds
//     a value for exactly that property's path.
//
// Everything else is left for the model: a value that fails a pattern, an
// enum or a bound, and above all a missing required property nobody supplied
// a default for. Guessing an account number is not a repair, it is a
// fabrication.
//
// The rules apply at every depth the validator reaches: declared properties,
// array items and properties governed by an additionalProperties schema. A
// value whose type the schema already allows is never converted, so a valid
// value comes back unchanged. A value of a disallowed type that no rule fixes
// is left as it is, contents included: its type error is the one thing the
// model needs to hear about it.
//
// defaults is keyed by the path of the property exactly as the validator
// names it: "$.currency" for a top-level property, "$.legs[0].currency"
// inside the first element of legs. A filled default is repaired like any
// other value, which keeps Repair idempotent: Repair of its own result
// returns that result and the same errors. A nil map fills nothing.
//
// v can be any JSON value, not only an object: the rules are per value, so a
// root "42" under {"type": "integer"} becomes 42; only filling needs an
// object. A nil schema is treated as the zero Schema, which accepts every
// value, so there is nothing to repair and no error.
//
// Neither v nor defaults is modified. The result shares the parts of v that
// needed no repair (copy on write); a filled default is a fresh copy, so
// changing the result never reaches the caller's defaults.
func Repair(v any, s *Schema, defaults map[string]any) (any, Errors) {
	if s == nil {
		return v, nil
	}
	r := repairer{defaults: defaults, admitted: &admitted{memo: map[*Schema]atomSet{}, busy: map[*Schema]bool{}, typesOnly: true}}
	out, _ := r.value(v, conjOf(s), "$")
	return out, s.Validate(out)
}

// repairer carries what stays the same through one Repair.
type repairer struct {
	defaults map[string]any
	admitted *admitted
}

// allowed is the set of JSON types a value can have and satisfy every
// schema of k.
func (r *repairer) allowed(k conj) atomSet {
	set := atomAll
	for _, s := range k {
		set &= r.admitted.of(s)
	}
	return set
}

// picked adds to k the alternative of each union in k that v can only
// match: the one its type picks, or the one its tag names. Repair follows
// them; it never guesses between alternatives a value could match.
func picked(k conj, v any) conj {
	out := k
	for _, u := range k.unions() {
		i := -1
		switch u.u.Kind {
		case UnionByType:
			i = u.u.ForKind(KindOf(v))
		case UnionByProperty:
			if m, ok := v.(map[string]any); ok {
				if tag, ok := m[u.u.Property].(string); ok {
					i = u.u.ForTag(tag)
				}
			}
		}
		if i >= 0 {
			out = conjOf(append(slices.Clone(out), u.alts[i])...)
		}
	}
	return out
}

// value repairs v against the schemas k at path and reports whether
// anything changed.
func (r *repairer) value(v any, k conj, path string) (any, bool) {
	kind := KindOf(v)
	allowed := r.allowed(k)
	if allowed&atomOf(kind) == 0 {
		if kind == KindInteger && allowed&atomInteger == 0 && allowed&atomFraction != 0 {
			return v, false // an integer is a number; only the range can refuse it
		}
		return convert(v, kind, allowed)
	}
	k = picked(k, v)
	switch kind {
	case KindObject:
		return r.object(v.(map[string]any), k, path)
	case KindArray:
		return r.array(v.([]any), k, path)
	}
	return v, false
}

// convert applies the first syntax repair that turns v, of kind k which the
// schemas do not allow, into a value of a kind they allow. Each rule
// targets an allowed kind and starts from one that is not, so a converted
// value is never converted again: that is what makes the conversions
// idempotent.
func convert(v any, k Kind, allowed atomSet) (any, bool) {
	switch k {
	case KindString:
		text := v.(string)
		// Models quote scalars: "true" for true, "42" for 42. The exact
		// spellings only: " 42", "+42", "0x2A" or "NaN" are not numbers a
		// JSON sender could have meant, so they stay strings.
		if allowed&atomBoolean != 0 && (strings.EqualFold(text, "true") || strings.EqualFold(text, "false")) {
			return strings.EqualFold(text, "true"), true
		}
		if allowed&(atomInteger|atomFraction) != 0 && IsNumberLiteral(text) {
			if n, ok := numberFor(text, allowed); ok {
				return n, true
			}
		}
	case KindInteger, KindNumber:
		text, ok := numberText(v)
		if !ok {
			return v, false
		}
		// k is not allowed. If integers are, k is a number with a fraction
		// or an exponent and only its integral spelling can help; a number
		// is never turned into a string while the schema takes numbers.
		if allowed&atomInteger != 0 {
			if n, ok := numberFor(text, allowed); ok {
				return n, true
			}
			return v, false
		}
		// Only strings are wanted: an identifier sent as 771 meant "771".
		// The literal is kept as written, so 5.0 becomes "5.0", not "5".
		if allowed&atomString != 0 {
			return text, true
		}
	}
	return v, false
}

// numberFor turns the JSON number literal text into the number the schemas
// want: the literal itself when they allow any number, its integer spelling
// when they allow only integers and the literal is integral. A number the
// Go type cannot hold (1e400 for a float64, 2^70 for an int64) is not
// produced: it would trade a type error for a range error and an Inf or a
// wrapped integer for whoever reads it.
func numberFor(text string, allowed atomSet) (json.Number, bool) {
	n := json.Number(text)
	if allowed&atomFraction == 0 {
		lit, ok := integerLiteral(text)
		if !ok {
			return "", false
		}
		n = json.Number(lit)
		_, err := strconv.ParseInt(lit, 10, 64)
		return n, err == nil
	}
	_, err := strconv.ParseFloat(text, 64)
	return n, err == nil
}

// maxExactInteger is 2^53: every integer below it in magnitude is exactly a
// double, so the integer it becomes is the number every peer reads.
const maxExactInteger = 1 << 53

// integerLiteral returns the integer spelling of the JSON number literal
// lit when lit is integral: "5" for "5.0", "100" for "1e2", "0" for "-0.0".
// An integer literal is returned as written, whatever its size. A literal
// with a fraction or an exponent converts only below 2^53 in magnitude,
// where the conversion is exact; the arithmetic is done on the digits, so
// 1e999999999 costs nothing.
func integerLiteral(lit string) (string, bool) {
	if IsIntegerLiteral(lit) {
		return lit, true
	}
	d, ok := parseDecimal(lit)
	if !ok {
		return "", false
	}
	if d.digits == "" {
		return "0", true
	}
	if d.exp < 0 || len(d.digits)+d.exp > 16 {
		return "", false
	}
	n, err := strconv.ParseUint(d.digits, 10, 64)
	if err != nil {
		return "", false
	}
	for range d.exp {
		n *= 10
	}
	if n >= maxExactInteger {
		return "", false
	}
	text := strconv.FormatUint(n, 10)
	if d.neg {
		text = "-" + text
	}
	return text, true
}

// decimal is a JSON number literal in normal form: the value is
// ±digits × 10^exp, digits has neither leading nor trailing zeros, and zero
// is the empty digits with exp 0 and neg false. Two literals are the same
// number exactly when their normal forms are equal.
type decimal struct {
	neg    bool
	digits string
	exp    int
}

// maxDecimalExponent bounds the exponents parseDecimal accepts: far beyond
// any double (whose decimal exponents stay within ±400), and small enough
// that no exponent arithmetic can overflow.
const maxDecimalExponent = 1_000_000

// parseDecimal returns the normal form of lit, which must satisfy
// IsNumberLiteral. It fails for a non-zero literal whose exponent is beyond
// maxDecimalExponent.
func parseDecimal(lit string) (decimal, bool) {
	var d decimal
	if strings.HasPrefix(lit, "-") {
		d.neg = true
		lit = lit[1:]
	}
	mant, expText, hasExp := strings.Cut(lit, "e")
	if !hasExp {
		mant, expText, hasExp = strings.Cut(lit, "E")
	}
	whole, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	if digits == "" {
		return decimal{}, true
	}
	exp := 0
	if hasExp {
		e, err := strconv.Atoi(expText)
		if err != nil || e < -maxDecimalExponent || e > maxDecimalExponent {
			return decimal{}, false
		}
		exp = e
	}
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed) - len(frac)
	if exp < -maxDecimalExponent || exp > maxDecimalExponent {
		return decimal{}, false
	}
	d.digits, d.exp = trimmed, exp
	return d, true
}

// numberText is the JSON literal of the number v: a json.Number as written,
// a Go number as encoding/json would write it.
func numberText(v any) (string, bool) {
	switch v := v.(type) {
	case json.Number:
		return string(v), IsNumberLiteral(string(v))
	case float64:
		return FormatNumber(v), true
	case float32:
		// The shortest text that reads back as this float32, as
		// encoding/json writes it (0.1, not 0.10000000149011612).
		f, err := strconv.ParseFloat(strconv.FormatFloat(float64(v), 'g', -1, 32), 64)
		return FormatNumber(f), err == nil
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return fmt.Sprint(v), true
	}
	return "", false
}

// object repairs the properties of m the schemas check, drops the ones
// they forbid (additionalProperties or unevaluatedProperties false) and
// fills missing required ones from the defaults. m itself is copied only if
// something changes.
func (r *repairer) object(m map[string]any, k conj, path string) (any, bool) {
	var out map[string]any
	required := k.strings((*Schema).Required)
	edit := func() {
		if out == nil {
			out = make(map[string]any, len(m)+len(required))
			for name, v := range m {
				out[name] = v
			}
		}
	}
	for _, name := range sortedKeys(m) {
		sub := k.prop(name)
		if !k.declares(name) && forbidsRest(k, name) {
			// The schema says this key cannot be meant: dropping it
			// loses nothing the tool could have used.
			edit()
			delete(out, name)
			continue
		}
		if nv, changed := r.value(m[name], sub, PropertyPath(path, name)); changed {
			edit()
			out[name] = nv
		}
	}
	for _, name := range required {
		if _, present := m[name]; present {
			continue
		}
		p := PropertyPath(path, name)
		d, ok := r.defaults[p]
		if !ok {
			continue
		}
		// A caller-supplied default is the one value Repair may add; it is
		// copied so the result never aliases the caller's map, and repaired
		// so that a second Repair finds nothing left to do.
		nv, _ := r.value(Clone(d), k.prop(name), p)
		edit()
		out[name] = nv
	}
	if out == nil {
		return m, false
	}
	return out, true
}

// forbidsRest reports whether a schema of k refuses name as a property it
// neither declares nor matches with a pattern.
func forbidsRest(k conj, name string) bool {
	for _, s := range k {
		matched := false
		for _, p := range s.patternProperties {
			matched = matched || p.Pattern.MatchString(name)
		}
		if !matched && (s.additionalProperties.IsFalse() || (s.additionalProperties == nil && s.unevaluatedProperties.IsFalse())) {
			return true
		}
	}
	return false
}

// array repairs each element against the schemas of its position; a is
// copied only if an element changes.
func (r *repairer) array(a []any, k conj, path string) (any, bool) {
	var out []any
	for i, e := range a {
		sub := k.element(i)
		if len(sub) == 0 {
			continue
		}
		if ne, changed := r.value(e, sub, IndexPath(path, i)); changed {
			if out == nil {
				out = append([]any(nil), a...)
			}
			out[i] = ne
		}
	}
	if out == nil {
		return a, false
	}
	return out, true
}

// RepairJSON is Repair on raw JSON text, for generated code: it returns the
// repaired arguments as compact JSON (numbers as written), the errors that
// remain, sorted, and err for input that is not one well-formed JSON value.
func RepairJSON(data []byte, s *Schema, defaults map[string]any) (repaired []byte, remaining Errors, err error) {
	v, err := DecodeJSON(data)
	if err != nil {
		return nil, nil, err
	}
	fixed, remaining := Repair(v, s, defaults)
	repaired, err = Encode(fixed)
	return repaired, remaining, err
}
