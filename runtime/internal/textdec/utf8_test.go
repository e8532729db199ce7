package textdec

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkUTF8 holds ValidUTF8 to utf8.Valid on p.
func checkUTF8(t *testing.T, p []byte) {
	t.Helper()
	if got, want := ValidUTF8(p), utf8.Valid(p); got != want {
		t.Fatalf("ValidUTF8(% x) = %v, utf8.Valid says %v", p, got, want)
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
				p := []byte(f[:at] + string(s) + f[at:])
				if got, want := ValidUTF8(p), utf8.Valid(p); got != want {
					t.Fatalf("ValidUTF8(% x) = %v, utf8.Valid says %v", p, got, want)
				}
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
		p := make([]byte, rng.IntN(40))
		for i := range p {
			p[i] = pool[rng.IntN(len(pool))]
		}
		checkUTF8(t, p)
	}
}

func FuzzValidUTF8(f *testing.F) {
	f.Add([]byte("شركة أكمي 2026 – 四 🙂"))
	f.Add([]byte("\xd8\xb4\xd8\xb1\xd9\x83\xd8"))
	f.Fuzz(func(t *testing.T, p []byte) { checkUTF8(t, p) })
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
