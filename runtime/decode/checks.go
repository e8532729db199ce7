package decode

import (
	"encoding/json"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/internal/textdec"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

// The leaf checks. Each is one line of generated code and reports with the
// reference validator's message, built only when the check fails. Bounds
// come as the schema states them; numbers are compared as float64, as the
// reference validator compares them.

// MinLength checks minLength, in code points. A code point takes one to
// four bytes, so the byte length settles most strings without counting.
func (r *Reader) MinLength(at *Loc, s string, n int) {
	if len(s) < 4*n && (len(s) < n || r.codePoints(s) < n) {
		r.Fail(at, schema.MsgMinLength(n))
	}
}

// MaxLength checks maxLength, in code points (see MinLength).
func (r *Reader) MaxLength(at *Loc, s string, n int) {
	if len(s) > n && (len(s) > 4*n || r.codePoints(s) > n) {
		r.Fail(at, schema.MsgMaxLength(n))
	}
}

// codePoints counts the code points of s: the lexer counted them when s
// is the last string Str read and was checked for UTF-8 there (see
// lexer.runes), and s is valid UTF-8 in any case (every string a Reader
// returns is: its input was checked as it was read, and a string it
// unescaped was written as UTF-8).
func (r *Reader) codePoints(s string) int {
	if r.lastRunes >= 0 && s == r.last {
		return r.lastRunes
	}
	return textdec.CodePoints(s)
}

// Pattern checks a pattern (unanchored, as JSON Schema matches).
func (r *Reader) Pattern(at *Loc, s string, p *schema.Pattern) {
	if !p.MatchString(s) {
		r.Fail(at, p.Message())
	}
}

// Format checks a format: ok is the format's check of the value (such as
// schema.IsDate(s)).
func (r *Reader) Format(at *Loc, name string, ok bool) {
	if !ok {
		r.Fail(at, formatMessage(name))
	}
}

// NumberFormat checks a numeric format (int32, int64, float, double) on
// the last number read.
func (r *Reader) NumberFormat(at *Loc, name string) {
	if check, ok := schema.NumberFormat(name); ok && !check(string(r.num)) {
		r.Fail(at, formatMessage(name))
	}
}

// formatMessages holds schema.MsgFormat's message for each format name a
// decoder has reported, so that a value of the wrong format costs no
// message building. The names are the generated code's constants: the
// program's schemas bound the set, not its input.
var formatMessages = struct {
	sync.RWMutex
	m map[string]string
}{m: map[string]string{}}

func formatMessage(name string) string {
	formatMessages.RLock()
	msg, ok := formatMessages.m[name]
	formatMessages.RUnlock()
	if ok {
		return msg
	}
	msg = schema.MsgFormat(name)
	formatMessages.Lock()
	formatMessages.m[name] = msg
	formatMessages.Unlock()
	return msg
}

// Minimum checks minimum.
func (r *Reader) Minimum(at *Loc, f, bound float64) {
	if f < bound {
		r.Fail(at, schema.MsgMinimum(boundOf(bound)))
	}
}

// Maximum checks maximum.
func (r *Reader) Maximum(at *Loc, f, bound float64) {
	if f > bound {
		r.Fail(at, schema.MsgMaximum(boundOf(bound)))
	}
}

// ExclusiveMinimum checks exclusiveMinimum.
func (r *Reader) ExclusiveMinimum(at *Loc, f, bound float64) {
	if f <= bound {
		r.Fail(at, schema.MsgExclusiveMinimum(boundOf(bound)))
	}
}

// ExclusiveMaximum checks exclusiveMaximum.
func (r *Reader) ExclusiveMaximum(at *Loc, f, bound float64) {
	if f >= bound {
		r.Fail(at, schema.MsgExclusiveMaximum(boundOf(bound)))
	}
}

func boundOf(f float64) *schema.Bound { return &schema.Bound{Value: f, Text: schema.FormatNumber(f)} }

// MultipleOf checks multipleOf on the last number read, exactly in decimal.
func (r *Reader) MultipleOf(at *Loc, m *schema.Bound) {
	if !schema.MultipleOf(string(r.num), m) {
		r.Fail(at, schema.MsgMultipleOf(m))
	}
}

// MinItems checks minItems on the array read (nothing when the value was
// not an array).
func (e *Elements) MinItems(bound int) {
	if e.arr && e.Len() < bound {
		e.r.Fail(e.at, schema.MsgMinItems(bound))
	}
}

// MaxItems checks maxItems on the array read.
func (e *Elements) MaxItems(bound int) {
	if e.arr && e.Len() > bound {
		e.r.Fail(e.at, schema.MsgMaxItems(bound))
	}
}

// MinProperties checks minProperties on the object read (nothing when
// the value was not an object).
func (m *Members) MinProperties(bound int) {
	if m.obj && m.n < bound {
		m.r.Fail(m.at, schema.MsgMinProperties(bound))
	}
}

// MaxProperties checks maxProperties on the object read.
func (m *Members) MaxProperties(bound int) {
	if m.obj && m.n > bound {
		m.r.Fail(m.at, schema.MsgMaxProperties(bound))
	}
}

// DependentRequired reports property name missing (unless seen) because
// trigger is present (triggered).
func (m *Members) DependentRequired(triggered, seen bool, name, trigger string) {
	if m.obj && triggered && !seen {
		m.r.FailProp(m.at, name, schema.MsgDependentRequired(trigger))
	}
}

// Unique checks uniqueItems on the items of an array read with
// UniqueArray, scalars whose Go equality is the JSON equality when every
// item decoded (strings, int64, bool) and is implied by it (float64: two
// different doubles are different numbers). Where it cannot tell (an item
// of the wrong type left its zero value, or two items are equal as Go
// values), the JSON values decide, by schema.Unique, as for the reference
// validator.
func Unique[T comparable](a *Elements, items []T) {
	r := a.r
	if r.quiet || (r.c.Len() == a.errs && unique(items)) {
		return
	}
	v, err := schema.DecodeJSON(a.text())
	if arr, ok := v.([]any); err == nil && ok && !schema.Unique(arr) {
		r.Fail(a.at, schema.MsgUnique)
	}
}

func unique[T comparable](s []T) bool {
	if len(s) < 2 {
		return true
	}
	if len(s) <= 16 {
		for i := range s {
			for j := i + 1; j < len(s); j++ {
				if s[i] == s[j] {
					return false
				}
			}
		}
		return true
	}
	seen := make(map[T]struct{}, len(s))
	for _, e := range s {
		if _, dup := seen[e]; dup {
			return false
		}
		seen[e] = struct{}{}
	}
	return true
}

// NumberIn reports whether the last number read equals one of lits (JSON
// number literals), by schema.Equal: an enum or const of numbers.
func (r *Reader) NumberIn(lits ...string) bool {
	for _, l := range lits {
		if schema.Equal(json.Number(r.num), json.Number(l)) {
			return true
		}
	}
	return false
}

// Own returns items in memory of their own. Generated code reads an array
// of scalars into a buffer on its stack and hands it here once read: an
// array of a few items costs one allocation, of its size, where appending
// to an empty slice would make one at each doubling. An empty array is an
// empty slice, not nil, as a JSON [] decodes.
func Own[T any](items []T) []T {
	if len(items) == 0 {
		return []T{}
	}
	return append(make([]T, 0, len(items)), items...)
}
