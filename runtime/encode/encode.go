// Package encode writes JSON as the server sends it: encoding/json's
// encoding of a value's json tags (map keys sorted, so equal values encode
// to equal bytes), without HTML escaping, "<" left as "<". A value that
// writes itself (an Appender: a tool result, a generated output type) is
// asked to; anything else goes through encoding/json.
//
// The Append functions are what the generated AppendJSON methods call for
// the scalars of a type, so that a generated package's encoding and
// encoding/json's differ only where Appender allows.
package encode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/internal/textdec"
)

// Appender is a value that appends its own JSON encoding to b: a value on
// every call's path (a tool result, a structured output) writes itself
// rather than being encoded by reflection. Its encoding must be what
// encoding/json gives for its json tags without HTML escaping, byte for
// byte, except in how a string writes U+2028, U+2029 and a byte that is not
// UTF-8: as the character itself and as U+FFFD (as encoding/json/v2 and
// package jsontext write them), where encoding/json writes the escapes
// \u2028, \u2029 and \ufffd. Either is the same JSON value.
type Appender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// AsAppender returns v as an Appender, when it is one that can write
// itself: not a nil pointer, whose method would dereference it (a nil
// pointer is null, as encoding/json writes it).
func AsAppender(v any) (Appender, bool) {
	a, ok := v.(Appender)
	if !ok {
		return nil, false
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
		return nil, false
	}
	return a, true
}

// Marshal encodes v: its own encoding when it is an Appender, Reflect's
// otherwise.
func Marshal(v any) ([]byte, error) {
	if a, ok := AsAppender(v); ok {
		return a.AppendJSON(nil)
	}
	return Reflect(v)
}

// Append appends Marshal's encoding of v to b: a value of a type that does
// not write itself (a schema's JSON value model, a team's own type).
func Append(b []byte, v any) ([]byte, error) {
	if a, ok := AsAppender(v); ok {
		return a.AppendJSON(b)
	}
	enc, err := Reflect(v)
	if err != nil {
		return nil, err
	}
	return append(b, enc...), nil
}

// Reflect is encoding/json's encoding of v without HTML escaping, by
// reflection even when v writes itself: what Marshal writes of a value
// that does not, and what an Appender's own encoding is held to.
func Reflect(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// String appends s as a JSON string literal (see Appender for the
// characters it writes as they are).
func String(b []byte, s string) []byte { return textdec.AppendQuote(b, s) }

// Float appends f as encoding/json writes a float64: strconv's shortest
// form, in 'f' notation between 1e-6 and 1e21 (or zero) and 'e' notation
// outside, whose exponent has no leading zero ("1e-7", not "1e-07"). NaN
// and the infinities have no JSON form: an error, as encoding/json's.
func Float(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, &json.UnsupportedValueError{Str: strconv.FormatFloat(f, 'g', -1, 64)}
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// EndObject closes the object whose members were appended to b after
// start, each after a comma (how a generated AppendJSON writes members
// that may be left out): the first comma becomes the opening brace, and
// no member at all is "{}".
func EndObject(b []byte, start int) []byte {
	if len(b) == start {
		return append(b, '{', '}')
	}
	b[start] = '{'
	return append(b, '}')
}

// MaxDepth is how many pointers deep a generated AppendJSON follows a
// value of a recursive type: as deep as JSON text may nest, beyond which
// no reader takes it. A value deeper than that, such as a cycle a handler
// built by mistake, is an error, where following it would overflow the
// goroutine's stack, which no recover survives.
const MaxDepth = textdec.MaxDepth

// TooDeep returns an error when a value at depth (pointers followed from
// where AppendJSON began) has reached MaxDepth, nil otherwise.
func TooDeep(depth int) error {
	if depth < MaxDepth {
		return nil
	}
	return fmt.Errorf("encode: a value nested more than %d deep through pointers (a cycle?)", MaxDepth)
}
