package textdec

import "encoding/binary"

// EachMember calls fn with each member of the JSON object obj, in order:
// its name as written (quotes and escapes included), whether the name has
// an escape, and the value's text, slices of obj (see Member). obj must be
// text Validate accepted (or a value within such text): the walk splits it
// and checks nothing, so it costs a few bytes a nanosecond whatever obj
// holds, and allocates nothing. (It is not inlined: a caller that
// inlines its own small wrapper of it, jsonrpc.EachMember's, then keeps
// the function it passes on its stack.)
//
//go:noinline
func EachMember(obj []byte, fn func(m Member)) {
	WalkObject(obj, 0, func(m Member, value int) int {
		end := ValueEnd(obj, value)
		m.Value = obj[value:end]
		fn(m)
		return end
	})
}

// WalkObject walks the JSON object that begins at data[i] (after any
// whitespace), calling fn with each member, in order: its name as written
// (Member.Value unset) and the offset its value begins at; fn reads the
// value and returns the offset just after it (ValueEnd's, when it only
// skips it). It returns the offset just after the object. Unlike
// EachMember it finds no value's end before fn reads it, so a walk that
// goes into the values, a walk of a walk, reads each byte once however
// deep they nest (finding each end first reads a value once for every
// level above it). data must be text Validate accepted; on other text the
// walk stops, without reading past data or looping.
func WalkObject(data []byte, i int, fn func(m Member, value int) (end int)) int {
	i = skipSpace(data, i)
	if i >= len(data) || data[i] != '{' {
		return len(data)
	}
	i = skipSpace(data, i+1)
	for i < len(data) && data[i] == '"' {
		nameEnd, escaped := stringEnd(data, i)
		name := data[i : nameEnd+1]
		i = skipSpace(data, nameEnd+1) // at ':'
		value := skipSpace(data, i+1)
		if i = nextItem(data, value, fn(Member{Name: name, Escaped: escaped}, value)); i < 0 {
			return len(data)
		}
	}
	return i + 1
}

// nextItem is where the member or element after the value that began at
// value and ended at end begins (or the container's closing bracket), or
// -1 when fn read no value there: text Validate refuses.
func nextItem(data []byte, value, end int) int {
	if end <= value || end > len(data) {
		return -1
	}
	i := skipSpace(data, end)
	if i < len(data) && data[i] == ',' {
		i = skipSpace(data, i+1)
	}
	return i
}

// WalkArray is WalkObject for the JSON array that begins at data[i]: fn
// gets each element's index and the offset it begins at.
func WalkArray(data []byte, i int, fn func(n, value int) (end int)) int {
	i = skipSpace(data, i)
	if i >= len(data) || data[i] != '[' {
		return len(data)
	}
	i = skipSpace(data, i+1)
	for n := 0; i < len(data) && data[i] != ']'; n++ {
		if i = nextItem(data, i, fn(n, i)); i < 0 {
			return len(data)
		}
	}
	return i + 1
}

// ValueEnd returns the offset just after the value that begins at
// data[i], in text Validate accepted.
func ValueEnd(data []byte, i int) int {
	switch data[i] {
	case '"':
		end, _ := stringEnd(data, i)
		return end + 1
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				end, _ := stringEnd(data, i)
				i = end + 1
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(data)
	}
	// A number or a literal runs to the next delimiter.
	for i < len(data) {
		switch data[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// EachElement calls fn with the text of each element of the JSON array
// arr, in order, slices of arr. arr must be text Validate accepted, as
// for EachMember.
func EachElement(arr []byte, fn func(value []byte)) {
	WalkArray(arr, 0, func(_, value int) int {
		end := ValueEnd(arr, value)
		fn(arr[value:end])
		return end
	})
}

// TrimSpace returns v without the JSON whitespace around it.
func TrimSpace(v []byte) []byte {
	i := skipSpace(v, 0)
	j := len(v)
	for j > i && (v[j-1] == ' ' || v[j-1] == '\t' || v[j-1] == '\n' || v[j-1] == '\r') {
		j--
	}
	return v[i:j]
}

// AppendCompact appends data to dst without its insignificant whitespace,
// as encoding/json's Compact writes it. data must be text Validate
// accepted: nothing is checked, strings are copied as they are, and text
// with no whitespace between its tokens (what most writers send) is
// copied in one append.
func AppendCompact(dst, data []byte) []byte {
	if !hasSpace(data) {
		return append(dst, data...) // nothing between tokens, nor in strings
	}
	start := 0 // data[start:i] is still to be copied
	for i := 0; i < len(data); {
		switch data[i] {
		case '"':
			end, _ := stringEnd(data, i)
			i = end + 1
		case ' ', '\t', '\n', '\r':
			dst = append(dst, data[start:i]...)
			i = skipSpace(data, i)
			start = i
		default:
			i++
		}
	}
	return append(dst, data[start:]...)
}

// hasSpace reports whether data, text Validate accepted, holds a byte
// below 0x21, eight bytes at a time. In such text each one is a space,
// tab, line feed or carriage return (a string holds no other control
// character as it is): without one, the text is compact already, and
// AppendCompact copies it whole instead of stepping over every string.
func hasSpace(data []byte) bool {
	i := 0
	for ; i+8 <= len(data); i += 8 {
		if below(binary.LittleEndian.Uint64(data[i:]), 0x21)&highs != 0 {
			return true
		}
	}
	for ; i < len(data); i++ {
		if data[i] < 0x21 {
			return true
		}
	}
	return false
}
