package decode

import (
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// codePoints must count what utf8.RuneCountInString counts in every valid
// UTF-8 string, whatever mix of one- to four-byte sequences it has and
// wherever they fall against its eight-byte words.
func TestCodePointsCountsRunes(t *testing.T) {
	pieces := []string{"a", "é", "ش", "€", "😀", "\u0080", "\U0010FFFF", "abcdefgh", " "}
	for _, s := range []string{"", "x", "PMT-771", strings.Repeat("شركة ", 30), strings.Repeat("😀a", 13)} {
		if got, want := codePoints(s), utf8.RuneCountInString(s); got != want {
			t.Errorf("codePoints(%q) = %d, want %d", s, got, want)
		}
	}
	// Every string of up to five pieces, so that each sequence length
	// starts at every offset of a word.
	var build func(prefix string, depth int)
	build = func(prefix string, depth int) {
		if got, want := codePoints(prefix), utf8.RuneCountInString(prefix); got != want {
			t.Fatalf("codePoints(%q) = %d, want %d", prefix, got, want)
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

// FuzzCodePoints holds codePoints to utf8.RuneCountInString on any valid
// UTF-8 string.
func FuzzCodePoints(f *testing.F) {
	f.Add("PMT-771")
	f.Add("شارع الشيخ زايد")
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		if got, want := codePoints(s), utf8.RuneCountInString(s); got != want {
			t.Fatalf("codePoints(%q) = %d, want %d", s, got, want)
		}
	})
}

// The byte-length shortcuts of MinLength and MaxLength decide as counting
// would: at and around each bound, in one-, two- and four-byte text.
func TestLengthBoundsInCodePoints(t *testing.T) {
	for _, unit := range []string{"a", "ش", "😀"} {
		for n := 0; n <= 6; n++ {
			for k := 0; k <= 8; k++ {
				s := strings.Repeat(unit, k)
				r := NewReader(nil)
				r.MinLength(nil, s, n)
				if failed := r.own.Len() > 0; failed != (k < n) {
					t.Errorf("MinLength(%q, %d): failed %v", s, n, failed)
				}
				r.Release()
				r = NewReader(nil)
				r.MaxLength(nil, s, n)
				if failed := r.own.Len() > 0; failed != (k > n) {
					t.Errorf("MaxLength(%q, %d): failed %v", s, n, failed)
				}
				r.Release()
			}
		}
	}
}

// The strings of one reading are substrings of one copy of the input
// (one allocation for them all), never of the caller's bytes, which it
// may reuse; a string with escapes is copied on its own.
func TestStringsShareOneCopyOfTheInput(t *testing.T) {
	data := []byte(`{"a":"first","b":"line\nbreak","c":"third"}`)
	read := func() (a, b, c string) {
		r := NewReader(data)
		defer r.Release()
		o := r.Object(nil, Object)
		for o.Next() {
			s, _ := r.Str(nil, String)
			switch string(o.Name()) {
			case "a":
				a = s
			case "b":
				b = s
			case "c":
				c = s
			}
		}
		return a, b, c
	}
	a, b, c := read()
	if a != "first" || b != "line\nbreak" || c != "third" {
		t.Fatalf("read %q %q %q", a, b, c)
	}
	pa, pc := uintptr(unsafe.Pointer(unsafe.StringData(a))), uintptr(unsafe.Pointer(unsafe.StringData(c)))
	if pc-pa != uintptr(strings.Index(string(data), "third")-strings.Index(string(data), "first")) {
		t.Errorf("a and c are not substrings of one copy")
	}
	for i := range data {
		data[i] = 'x' // the caller reuses its buffer
	}
	if a != "first" || b != "line\nbreak" || c != "third" {
		t.Errorf("the caller's bytes changed the strings read: %q %q %q", a, b, c)
	}
	if raceEnabled {
		return // allocations through the Reader pool are counted without the race detector
	}
	allocs := func(in string) float64 {
		data = []byte(in)
		return testing.AllocsPerRun(100, func() { read() })
	}
	plain, escaped, all := allocs(`{"a":"first","c":"third"}`), allocs(`{"b":"line\nbreak"}`), allocs(`{"a":"first","b":"line\nbreak","c":"third"}`)
	if plain != 1 || all != plain+escaped {
		t.Errorf("allocations a reading: %v for two plain strings (want 1, the copy), %v for an escaped one alone, %v for the three", plain, escaped, all)
	}
}
