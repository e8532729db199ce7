package schema

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// ValidationError is one way a value breaks its schema: where ($.a.b[2]) and
// what, in the words the seeds use. The reference validator and every
// generated validator build their messages with the functions below, so the
// two can be compared byte for byte.
type ValidationError struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// String renders the error as "path: message", the form that goes into a
// repair prompt and into a -32602 error's data.
func (e ValidationError) String() string { return e.Path + ": " + e.Message }

// Error makes a single ValidationError usable as an error.
func (e ValidationError) Error() string { return e.String() }

// Errors is a list of validation errors; as an error it reads as all of them.
type Errors []ValidationError

func (e Errors) Error() string { return strings.Join(e.Strings(), "; ") }

// Strings renders each error with String.
func (e Errors) Strings() []string {
	out := make([]string, len(e))
	for i, err := range e {
		out[i] = err.String()
	}
	return out
}

// SortErrors orders errors by (path, message), byte-wise, which for valid
// UTF-8 is code point order: the order the seeds' Python sort gives. A stable
// order keeps a repair prompt byte-identical across runs.
func SortErrors(errs []ValidationError) {
	slices.SortFunc(errs, func(a, b ValidationError) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
}

// PropertyPath is the path of property name under path: "$.a" + "b" → "$.a.b".
func PropertyPath(path, name string) string { return path + "." + name }

// IndexPath is the path of element i under path: "$.a", 2 → "$.a[2]".
func IndexPath(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// The messages. Values are printed the way the seeds print them: strings in
// single quotes as written (no escaping, so a pattern reads as in the schema),
// arrays as [a, b], numbers in canonical form, and true/false/null as JSON
// spells them.

// MsgType reports a value whose JSON type is not among the allowed ones.
func MsgType(allowed []Kind, got Kind) string {
	names := make([]string, len(allowed))
	for i, k := range allowed {
		names[i] = k.String()
	}
	return "expected type " + strings.Join(names, "|") + ", got " + got.String()
}

// MsgIntegerRange reports an integer that a 64-bit signed integer cannot
// hold. JSON Schema's integer is unbounded; a Go service's is int64, and a
// value it would silently wrap is refused instead.
const MsgIntegerRange = "out of range for a 64-bit integer"

// MsgNumberRange reports a number beyond a double's range (1e400).
const MsgNumberRange = "out of range for a 64-bit float"

// MsgConst reports a value other than the schema's const.
func MsgConst(c any) string { return "must be " + Repr(c) }

// MsgEnum reports a value outside the schema's enum.
func MsgEnum(values []any) string { return "must be one of " + Repr(values) }

// MsgMinLength reports a string shorter than minLength code points.
func MsgMinLength(n int) string { return "shorter than minLength " + strconv.Itoa(n) }

// MsgMaxLength reports a string longer than maxLength code points.
func MsgMaxLength(n int) string { return "longer than maxLength " + strconv.Itoa(n) }

// MsgPattern reports a string the pattern does not match.
func MsgPattern(pattern string) string { return "does not match pattern " + Repr(pattern) }

// MsgMinimum reports a number below minimum.
func MsgMinimum(b *Bound) string { return "below minimum " + b.Text }

// MsgMaximum reports a number above maximum.
func MsgMaximum(b *Bound) string { return "above maximum " + b.Text }

// MsgExclusiveMinimum reports a number not above exclusiveMinimum.
func MsgExclusiveMinimum(b *Bound) string { return "must be > " + b.Text }

// MsgExclusiveMaximum reports a number not below exclusiveMaximum.
func MsgExclusiveMaximum(b *Bound) string { return "must be < " + b.Text }

// MsgRequired reports a missing required property (at the property's path).
const MsgRequired = "required property is missing"

// MsgAdditional reports a property that additionalProperties: false forbids.
const MsgAdditional = "additional property is not allowed"

// MsgMinItems reports an array with fewer than minItems elements.
func MsgMinItems(n int) string { return "fewer than minItems " + strconv.Itoa(n) }

// MsgMaxItems reports an array with more than maxItems elements.
func MsgMaxItems(n int) string { return "more than maxItems " + strconv.Itoa(n) }

// MsgUnique reports an array with two equal elements under uniqueItems.
const MsgUnique = "items must be unique"

// Repr prints a JSON value for a message (see the note above the messages).
func Repr(v any) string {
	var b strings.Builder
	writeRepr(&b, v)
	return b.String()
}

func writeRepr(b *strings.Builder, v any) {
	switch v := v.(type) {
	case string:
		q := byte('\'')
		if strings.Contains(v, "'") && !strings.Contains(v, `"`) {
			q = '"'
		}
		b.WriteByte(q)
		b.WriteString(v)
		b.WriteByte(q)
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, CompareUTF16)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, k)
			b.WriteString(": ")
			writeRepr(b, v[k])
		}
		b.WriteByte('}')
	case json.Number:
		// An integer prints as written: canonical form would round one
		// beyond 2^53 and name a value the schema does not contain.
		if IsIntegerLiteral(string(v)) {
			if v == "-0" {
				v = "0"
			}
			b.WriteString(string(v))
			return
		}
		c, _ := CanonicalJSON(v)
		b.Write(c)
	default:
		if c, err := CanonicalJSON(v); err == nil {
			b.Write(c)
		} else {
			b.WriteString(describe(v))
		}
	}
}
