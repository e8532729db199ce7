package textdec

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkUTF8 holds CountUTF8 and ValidUTF8 to utf8.Valid on p and, when p
// is valid, CountUTF8's count to utf8.RuneCount.
func checkUTF8(t *testing.T, p []byte) {
	t.Helper()
	n, ok := CountUTF8(p)
	if want := utf8.Valid(p); ok != want || ValidUTF8(p) != want {
		t.Fatalf("% x: CountUTF8 says valid %v, ValidUTF8 %v, utf8.Valid %v", p, ok, ValidUTF8(p), want)
	}
	if want := utf8.RuneCount(p); ok && n != want {
		t.Fatalf("CountUTF8(% x) = %d code points, utf8.RuneCount says %d", p, n, want)
	}
}

// TestValidUTF8AgreesWithUTF8Valid places every sequence of one to three
// bytes, and every four-byte one with a lead from 0xF0 to 0xF5, at every
// offset of a 17-byte text of one- and two-byte characters, so that each
// lands at every place of a word, across the boundary of two, and in the
// tail after the last whole word.
func TestValidUTF8AgreesWithUTF8Valid(t *testing.T) {
	fillers := []string{strings.Repeat("ش", 9), strings.Repeat("a", 17), strings.Repeat("é ", 6)}
	var seqs [][]byte
	for a := range 256 {
		seqs = append(seqs, []byte{byte(a)})
		for b := range 256 {
			seqs = append(seqs, []byte{byte(a), byte(b)})
		}
	}
	for a := 0xc0; a < 0x100; a++ {
		for _, b := range []byte{0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0} {
			for _, c := range []byte{0x7f, 0x80, 0xbf, 0xc0} {
				seqs = append(seqs, []byte{byte(a), b, c})
				if a >= 0xf0 && a <= 0xf5 {
					seqs = append(seqs, []byte{byte(a), b, c, 0x80}, []byte{byte(a), b, c, 0xc0})
				}
			}
		}
	}
	for _, f := range fillers {
		for _, s := range seqs {
			for at := 0; at <= 17 && at <= len(f); at++ {
				checkUTF8(t, []byte(f[:at]+string(s)+f[at:]))
			}
		}
	}
}

// TestValidUTF8Random compares the two on random texts drawn from the
// bytes that make the cases: ASCII, continuation bytes, and the leads of
// every length.
func TestValidUTF8Random(t *testing.T) {
	pool := []byte{'a', ' ', 0x80, 0x9f, 0xa0, 0xbf, 0xc1, 0xc2, 0xd8, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200_000 {
		p := make([]byte, rng.IntN(100))
		for i := range p {
			p[i] = pool[rng.IntN(len(pool))]
		}
		checkUTF8(t, p)
	}
}

// FuzzValidUTF8 holds CountUTF8 to utf8.Valid and utf8.RuneCount on any
// bytes.
func FuzzValidUTF8(f *testing.F) {
	f.Add([]byte("شركة أكمي 2026 – 四 🙂"))
	f.Add([]byte("\xd8\xb4\xd8\xb1\xd9\x83\xd8"))
	f.Fuzz(func(t *testing.T, p []byte) { checkUTF8(t, p) })
}

// CodePoints must count what utf8.RuneCountInString counts in every valid
// UTF-8 string, whatever mix of one- to four-byte sequences it has and
// wherever they fall against its eight-byte words.
func TestCodePointsCountsRunes(t *testing.T) {
	pieces := []string{"a", "é", "ش", "€", "😀", "\u0080", "\U0010FFFF", "abcdefgh", " "}
	for _, s := range []string{"", "x", "PMT-771", strings.Repeat("شركة ", 30), strings.Repeat("😀a", 13)} {
		if got, want := CodePoints(s), utf8.RuneCountInString(s); got != want {
			t.Errorf("CodePoints(%q) = %d, want %d", s, got, want)
		}
	}
	// Every string of up to five pieces, so that each sequence length
	// starts at every offset of a word.
	var build func(prefix string, depth int)
	build = func(prefix string, depth int) {
		if got, want := CodePoints(prefix), utf8.RuneCountInString(prefix); got != want {
			t.Fatalf("CodePoints(%q) = %d, want %d", prefix, got, want)
		}
		if depth == 5 {
			return
		}
		for _, p := range pieces {
			build(prefix+p, depth+1)
		}
	}
	build("", 0)
}

// FuzzCodePoints holds CodePoints to utf8.RuneCountInString on any valid
// UTF-8 string.
func FuzzCodePoints(f *testing.F) {
	f.Add("PMT-771")
	f.Add("شارع الشيخ زايد")
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		if got, want := CodePoints(s), utf8.RuneCountInString(s); got != want {
			t.Fatalf("CodePoints(%q) = %d, want %d", s, got, want)
		}
	})
}

// TestCountUTF8LongText counts texts longer than one window of the slow
// path (64 bytes), with a sequence it must hand to utf8.Valid every so
// often, at every offset.
func TestCountUTF8LongText(t *testing.T) {
	for _, f := range []string{strings.Repeat("ش", 90), strings.Repeat("é a", 40)} {
		for at := 0; at <= len(f); at++ {
			for _, s := range []string{"四", "🙂", "\xe0\x80", "a"} {
				checkUTF8(t, []byte(f[:at]+s+f[at:]+s+f))
			}
		}
	}
}

// BenchmarkValidUTF8 reads texts of 1.4 KB in three scripts, with
// utf8.Valid beside it.
func BenchmarkValidUTF8(b *testing.B) {
	texts := map[string]string{
		"ascii":  strings.Repeat("the close of business ", 64),
		"arabic": strings.Repeat("فاتورة رقم ١١٤ ", 52),
		"cjk":    strings.Repeat("营业结束时间，", 64),
	}
	for _, name := range []string{"ascii", "arabic", "cjk"} {
		p := []byte(texts[name])
		b.Run(name+"/impl=textdec", func(b *testing.B) {
			b.SetBytes(int64(len(p)))
			for b.Loop() {
				ValidUTF8(p)
			}
		})
		b.Run(name+"/impl=utf8", func(b *testing.B) {
			b.SetBytes(int64(len(p)))
			for b.Loop() {
				utf8.Valid(p)
			}
		})
	}
}
