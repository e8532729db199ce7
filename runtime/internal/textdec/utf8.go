package textdec

import (
	"encoding/binary"
	"unicode/utf8"
)

// ValidUTF8 reports whether p is valid UTF-8, as utf8.Valid does. It reads
// eight bytes at a time not only through ASCII, as utf8.Valid does, but
// also through text of one- and two-byte sequences mixed (the Latin,
// Greek, Cyrillic, Hebrew and Arabic scripts, with spaces and digits
// between the words), where utf8.Valid decodes each sequence on its own.
// Such a word is valid exactly when each lead byte is followed by a
// continuation byte and each continuation byte follows a lead: one
// comparison of two masks, the lead of the word's last byte carried to
// the next. A word holding a longer sequence, or a byte out of place, is
// left to utf8.Valid with the bytes around it.
func ValidUTF8(p []byte) bool {
	q := p           // what is left to read, from a word boundary
	var carry uint64 // 0x80 when the word before q ended with a lead
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
		bit6 := w << 1 & highs // each byte's bit 6, at its bit 7
		bit5 := w << 2 & highs
		cont := hi &^ bit6        // 10xxxxxx
		lead := hi & bit6 &^ bit5 // 110xxxxx
		// A lead of 0xC0 or 0xC1 (110 0000x) would write an ASCII
		// character in two bytes: its bits 1 to 4 are zero.
		overlong := lead &^ (w&(lows*0x1e) + lows*0x7f)
		if hi&bit6&bit5|overlong == 0 && cont == lead<<8|carry {
			carry = lead >> 56
			q = q[8:]
			continue
		}
		// This word and the next seven, from the rune the word began in
		// to where a rune begins.
		from := len(p) - len(q) - int(carry>>7)
		to := len(p) - len(q) + min(64, len(q))
		for to < len(p) && p[to]&0xc0 == 0x80 {
			to++
		}
		if !utf8.Valid(p[from:to]) {
			return false
		}
		q, carry = p[to:], 0
	}
	return utf8.Valid(p[len(p)-len(q)-int(carry>>7):])
}

func word(p []byte, i int) uint64 { return binary.LittleEndian.Uint64(p[i:]) }
