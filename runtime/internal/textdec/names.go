package textdec

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"slices"
)

// stringEnd returns the offset of the quote that closes the string opening
// at data[open], and whether the string has an escape. Names are mostly
// short: their first 32 bytes are read a word at a time (see quoteMask),
// the rest of a long string with IndexByte.
func stringEnd(data []byte, open int) (end int, escaped bool) {
	i := open + 1
	for i < open+32 && i+8 <= len(data) {
		m := quoteMask(binary.LittleEndian.Uint64(data[i:]))
		if m == 0 {
			i += 8
			continue
		}
		if i += firstMarked(m); data[i] == '"' {
			return i, escaped
		}
		escaped = true
		i += 2 // the escaped byte is never the closing quote
	}
	for ; i < len(data) && i < open+32; i++ {
		switch data[i] {
		case '"':
			return i, escaped
		case '\\':
			escaped = true
			i++ // the escaped byte is never the closing quote
		}
	}
	for i < len(data) {
		q := bytes.IndexByte(data[i:], '"')
		if q < 0 {
			break
		}
		end = i + q
		if bytes.IndexByte(data[i:end], '\\') < 0 {
			return end, escaped
		}
		escaped = true
		backslashes := 0
		for j := end - 1; j > open && data[j] == '\\'; j-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return end, escaped
		}
		i = end + 1 // the quote is escaped
	}
	return len(data) - 1, escaped // cannot happen in text a decoder read
}

// text returns the unescaped name at pos, in buf when it needs unescaping.
func (s *scanner) text(pos uint32, buf *[]byte) []byte {
	end, escaped := stringEnd(s.data, int(pos))
	if !escaped {
		return s.data[pos+1 : end]
	}
	*buf, _ = AppendUnquote((*buf)[:0], s.data[pos:end+1])
	return *buf
}

func (s *scanner) compare(x, y uint32) int {
	return bytes.Compare(s.text(x, &s.a), s.text(y, &s.b))
}

// repeat finds, among one object's names, the name that first repeats an
// earlier one in document order. It may reorder names.
func (s *scanner) repeat(names []uint32) (at uint32, found bool) {
	if len(names) <= 8 {
		// Each name's text once, the unescaped ones one after another
		// in s.a.
		var texts [8][]byte
		var spans [8][2]int
		s.a = s.a[:0]
		for i, pos := range names {
			end, escaped := stringEnd(s.data, int(pos))
			if !escaped {
				texts[i] = s.data[pos+1 : end]
				continue
			}
			start := len(s.a)
			s.a, _ = AppendUnquote(s.a, s.data[pos:end+1])
			spans[i] = [2]int{start, len(s.a)}
		}
		for i := range names {
			if spans[i] != [2]int{} {
				texts[i] = s.a[spans[i][0]:spans[i][1]]
			}
		}
		for j := 1; j < len(names); j++ {
			for i := range j {
				if bytes.Equal(texts[i], texts[j]) {
					return names[j], true
				}
			}
		}
		return 0, false
	}
	// Sorted by name, equal names in document order: each equal pair's
	// second is a repeat, and the first of them in the document is the one
	// a strict decoder stops at.
	slices.SortFunc(names, func(x, y uint32) int {
		if c := s.compare(x, y); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	for i := 1; i < len(names); i++ {
		if (!found || names[i] < at) && s.compare(names[i-1], names[i]) == 0 {
			at, found = names[i], true
		}
	}
	return at, found
}

// report is the error for the repeat at, found when the object of frame
// top closed. A strict decoder stops at the first repeat in the document,
// which may be one of an enclosing object's names read before at: those
// objects are still open, so their names so far are checked too.
func (s *scanner) report(top int, at uint32) error {
	object := top
	for f := top - 1; f >= 0; f-- {
		if !s.stack[f].object {
			continue
		}
		names := s.names[s.stack[f].start:s.stack[f+1].start]
		if a, found := s.repeat(names); found && a < at {
			at, object = a, f
		}
	}
	return &SyntaxError{Offset: int(at), Pointer: s.pointer(object), Err: ErrDuplicateName, name: string(s.text(at, &s.a))}
}
