// Package textdec is the strict reading of JSON text the server's path
// shares. Validate checks a whole text in one pass (the grammar, UTF-8,
// surrogates, distinct member names, depth); EachMember and ValueEnd then
// split text it accepted without checking it again; AppendUnquote and Kind
// read one value of it.
//
// It also lends runtime/schema, whose reference validator decodes into a
// value model, pooled jsontext decoders: a decoder reads its byte slice in
// place, where allocating a fresh one, and the buffer it copies its input
// into, was most of what reading a small value cost.
package textdec

import (
	"bytes"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// Decoder is a jsontext decoder reading one byte slice in place.
type Decoder struct {
	jsontext.Decoder
	src bytes.Buffer
}

var pool = sync.Pool{New: func() any { return new(Decoder) }}

// Get returns a decoder reading data, which must not change until Put.
// Values read as text (jsontext.Value) may alias the decoder's own buffers;
// a caller that keeps one slices it out of data instead.
func Get(data []byte) *Decoder {
	d := pool.Get().(*Decoder)
	d.src = *bytes.NewBuffer(data) // a bytes.Buffer is read without a copy
	d.Reset(&d.src)
	return d
}

// Put returns d to the pool, without a hold on the data it read. d must not
// be used after.
func (d *Decoder) Put() {
	d.src = bytes.Buffer{}
	d.Reset(&d.src)
	pool.Put(d)
}
