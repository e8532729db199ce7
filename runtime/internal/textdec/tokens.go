package textdec

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// The functions of this file read one token of a text nobody has checked
// yet, for a reader that checks the grammar as it goes (package decode's)
// rather than in a pass of its own (Validate). Each reads within data
// whatever data holds.

// ScanString reads the string whose opening quote is at data[open]: end is
// the offset of its closing quote, escaped says whether it has an escape,
// and ascii whether every byte of it is ASCII. ok is false when the
// string holds a control character or ends before its closing quote.
// Neither its escapes nor its UTF-8 are checked: AppendUnquote checks
// both, for a string with escapes, and ValidUTF8 the text of one without
// that is not ASCII. The scan stops at the bytes that end a run of plain
// text, 8 at a time, as Validate's does.
func ScanString(data []byte, open int) (end int, escaped, ascii, ok bool) {
	return scanRest(data, open+1, 0)
}

// scanRest is ScanString from data[i], after plain text whose bytes, or-ed,
// are hi.
func scanRest(data []byte, i int, hi uint64) (end int, escaped, ascii, ok bool) {
	for {
		i = plainRun(data, i, &hi)
		if i >= len(data) {
			return 0, escaped, false, false
		}
		switch data[i] {
		case '"':
			return i, escaped, hi&highs == 0, true
		case '\\':
			escaped = true
			i += 2 // the escaped byte is never the closing quote
		default:
			return 0, escaped, false, false // a control character
		}
	}
}

// ScanText is ScanString that also checks the UTF-8 of a string without
// escapes and counts its code points, in the same pass over its words:
// runes is the count, or -1 for a string with escapes (AppendUnquote
// checks those). ok is also false when the UTF-8 is invalid. Words of
// ASCII and of two-byte sequences are checked as they are scanned (see
// CountUTF8); from a longer sequence, or an escape, the rest is scanned
// as ScanString scans, and a string without escapes then checked and
// counted by CountUTF8.
func ScanText(data []byte, open int) (end int, escaped bool, runes int, ok bool) {
	i := open + 1
	for i+8 <= len(data) {
		w := binary.LittleEndian.Uint64(data[i:])
		if m := specialMask(w); m != 0 {
			// The word holds the byte that ends the plain text: its
			// place is the mask's first mark, where textEnd starts
			// (rather than a byte at a time from the word's start),
			// when the bytes before it are ASCII.
			k := firstMarked(m)
			if w&highs&(1<<(8*k)-1) != 0 {
				return scanTwoByte(data, open, i)
			}
			return textEnd(data, open, i+k, 0, 0)
		}
		if w&highs != 0 {
			return scanTwoByte(data, open, i)
		}
		i += 8
	}
	return textEnd(data, open, i, 0, 0)
}

// scanTwoByte is ScanText from data[i], the first word that is not ASCII:
// a loop of its own, so that the two-byte check inlined in it does not
// weigh on the loop through ASCII.
func scanTwoByte(data []byte, open, i int) (end int, escaped bool, runes int, ok bool) {
	var carry uint64 // 0x80 when the word before i ended with a lead
	conts := 0       // the continuation bytes before i
	for i+8 <= len(data) {
		w := binary.LittleEndian.Uint64(data[i:])
		if special8(w) {
			break
		}
		if w&highs|carry != 0 {
			cont, next, ok := twoByteWord(w, carry)
			if !ok {
				return scanThenCount(data, open, i, highs)
			}
			conts, carry = conts+bits.OnesCount64(cont), next
		}
		i += 8
	}
	return textEnd(data, open, i, carry, conts)
}

// textEnd is ScanText from data[i], where fewer than eight bytes are left
// or a word holds a byte that ends plain text; carry and conts are as the
// words before i left them.
func textEnd(data []byte, open, i int, carry uint64, conts int) (end int, escaped bool, runes int, ok bool) {
	j := i // the rest a byte at a time, to the byte that ends plain text
	var hi byte
	for j < len(data) && !strSpecial[data[j]] {
		hi |= data[j]
		j++
	}
	switch {
	case j >= len(data) || data[j] < 0x20:
		return 0, false, 0, false
	case data[j] == '\\':
		return scanThenCount(data, open, j, 0) // an escape: ascii is not asked
	}
	// data[j] is the closing quote.
	if hi&0x80 != 0 || carry != 0 {
		if !utf8.Valid(data[i-int(carry>>7) : j]) {
			return 0, false, 0, false
		}
		conts += continuations(data[i:j])
	}
	return j, false, j - open - 1 - conts, true
}

// scanThenCount is ScanText from data[i], where its one pass stopped,
// after plain text whose bytes, or-ed, are hi: the rest scanned as
// ScanString scans, and then, without escapes, CountUTF8 over the text.
func scanThenCount(data []byte, open, i int, hi uint64) (end int, escaped bool, runes int, ok bool) {
	end, escaped, ascii, ok := scanRest(data, i, hi)
	switch {
	case !ok:
		return 0, false, 0, false
	case escaped:
		return end, true, -1, true
	case ascii:
		return end, false, end - open - 1, true
	}
	runes, ok = CountUTF8(data[open+1 : end])
	return end, false, runes, ok
}

// NumberEnd reads the number beginning at data[i] (RFC 8259 §6: an
// optional minus, an integer part without leading zeros, an optional
// fraction and exponent) and returns the offset after it. When it is not
// one, ok is false and end is where a digit was wanted.
func NumberEnd(data []byte, i int) (end int, ok bool) {
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i >= len(data):
		return i, false
	case data[i] == '0':
		i++
	case '1' <= data[i] && data[i] <= '9':
		i = digits(data, i+1)
	default:
		return i, false
	}
	if i < len(data) && data[i] == '.' {
		j := digits(data, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := digits(data, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

// plainRun returns the offset of the first byte at or after i that ends a
// run of a string's plain text (strSpecial), or len(data): 8 bytes at a
// time, and the last fewer than 8 of data one at a time. It ors the bytes
// it passes into *hi, whose high bit then says whether any was not ASCII.
func plainRun(data []byte, i int, hi *uint64) int {
	h := *hi
	for i+8 <= len(data) {
		w := binary.LittleEndian.Uint64(data[i:])
		if m := specialMask(w); m != 0 {
			// The first marked byte ends the run; the bytes before it
			// are the run's.
			k := firstMarked(m)
			*hi = h | w&(1<<(8*k)-1)
			return i + k
		}
		h |= w
		i += 8
	}
	for i < len(data) && !strSpecial[data[i]] {
		h |= uint64(data[i])
		i++
	}
	*hi = h
	return i
}
