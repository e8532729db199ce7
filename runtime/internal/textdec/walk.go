package textdec

import "encoding/binary"

// EachMember calls fn with each member of the JSON object obj, in order:
// its name as written (quotes and escapes included), whether the name has
// an escape, and the value's text, slices of obj (see Member). obj must be
// text Validate accepted (or a value within such text): the walk splits it
// and checks nothing, so it costs a few bytes a nanosecond whatever obj
// holds, and allocates nothing.
func EachMember(obj []byte, fn func(m Member)) {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return
	}
	i = skipSpace(obj, i+1)
	for i < len(obj) && obj[i] == '"' {
		nameEnd, escaped := stringEnd(obj, i)
		name := obj[i : nameEnd+1]
		i = skipSpace(obj, nameEnd+1) // at ':'
		i = skipSpace(obj, i+1)
		end := ValueEnd(obj, i)
		fn(Member{Name: name, Value: obj[i:end], Escaped: escaped})
		i = skipSpace(obj, end)
		if i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
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
	i := skipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return
	}
	i = skipSpace(arr, i+1)
	for i < len(arr) && arr[i] != ']' {
		end := ValueEnd(arr, i)
		fn(arr[i:end])
		i = skipSpace(arr, end)
		if i < len(arr) && arr[i] == ',' {
			i = skipSpace(arr, i+1)
		}
	}
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
