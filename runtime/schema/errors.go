package schema

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// ValidationError is one way a value breaks its schema: where ($.a.b[2]) and
// what. The reference validator and every generated validator build their
// messages with the functions below, so the two can be compared byte for
// byte.
type ValidationError struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// String renders the error as "path: message", the form that goes into a
// repair prompt and into a -32602 error's data. The note that ends a
// truncated list (see MaxErrors) has no path and renders as its message.
func (e ValidationError) String() string {
	if e.Path == "" {
		return e.Message
	}
	return e.Path + ": " + e.Message
}

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

// Truncated returns how many more errors were found than the list holds: a
// list cut at MaxErrors ends with a note saying so.
func (e Errors) Truncated() int {
	if n := len(e); n > 0 && e[n-1].Path == "" {
		if rest, ok := strings.CutSuffix(e[n-1].Message, msgMoreSuffix); ok {
			if v, err := strconv.Atoi(rest); err == nil {
				return v
			}
		}
	}
	return 0
}

// SortErrors orders errors by (path, message), byte-wise, which for valid
// UTF-8 is code point order. A stable order keeps a repair prompt
// byte-identical across runs.
func SortErrors(errs []ValidationError) {
	if len(errs) > sortByInsertion {
		slices.SortFunc(errs, compareErrors)
		return
	}
	// A few errors, the common case, by insertion with the comparison
	// inline: a call of compareErrors per comparison was most of sorting
	// three.
	for i := 1; i < len(errs); i++ {
		insertError(errs[:i], errs[i])
	}
}

// sortByInsertion is the most errors SortErrors sorts by insertion.
const sortByInsertion = 12

// insertError appends e to sorted, in its place: sorted grows into the
// element after it, which the caller gives (its capacity), and e is a copy
// (it may be that element).
func insertError(sorted []ValidationError, e ValidationError) []ValidationError {
	j := len(sorted)
	sorted = sorted[:j+1]
	for ; j > 0 && errorLess(&e, &sorted[j-1]); j-- {
		sorted[j] = sorted[j-1]
	}
	sorted[j] = e
	return sorted
}

// errorLess is compareErrors(*a, *b) < 0.
func errorLess(a, b *ValidationError) bool {
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	return a.Message < b.Message
}

func compareErrors(a, b ValidationError) int {
	if c := strings.Compare(a.Path, b.Path); c != 0 {
		return c
	}
	return strings.Compare(a.Message, b.Message)
}

// MaxErrors is how many errors one validation reports. A hostile caller can
// make a value with any number of violations (a hundred thousand undeclared
// properties); past this many the answer keeps the first MaxErrors in
// (path, message) order and ends with a note saying how many more were
// found, so its size stays bounded whatever the input.
const MaxErrors = 100

// msgMoreSuffix ends the note of a truncated list.
const msgMoreSuffix = " more errors not shown"

// MsgMoreErrors is the note that ends a list cut at MaxErrors.
func MsgMoreErrors(n int) string { return strconv.Itoa(n) + msgMoreSuffix }

// Collector gathers the errors of one validation with bounded memory: it
// never holds more than 2×MaxErrors, keeping the least errors in (path,
// message) order whenever it would, so what Result returns does not depend
// on the order errors were found in. The zero Collector is ready to use.
type Collector struct {
	errs []ValidationError
	more int // errors dropped past MaxErrors (an upper bound: a dropped error may recur)
}

// Add records an error.
func (c *Collector) Add(path, message string) {
	if len(c.errs) >= 2*MaxErrors {
		c.compact()
	}
	if cap(c.errs) == 0 {
		c.errs = make([]ValidationError, 0, 4)
	}
	c.errs = append(c.errs, ValidationError{Path: path, Message: message})
}

// Len is the number of errors recorded, MaxErrors at most after compacting
// (with Truncated telling the rest).
func (c *Collector) Len() int { return len(c.errs) + c.more }

// Empty reports whether no error was recorded.
func (c *Collector) Empty() bool { return len(c.errs) == 0 && c.more == 0 }

// Reset forgets every error, keeping the storage (cleared: it keeps no
// path or message alive).
func (c *Collector) Reset() {
	clear(c.errs)
	c.errs, c.more = c.errs[:0], 0
}

// compact sorts, drops duplicates and keeps the first MaxErrors.
func (c *Collector) compact() {
	SortErrors(c.errs)
	c.errs = slices.Compact(c.errs)
	if n := len(c.errs); n > MaxErrors {
		c.more += n - MaxErrors
		clear(c.errs[MaxErrors:])
		c.errs = c.errs[:MaxErrors]
	}
}

// First is the least error recorded and how many there are in all; ok is
// false when there is none.
func (c *Collector) First() (first ValidationError, n int, ok bool) {
	if len(c.errs) == 0 {
		return ValidationError{}, 0, false
	}
	c.compact()
	return c.errs[0], len(c.errs) + c.more, true
}

// Result returns the errors sorted by (path, message), duplicates removed,
// at most MaxErrors of them followed, when more were found, by the note
// MsgMoreErrors; nil when there are none. The list is handed over: the
// Collector starts afresh.
func (c *Collector) Result() Errors {
	if len(c.errs) == 0 {
		return nil
	}
	c.compact()
	out := c.appendResult(Errors(c.errs))
	c.errs, c.more = nil, 0
	return out
}

// Copy is Result for a Collector that is used again, such as a pooled
// reader's: the list is a copy of exactly the length it needs, one
// allocation, and the Collector keeps its storage for the next use.
func (c *Collector) Copy() Errors {
	if len(c.errs) == 0 {
		return nil
	}
	if n := len(c.errs); n <= sortByInsertion && c.more == 0 {
		// A few errors, the common case, sorted as they are copied: the
		// pooled list is read once and written only to be cleared.
		out := make(Errors, 0, n)
		for _, e := range c.errs {
			out = insertError(out, e)
		}
		c.Reset()
		return slices.Compact(out)
	}
	c.compact()
	n := len(c.errs)
	if c.more > 0 {
		n++
	}
	out := c.appendResult(append(make(Errors, 0, n), c.errs...))
	c.Reset()
	return out
}

// appendResult appends to out, the errors kept, the note of those dropped.
func (c *Collector) appendResult(out Errors) Errors {
	if c.more > 0 {
		out = append(out, ValidationError{Message: MsgMoreErrors(c.more)})
	}
	return out
}

// PropertyPath is the path of property name under path: "$.a" + "b" → "$.a.b".
func PropertyPath(path, name string) string { return path + "." + name }

// IndexPath is the path of element i under path: "$.a", 2 → "$.a[2]".
func IndexPath(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// AppendPropertyPath appends to a path, in dst, what PropertyPath adds to
// it: a reader that builds a deep path in one buffer (package decode's)
// makes one string instead of one a level. The name may be a string, or
// a name's bytes as read (a decoder's undeclared member), which then need
// no string of their own.
func AppendPropertyPath[Name ~string | ~[]byte](dst []byte, name Name) []byte {
	return append(append(dst, '.'), name...)
}

// AppendIndexPath appends to a path, in dst, what IndexPath adds to it.
func AppendIndexPath(dst []byte, i int) []byte {
	return append(strconv.AppendInt(append(dst, '['), int64(i), 10), ']')
}

// The messages. Values are printed for people: strings in single quotes as
// written (no escaping, so a pattern reads as in the schema), arrays as
// [a, b], numbers in canonical form, and true/false/null as JSON spells them.
// Every message is documented in docs/errors.md.

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

// MsgFalse reports a value where the schema is false: nothing is allowed.
const MsgFalse = "no value is allowed here"

// MsgAdditionalItem reports an element past prefixItems where items (or
// unevaluatedItems) is false.
const MsgAdditionalItem = "additional item is not allowed"

// MsgMultipleOf reports a number that is not a multiple of multipleOf
// (exactly, in decimal: 0.3 is a multiple of 0.1).
func MsgMultipleOf(b *Bound) string { return "not a multiple of " + b.Text }

// MsgFormat reports a string (or a number, for the numeric formats) that
// does not have the format.
func MsgFormat(format string) string { return "does not match format " + Repr(format) }

// MsgMinProperties reports an object with fewer than minProperties members.
func MsgMinProperties(n int) string { return "fewer than minProperties " + strconv.Itoa(n) }

// MsgMaxProperties reports an object with more than maxProperties members.
func MsgMaxProperties(n int) string { return "more than maxProperties " + strconv.Itoa(n) }

// MsgDependentRequired reports a property dependentRequired asks for,
// missing while trigger is present (at the missing property's path).
func MsgDependentRequired(trigger string) string {
	return "required property is missing (required when " + Repr(trigger) + " is present)"
}

// MsgPropertyName reports a property name that breaks propertyNames (at
// the property's path); msg is what the name's schema says about it.
func MsgPropertyName(msg string) string { return "property name: " + msg }

// MsgContains reports an array none of whose elements matches contains.
const MsgContains = "no item matches the contains schema"

// MsgMinContains reports fewer than minContains elements matching contains.
func MsgMinContains(n int) string {
	return "fewer than minContains " + strconv.Itoa(n) + " items match the contains schema"
}

// MsgMaxContains reports more than maxContains elements matching contains.
func MsgMaxContains(n int) string {
	return "more than maxContains " + strconv.Itoa(n) + " items match the contains schema"
}

// MsgNot reports a value that matches the schema of not.
const MsgNot = "must not match the schema in not"

// MsgNoneOf reports a value that matches none of the alternatives of a
// union tried one by one (keyword is "anyOf" or "oneOf"). It names each
// alternative by its index with its first error and how many more it had,
// so the message says briefly why each was refused:
//
//	matches none of anyOf: #0 $.a: expected type string, got integer; #1 $: required property is missing (+1 more)
func MsgNoneOf(keyword string, firsts []ValidationError, counts []int) string {
	var b strings.Builder
	b.WriteString("matches none of ")
	b.WriteString(keyword)
	b.WriteString(":")
	for i, e := range firsts {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(" #")
		b.WriteString(strconv.Itoa(i))
		b.WriteByte(' ')
		b.WriteString(e.String())
		if counts[i] > 1 {
			b.WriteString(" (+")
			b.WriteString(strconv.Itoa(counts[i] - 1))
			b.WriteString(" more)")
		}
	}
	return b.String()
}

// MsgManyOf reports a value that matches more than one alternative of a
// oneOf: matched lists their indexes.
func MsgManyOf(matched []int) string {
	parts := make([]string, len(matched))
	for i, m := range matched {
		parts[i] = "#" + strconv.Itoa(m)
	}
	return "matches more than one of oneOf: " + strings.Join(parts, ", ")
}

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
