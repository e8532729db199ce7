// Package decode is what generated decoders call: locations that become
// "$.a.b[2]" paths only when an error needs one, reading a value's JSON type
// (telling an integer literal from a number), the end-of-input check, and
// the strictness rules shared with runtime/schema's DecodeJSON.
//
// Generated code reads raw JSON with github.com/go-faster/jx in one pass and
// appends schema.ValidationErrors built with runtime/schema's message
// functions, so its errors are byte-identical to the reference validator's.
package decode

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/go-faster/jx"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// Loc is the location of the value being decoded. Locations link to their
// parent and live on the stack of the decoding functions; the path string is
// built only when an error is reported, so valid input costs nothing. The
// nil *Loc is the root, "$".
type Loc struct {
	parent *Loc
	name   string
	// rootPath is the whole path when parent is the root and the
	// generator wrote it out (see Field).
	rootPath string
	index    int
	isElem   bool
}

// Field is the location of property name under parent: rootPath is the path
// the property has when parent is the root ("$.name", written out at
// generation time with schema.PropertyPath), so that an error in a
// top-level property, the common case, builds no string.
func Field(parent *Loc, name, rootPath string) Loc {
	return Loc{parent: parent, name: name, rootPath: rootPath}
}

// Elem is the location of element i under parent.
func Elem(parent *Loc, i int) Loc { return Loc{parent: parent, index: i, isElem: true} }

// String renders the path: "$", "$.a", "$.a[2].b". It uses the same
// functions as the reference validator.
func (l *Loc) String() string {
	if l == nil {
		return "$"
	}
	if l.parent == nil && l.rootPath != "" {
		return l.rootPath
	}
	base := l.parent.String()
	if l.isElem {
		return schema.IndexPath(base, l.index)
	}
	return schema.PropertyPath(base, l.name)
}

// Add appends the error msg at l.
func Add(errs *schema.Errors, l *Loc, msg string) {
	appendError(errs, schema.ValidationError{Path: l.String(), Message: msg})
}

// AddProp appends the error msg at property name of l, without building a
// Loc (required and additional-property errors).
func AddProp(errs *schema.Errors, l *Loc, name, msg string) {
	appendError(errs, schema.ValidationError{Path: schema.PropertyPath(l.String(), name), Message: msg})
}

// appendError appends e, giving a list its room for a few errors at once:
// invalid input seldom has only one, and growing one at a time costs an
// allocation per error.
func appendError(errs *schema.Errors, e schema.ValidationError) {
	if cap(*errs) == 0 {
		*errs = make(schema.Errors, 0, 4)
	}
	*errs = append(*errs, e)
}

// Syntax errors: input that is not one well-formed JSON value with one
// reading. They are returned as the decoder's error, apart from the
// validation errors, exactly where schema.DecodeJSON would refuse the input.
var (
	// ErrTrailingData: something other than whitespace after the value.
	ErrTrailingData = schema.ErrTrailingData
	// ErrInvalidUTF8: a string that is not valid UTF-8.
	ErrInvalidUTF8 = errors.New("invalid UTF-8 in a string")
)

// DuplicateError is a property that appears twice in one object.
type DuplicateError struct{ Path string }

func (e *DuplicateError) Error() string { return "duplicate property " + e.Path }

// Duplicate reports property name of l appearing twice.
func Duplicate(l *Loc, name string) error {
	return &DuplicateError{Path: schema.PropertyPath(l.String(), name)}
}

// Check refuses what jx would read more leniently than schema.DecodeJSON,
// before a one-pass decode of data: invalid UTF-8 anywhere (jx passes such
// bytes through in strings and property names), and an escaped lone
// surrogate (jx reads "\ud800" as U+FFFD, which is valid UTF-8, so no later
// check could tell it from a real U+FFFD). Input that escapes a surrogate at
// all (a client that escapes every non-ASCII character writes an emoji as a
// pair) is read once by schema.DecodeJSON to settle it. Duplicate property
// names are the decoders' to find: Duplicate and Extra for the objects they
// decode, Skip and Value for the values they do not.
func Check(data []byte) error {
	if !utf8.Valid(data) {
		return ErrInvalidUTF8
	}
	if schema.MayEscapeSurrogate(data) {
		if _, err := schema.DecodeJSON(data); err != nil {
			return err
		}
	}
	return nil
}

// Skip skips the next value with the strictness of schema.DecodeJSON: an
// object or array is read by it, so a duplicate property name anywhere
// inside is an error, as it is for the reference validator. Generated
// decoders skip undeclared properties and values of the wrong type with it;
// jx's own Skip checks only the syntax.
func Skip(d *jx.Decoder) error {
	switch d.Next() {
	case jx.Object, jx.Array:
		_, err := Value(d)
		return err
	}
	return d.Skip()
}

// Peek returns the raw bytes of the next value without consuming it.
func Peek(d *jx.Decoder) (jx.Raw, error) {
	var raw jx.Raw
	err := d.Capture(func(d *jx.Decoder) error {
		var err error
		raw, err = d.Raw()
		return err
	})
	return raw, err
}

// End checks that nothing but whitespace follows the decoded value.
func End(d *jx.Decoder) error {
	if d.Next() != jx.Invalid {
		// Another value starts, whole or not: jx reports a value cut short
		// inside an object or array as io.EOF too, so reading it would not
		// tell "{" from nothing.
		return ErrTrailingData
	}
	// Nothing that starts a value: either nothing at all (io.EOF) or a byte
	// that cannot start one.
	err := d.Skip()
	if errors.Is(err, io.EOF) {
		return nil
	}
	return fmt.Errorf("%w: %v", ErrTrailingData, err)
}

// Str reads a string. Its encoding needs no second look: Check (or the
// server's envelope decoder) has already refused input with invalid UTF-8
// or an escaped lone surrogate, and jx produces valid UTF-8 from valid input.
func Str(d *jx.Decoder) (string, error) { return d.Str() }

// StrBytes reads a string in place and checks its encoding. The bytes are
// valid until the next read from d: generated code compares them with the
// values of an enum and keeps a typed constant instead.
func StrBytes(d *jx.Decoder) ([]byte, error) {
	return d.StrBytes() // valid UTF-8, as for Str
}

// Kind names the JSON kind of the next value for a type-mismatch message and
// skips the value, as strictly as Skip. A number is read to tell an integer
// literal from a number.
func Kind(d *jx.Decoder, t jx.Type) (schema.Kind, error) {
	switch t {
	case jx.Number:
		n, err := d.Num()
		if err != nil {
			return schema.KindInvalid, err
		}
		return NumKind(n), nil
	case jx.String:
		// Read in place: only the encoding is checked, the value is
		// dropped.
		_, err := StrBytes(d)
		return schema.KindString, err
	}
	if err := Skip(d); err != nil {
		return schema.KindInvalid, err
	}
	switch t {
	case jx.Null:
		return schema.KindNull, nil
	case jx.Bool:
		return schema.KindBoolean, nil
	case jx.Array:
		return schema.KindArray, nil
	case jx.Object:
		return schema.KindObject, nil
	}
	return schema.KindInvalid, nil
}

// NumKind is KindInteger for an integer literal and KindNumber otherwise.
func NumKind(n jx.Num) schema.Kind {
	if schema.IsIntegerLiteral(n) {
		return schema.KindInteger
	}
	return schema.KindNumber
}

// Int64 converts an integer literal; ok is false when int64 cannot hold it
// (the caller reports schema.MsgIntegerRange).
func Int64(n jx.Num) (v int64, ok bool) {
	v, err := strconv.ParseInt(string(n), 10, 64)
	return v, err == nil
}

// Float64 converts a number literal; ok is false beyond a double's range
// (the caller reports schema.MsgNumberRange).
func Float64(n jx.Num) (v float64, ok bool) {
	v, err := n.Float64()
	return v, err == nil
}

// Value reads any JSON value into runtime/schema's value model, for
// properties whose Go type is `any` (type unions, untyped schemas). It is as
// strict as schema.DecodeJSON.
func Value(d *jx.Decoder) (any, error) {
	raw, err := d.Raw()
	if err != nil {
		return nil, err
	}
	return schema.DecodeJSON(raw)
}

// Mismatch reports the next value (of jx type t) as not of the wanted
// kind, at l, and skips it. It is the type check every generated decoder
// makes first; after it nothing else is checked for that value.
func Mismatch(d *jx.Decoder, t jx.Type, errs *schema.Errors, l *Loc, want schema.Kind) error {
	k, err := Kind(d, t)
	if err != nil {
		return err
	}
	Add(errs, l, typeMessages[want][k])
	return nil
}

// typeMessages holds schema.MsgType for every single wanted kind and every
// kind found, built once: a type mismatch is the most common violation, and
// its message is always one of these.
var typeMessages = func() (m [schema.KindObject + 1][schema.KindObject + 1]string) {
	for want := range m {
		for got := range m[want] {
			m[want][got] = schema.MsgType([]schema.Kind{schema.Kind(want)}, schema.Kind(got))
		}
	}
	return m
}()

// NumEquals reports whether the number literal n equals the JSON number
// lit, by schema.Equal (exact for 64-bit integers, by double otherwise):
// enum and const checks on numbers.
func NumEquals(n jx.Num, lit string) bool {
	return schema.Equal(json.Number(n), json.Number(lit))
}

// Unique reports whether no two elements of s are equal: uniqueItems for
// arrays of scalars, where Go equality is JSON equality (strings, int64,
// float64 with 1 == 1.0, bool).
func Unique[T comparable](s []T) bool {
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

// UniqueItems is uniqueItems for an array of scalars decoded into items,
// whose raw JSON is raw (see Peek). Go equality on the items answers when
// every element decoded cleanly and no two are equal; otherwise (an element
// of the wrong type left its zero value in items, or two numbers are equal
// as float64 but may be different integers) the JSON values decide, with
// schema.Unique, as for the reference validator.
func UniqueItems[T comparable](items []T, raw []byte, clean bool) bool {
	if clean && Unique(items) {
		return true
	}
	v, err := schema.DecodeJSON(raw)
	a, isArray := v.([]any)
	if err != nil || !isArray {
		// Unreachable for the raw of an array the decoder has read;
		// should it happen, the read reports it, not this check.
		return true
	}
	return schema.Unique(a)
}

// Extra records an undeclared property name of one object and reports a
// second occurrence as a duplicate (declared properties use a presence
// array instead). The list is allocated only when an object has undeclared
// properties at all.
func Extra(seen *[]string, l *Loc, name string) error {
	for _, s := range *seen {
		if s == name {
			return Duplicate(l, name)
		}
	}
	*seen = append(*seen, name)
	return nil
}

// Adapt turns a generated Decode function into the runtime's validator
// shape (mcp.Validator): the typed value and the sorted violations. Input
// that is not well-formed JSON cannot reach a validator through the server,
// whose envelope rules are at least as strict; should it happen, it is
// reported as one violation at "$" rather than a panic.
func Adapt[T any](decodeFn func([]byte) (T, schema.Errors, error)) func(raw json.RawMessage) (any, schema.Errors) {
	return func(raw json.RawMessage) (any, schema.Errors) {
		v, errs, err := decodeFn(raw)
		if err != nil {
			return nil, schema.Errors{{Path: "$", Message: err.Error()}}
		}
		return v, errs
	}
}
