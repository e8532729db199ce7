package textdec

import (
	"bytes"
	"testing"
)

// TestDecodersReadTheirOwnData reads values with decoders that come back
// from the pool: each reads the data it was given, whatever the one before
// read, and holds nothing of it once put back.
func TestDecodersReadTheirOwnData(t *testing.T) {
	for _, text := range []string{`{"a":[1,2,{"b":"c"}]}`, `"x"`, `[true,null]`, `{"a":[1,2,{"b":"c"}]}`} {
		data := []byte(text)
		d := Get(data)
		v, err := d.ReadValue()
		if err != nil || !bytes.Equal(v, data) {
			t.Errorf("read %s: got %s, %v", text, v, err)
		}
		if off := d.InputOffset(); off != int64(len(data)) {
			t.Errorf("read %s: offset %d", text, off)
		}
		d.Put()
		if d.src.Len() != 0 {
			t.Errorf("a decoder back in the pool still holds %q", d.src.Bytes())
		}
	}
}
