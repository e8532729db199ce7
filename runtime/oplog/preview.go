package oplog

import (
	"encoding/json"
	"strconv"

	"github.com/go-faster/jx"
)

// Preview decodes the JSON text raw, one value a strict decoder accepted,
// into the JSON value model of package schema (maps, slices, strings,
// json.Number, bools, nil) as far as limits allow: what a log shows of a
// value a peer sent, without decoding all of it. Strings are clipped; once
// MaxRecord bytes are taken, the rest is skipped unread and an object or
// array ends with a member or element counting what was left out. Text
// that is not JSON previews as nil.
func Preview(raw []byte, limits Limits) any {
	d := jx.GetDecoder()
	defer jx.PutDecoder(d)
	d.ResetBytes(raw)
	b := budget{Limits: limits.withDefaults()}
	b.left = b.MaxRecord
	v, _ := b.preview(d, 0)
	return v
}

func (b *budget) preview(d *jx.Decoder, depth int) (any, error) {
	if depth > maxDepth || b.spent() {
		return "…", d.Skip()
	}
	switch d.Next() {
	case jx.String:
		s, err := d.StrBytes()
		return b.strBytes(s), err
	case jx.Number:
		n, err := d.Raw()
		return json.Number(b.strBytes(n)), err
	case jx.Bool:
		return d.Bool()
	case jx.Null:
		return nil, d.Null()
	case jx.Object:
		m := map[string]any{}
		left := 0
		err := d.ObjBytes(func(d *jx.Decoder, key []byte) error {
			if b.spent() {
				left++
				return d.Skip()
			}
			b.element()
			k := b.strBytes(key)
			v, err := b.preview(d, depth+1)
			m[k] = v
			return err
		})
		if left > 0 {
			m["…"] = strconv.Itoa(left) + " more members"
		}
		return m, err
	case jx.Array:
		a := []any{}
		left := 0
		err := d.Arr(func(d *jx.Decoder) error {
			if b.spent() {
				left++
				return d.Skip()
			}
			b.element()
			v, err := b.preview(d, depth+1)
			a = append(a, v)
			return err
		})
		if left > 0 {
			a = append(a, strconv.Itoa(left)+" more elements")
		}
		return a, err
	}
	return nil, d.Skip()
}

// strBytes is str for bytes that are only read: no more than the clipped
// string is copied.
func (b *budget) strBytes(s []byte) string {
	out := clip(s, min(b.MaxString, b.left))
	b.left -= min(len(out), b.left)
	return out
}
