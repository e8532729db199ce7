package textdec

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkScanText holds ScanText to ScanString followed by utf8.Valid and
// utf8.RuneCount on the string that opens at data[0].
func checkScanText(t *testing.T, data []byte) {
	t.Helper()
	end, escaped, runes, ok := ScanText(data, 0)
	wEnd, wEscaped, _, wOK := ScanString(data, 0)
	wRunes := -1
	if wOK && !wEscaped {
		text := data[1:wEnd]
		wOK = utf8.Valid(text)
		wRunes = utf8.RuneCount(text)
	}
	if ok != wOK || ok && (end != wEnd || escaped != wEscaped || runes != wRunes) {
		t.Fatalf("ScanText(%q) = %d, %v, %d, %v; want %d, %v, %d, %v", data, end, escaped, runes, ok, wEnd, wEscaped, wRunes, wOK)
	}
}

// TestScanTextAgreesWithTwoPasses places each of the bytes that end a
// run of plain text, an invalid or longer sequence and a lone lead at
// every offset of strings of one- and two-byte text, before and after
// the closing quote, so that each lands at every place of a word.
func TestScanTextAgreesWithTwoPasses(t *testing.T) {
	fillers := []string{strings.Repeat("ش", 12), strings.Repeat("a", 24), strings.Repeat("é ", 8)}
	inserts := []string{"", `"`, `\`, `\"`, `\u00e9`, "\x01", "\n", "四", "😀", "\xd8", "\x80", "\xc0\x80", "\xed\xa0\x80", "ش"}
	for _, f := range fillers {
		for _, in := range inserts {
			for at := 0; at <= len(f); at++ {
				body := f[:at] + in + f[at:]
				checkScanText(t, []byte(`"`+body+`"`))
				checkScanText(t, []byte(`"`+body+`", "next"}`))
				checkScanText(t, []byte(`"`+body)) // no closing quote
			}
		}
	}
}

// TestScanTextRandom compares the two on random strings drawn from the
// bytes that make the cases.
func TestScanTextRandom(t *testing.T) {
	pool := []byte{'a', ' ', '"', '\\', 'n', 0x01, 0x80, 0xa0, 0xbf, 0xc1, 0xc2, 0xd8, 0xdf, 0xe0, 0xed, 0xf0, 0xf4, 0xff}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200_000 {
		checkScanText(t, quotedFrom(rng, pool, 1+rng.IntN(60)))
	}
}

// quotedFrom is n bytes: an opening quote, then bytes drawn from pool.
func quotedFrom(rng *rand.Rand, pool []byte, n int) []byte {
	p := make([]byte, n)
	p[0] = '"'
	for i := 1; i < n; i++ {
		p[i] = pool[rng.IntN(len(pool))]
	}
	return p
}

// FuzzScanText holds ScanText to the two passes on any bytes after an
// opening quote.
func FuzzScanText(f *testing.F) {
	f.Add([]byte(`شركة أكمي", 1`))
	f.Add([]byte(`line\nbreak"`))
	f.Add([]byte("营业\"x"))
	f.Fuzz(func(t *testing.T, p []byte) {
		checkScanText(t, append([]byte{'"'}, bytes.Clone(p)...))
	})
}

// TestStringEndFindsTheClosingQuote holds stringEnd, which reads words, to
// a byte-at-a-time reading, on strings of quotes, backslashes, ASCII and
// high bytes placed at every offset of the words it reads and past them.
func TestStringEndFindsTheClosingQuote(t *testing.T) {
	want := func(data []byte) (int, bool) {
		escaped := false
		for i := 1; i < len(data); i++ {
			switch data[i] {
			case '"':
				return i, escaped
			case '\\':
				escaped = true
				i++
			}
		}
		return len(data) - 1, escaped
	}
	pool := []byte{'a', 'a', 'a', '"', '\\', 0x22 ^ 0x80, 0x5c ^ 0x80, 0x21, 0x23, 0x5b, 0x5d, 0xff, 0x00}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 300_000 {
		data := quotedFrom(rng, pool, 2+rng.IntN(70))
		data[len(data)-1] = '"'
		end, escaped := stringEnd(data, 0)
		if wEnd, wEscaped := want(data); end != wEnd || escaped != wEscaped {
			t.Fatalf("stringEnd(%q) = %d, %v; want %d, %v", data, end, escaped, wEnd, wEscaped)
		}
	}
}

// TestSpecialMaskMarksTheFirst holds the first byte specialMask marks
// (firstMarked) to a byte-at-a-time search, on words whose bytes are drawn from around
// each value whose test borrows (below 0x20, the quote, the backslash),
// so that a byte after a special one is often one a borrow could mark:
// plainRun reads only the first.
func TestSpecialMaskMarksTheFirst(t *testing.T) {
	pool := []byte{0x00, 0x01, 0x1f, 0x20, 0x21, '"', '"' + 1, '"' - 1, '\\', '\\' + 1, '\\' - 1, 'a', 0x7f, 0x80, 0xa2, 0xdc, 0xff}
	rng := rand.New(rand.NewPCG(5, 6))
	var b [8]byte
	for range 500_000 {
		for i := range b {
			b[i] = pool[rng.IntN(len(pool))]
		}
		want := -1
		for i, c := range b {
			if strSpecial[c] {
				want = i
				break
			}
		}
		mask := specialMask(binary.LittleEndian.Uint64(b[:]))
		got := -1
		if mask != 0 {
			got = firstMarked(mask)
		}
		if got != want {
			t.Fatalf("% x: specialMask marks byte %d first, want %d", b, got, want)
		}
	}
}
