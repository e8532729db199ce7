package jsonrpc

import (
	"bytes"
	"errors"
	"sync"
	"unicode/utf8"

	"github.com/go-faster/jx"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcpgen/mcpgen/runtime/schema"
)

// The fast reading of a message.
//
// Decode's rules are those of a strict jsontext reader, which allocates for
// every object member it tracks. Nearly every message is plainly well formed,
// though, and for those a cheaper reading gives the same answer: valid UTF-8
// (utf8.Valid), no escaped surrogate (the one thing jx would read leniently),
// well-formed JSON (read by jx, as strict as the exact reading on valid
// UTF-8: FuzzFastReading holds the two readings to the same answers), and
// unique member names at every depth (checked below against the names already seen in the
// same object, kept in a pooled arena). readFast then hands the members to
// the same envelope rules as the exact reading. Whenever the fast reading
// cannot settle a message — any error, or an object too large for its
// linear duplicate check — the exact reading decides, so every message that
// is refused is refused with the exact reading's error and position.

// maxFastMembers is the largest object whose duplicate names the fast
// reading checks (by comparing each name with those before it); a larger one
// goes to the exact reading, whose check does not grow quadratically.
const maxFastMembers = 64

// errNotFast is the fast reading giving up: the exact reading decides.
var errNotFast = errors.New("jsonrpc: not settled by the fast reading")

// names is the fast reading's record of the member names of the objects
// open at the current depth: each name's bytes in arena, its end in ends.
type names struct {
	arena []byte
	ends  []int
	dec   jx.Decoder // a second decoder, for values read raw and checked apart
}

var namesPool = sync.Pool{New: func() any { return new(names) }}

// readFast fills e from data when the fast reading settles it; ok is false
// when the exact reading must decide.
func (e *envelope) readFast(data []byte) (ok bool) {
	if !utf8.Valid(data) || schema.MayEscapeSurrogate(data) {
		return false
	}
	d := jx.GetDecoder()
	defer jx.PutDecoder(d)
	d.ResetBytes(data)
	if d.Next() != jx.Object {
		return false // a batch or a scalar: the exact reading names it
	}
	n := namesPool.Get().(*names)
	defer func() {
		n.arena, n.ends = n.arena[:0], n.ends[:0]
		namesPool.Put(n)
	}()
	end := bytes.IndexByte(data, '{') + 1 // past the last member read
	err := n.object(d, func(name []byte, d *jx.Decoder) error {
		raw, err := d.Raw()
		if err != nil {
			return err
		}
		// raw is a slice of data (the decoder reads data in place).
		end = cap(data) - cap(raw) + len(raw)
		if k := raw.Type(); k == jx.Object || k == jx.Array {
			if err := n.checkRaw(raw); err != nil {
				return err
			}
		}
		e.set(string(name), jsontext.Value(raw))
		return nil
	})
	if err != nil {
		return false
	}
	// The object read whole, its closing brace is the first thing after the
	// last member; only whitespace may follow it.
	rest := bytes.TrimLeft(data[end:], jsonSpace)
	return len(rest) > 0 && rest[0] == '}' && len(bytes.TrimLeft(rest[1:], jsonSpace)) == 0
}

// jsonSpace is the whitespace JSON allows between tokens.
const jsonSpace = " \t\r\n"

// checkRaw checks the unique names of every object in the value raw.
func (n *names) checkRaw(raw []byte) error {
	n.dec.ResetBytes(raw)
	return n.value(&n.dec)
}

// value reads the next value, checking that every object in it has unique
// member names.
func (n *names) value(d *jx.Decoder) error {
	switch d.Next() {
	case jx.Object:
		return n.object(d, func(_ []byte, d *jx.Decoder) error { return n.value(d) })
	case jx.Array:
		return d.Arr(n.value)
	default:
		return d.Skip()
	}
}

// object reads an object, calling member for each member after checking
// that its name (unescaped) is not one the object already had.
func (n *names) object(d *jx.Decoder, member func(name []byte, d *jx.Decoder) error) error {
	base := len(n.ends)
	arenaBase := len(n.arena)
	defer func() {
		n.ends = n.ends[:base]
		n.arena = n.arena[:arenaBase]
	}()
	return d.ObjBytes(func(d *jx.Decoder, key []byte) error {
		if len(n.ends)-base >= maxFastMembers {
			return errNotFast
		}
		start := arenaBase
		for _, end := range n.ends[base:] {
			if bytes.Equal(n.arena[start:end], key) {
				return errNotFast // a duplicate: the exact reading reports it
			}
			start = end
		}
		// The key may alias the decoder's buffer; the arena keeps a copy.
		n.arena = append(n.arena, key...)
		n.ends = append(n.ends, len(n.arena))
		return member(n.arena[len(n.arena)-len(key):], d)
	})
}
