// Package optional holds the one type generated argument structs use for a
// property the schema does not require: a value and whether it was present.
//
// A pointer would also say "absent", but costs an allocation per present
// field and invites nil dereferences in handlers; a presence flag keeps the
// struct flat. With the encoding/json "omitzero" option an unset Value is
// left out when the struct is encoded, and a set one is written even when it
// holds the zero value (false is not the same as absent).
package optional

import "encoding/json"

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
// normally keeps an unset value from being encoded at all).
func (o Value[T]) MarshalJSON() ([]byte, error) {
	if !o.Set {
		return []byte("null"), nil
	}
	return json.Marshal(o.V)
}

// UnmarshalJSON sets the value.
func (o *Value[T]) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &o.V); err != nil {
		return err
	}
	o.Set = true
	return nil
}
