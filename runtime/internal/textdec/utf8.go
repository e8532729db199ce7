package textdec

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// ValidUTF8 reports whether p is valid UTF-8, as utf8.Valid does (as
// CountUTF8 reads it, without the count).
func ValidUTF8(p []byte) bool {
	_, ok := readUTF8(p, false)
	return ok
}

// CountUTF8 reports whether p is valid UTF-8, as utf8.Valid does, and, when
// it is, how many code points it holds: a maxLength needs no second pass.
// It reads eight bytes at a time not only through ASCII, as utf8.Valid
// does, but also through text of one- and two-byte sequences mixed (the
// Latin, Greek, Cyrillic, Hebrew and Arabic scripts, with spaces and
// digits between the words), where utf8.Valid decodes each sequence on its
// own. Such a word is valid exactly when each lead byte is followed by a
// continuation byte and each continuation byte follows a lead: one
// comparison of two masks, the lead of the word's last byte carried to
// the next. A word holding a longer sequence, or a byte out of place, is
// left to utf8.Valid with the bytes around it. In valid UTF-8 every code
// point has exactly one byte that is not a continuation byte (10xxxxxx):
// the count is the length less those, which the two-byte check has in
// hand.
func CountUTF8(p []byte) (runes int, ok bool) { return readUTF8(p, true) }

// readUTF8 is CountUTF8, which counts only when count is set: the strict
// scanner's check of every string needs no count, and a pass over the
// bytes utf8.Valid has read is all counting would add to it.
func readUTF8(p []byte, count bool) (runes int, ok bool) {
	q := p           // what is left to read, from a word boundary
	var carry uint64 // 0x80 when the word before q ended with a lead
	conts := 0       // the continuation bytes before q
	for len(q) >= 8 {
		w := binary.LittleEndian.Uint64(q)
		hi := w & highs // the non-ASCII bytes
		if hi|carry == 0 {
			q = q[8:]
			// If there is one ASCII word, there are probably more.
			for len(q) >= 32 && (word(q, 0)|word(q, 8)|word(q, 16)|word(q, 24))&highs == 0 {
				q = q[32:]
			}
			continue
		}
		if cont, next, ok := twoByteWord(w, carry); ok {
			if count {
				conts += bits.OnesCount64(cont)
			}
			carry = next
			q = q[8:]
			continue
		}
		// This word and the next seven, from the rune the word began in
		// to where a rune begins.
		at := len(p) - len(q)
		from := at - int(carry>>7)
		to := at + min(64, len(q))
		for to < len(p) && p[to]&0xc0 == 0x80 {
			to++
		}
		if !utf8.Valid(p[from:to]) {
			return 0, false
		}
		if count {
			conts += continuations(p[at:to])
		}
		q, carry = p[to:], 0
	}
	if !utf8.Valid(p[len(p)-len(q)-int(carry>>7):]) {
		return 0, false
	}
	if !count {
		return 0, true
	}
	return len(p) - conts - continuations(q), true
}

// CodePoints counts the code points of s, which is valid UTF-8.
func CodePoints(s string) int { return len(s) - continuations(s) }

// twoByteWord checks w, eight bytes of text, as one- and two-byte
// sequences (see CountUTF8): ok says they are valid, carry is 0x80 when the
// word before ended with a lead (next when w does), and cont has the high
// bit of each of w's continuation bytes set.
func twoByteWord(w, carry uint64) (cont, next uint64, ok bool) {
	hi := w & highs // the non-ASCII bytes
	// Each byte's bit 6 at its bit 7 (and w<<2 its bit 5): hi, which has
	// bit 7 alone, masks them, so that the function is small enough to be
	// inlined in the loops that call it.
	bit6 := w << 1
	cont = hi &^ bit6             // 10xxxxxx
	lead := hi & bit6 &^ (w << 2) // 110xxxxx
	// A lead of 0xC0 or 0xC1 (110 0000x) would write an ASCII character
	// in two bytes: its bits 1 to 4 are zero.
	overlong := lead &^ (w&(lows*0x1e) + lows*0x7f)
	if hi&bit6&(w<<2)|overlong != 0 || cont != lead<<8|carry {
		return 0, 0, false
	}
	return cont, lead >> 56, true
}

// continuations counts the bytes of p that continue a sequence
// (10xxxxxx), eight at a time.
func continuations[T string | []byte](p T) int {
	n, i := 0, 0
	for ; i+8 <= len(p); i += 8 {
		w := word(p, i)
		n += bits.OnesCount64(w & highs &^ (w << 1))
	}
	for ; i < len(p); i++ {
		if p[i]&0xc0 == 0x80 {
			n++
		}
	}
	return n
}

// word is the 8 bytes of p at i as one little-endian word (the shifts are
// combined into one load), for text as a string or as bytes.
func word[T ~string | ~[]byte](p T, i int) uint64 {
	_ = p[i+7]
	return uint64(p[i]) | uint64(p[i+1])<<8 | uint64(p[i+2])<<16 | uint64(p[i+3])<<24 |
		uint64(p[i+4])<<32 | uint64(p[i+5])<<40 | uint64(p[i+6])<<48 | uint64(p[i+7])<<56
}
