// Package optional holds the types generated argument structs use for a
// property the schema does not require (Value: a value and whether it was
// present) and for one that may be null (Nullable: absent, null or a value).
//
// A pointer would also say "absent", but costs an allocation per present
// field and invites nil dereferences in handlers; a presence flag keeps the
// struct flat. With the encoding/json "omitzero" option an unset Value is
// left out when the struct is encoded, and a set one is written even when it
// holds the zero value (false is not the same as absent).
package optional

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/runtime/encode"
)

// Value is an optional T: Set reports whether the property was present.
type Value[T any] struct {
	V   T
	Set bool
}

// Some returns a set Value holding v.
func Some[T any](v T) Value[T] { return Value[T]{V: v, Set: true} }

// Get returns the value and whether it is set.
func (o Value[T]) Get() (T, bool) { return o.V, o.Set }

// Or returns the value when set and def otherwise.
func (o Value[T]) Or(def T) T {
	if o.Set {
		return o.V
	}
	return def
}

// IsZero reports whether the value is unset, which is what makes
// `json:",omitzero"` leave an unset property out.
func (o Value[T]) IsZero() bool { return !o.Set }

// MarshalJSON encodes the held value (null when unset, though omitzero
// normally keeps an unset value from being encoded at all), without HTML
// escaping: the encoding that encodes the Value escapes "<" if it does, as
// it would a string of its own (see encode.Marshal).
func (o Value[T]) MarshalJSON() ([]byte, error) {
	if !o.Set {
		return []byte("null"), nil
	}
	return encode.Marshal(o.V)
}

// UnmarshalJSON sets the value.
func (o *Value[T]) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &o.V); err != nil {
		return err
	}
	o.Set = true
	return nil
}

// Nullable is a property whose schema allows null as well as a T (type
// [T, "null"], or anyOf with {"type": "null"}), in three states: absent
// (the zero Nullable), present and null, present with a value. Absent and
// null are different on the wire, and can mean different things to a tool:
// "leave the due date as it is" against "clear the due date". A required
// nullable property is never absent in arguments that passed validation.
type Nullable[T any] struct {
	V T
	// Set reports whether the property was present, null or not.
	Set bool
	// Null reports whether it was null.
	Null bool
}

// Null returns a present, null Nullable.
func Null[T any]() Nullable[T] { return Nullable[T]{Set: true, Null: true} }

// NotNull returns a present Nullable holding v.
func NotNull[T any](v T) Nullable[T] { return Nullable[T]{V: v, Set: true} }

// Get returns the value and whether there is one: false when absent or
// null.
func (n Nullable[T]) Get() (T, bool) { return n.V, n.Set && !n.Null }

// IsNull reports whether the property was present and null.
func (n Nullable[T]) IsNull() bool { return n.Set && n.Null }

// IsZero reports whether the property is absent, which is what makes
// `json:",omitzero"` leave it out.
func (n Nullable[T]) IsZero() bool { return !n.Set }

// MarshalJSON encodes null or the held value, as Value's does.
func (n Nullable[T]) MarshalJSON() ([]byte, error) {
	if !n.Set || n.Null {
		return []byte("null"), nil
	}
	return encode.Marshal(n.V)
}

// UnmarshalJSON reads null or a value.
func (n *Nullable[T]) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = Null[T]()
		return nil
	}
	if err := json.Unmarshal(b, &n.V); err != nil {
		return err
	}
	n.Set, n.Null = true, false
	return nil
}
