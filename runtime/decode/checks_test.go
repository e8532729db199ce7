package decode

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/mcpgen/mcpgen/internal/testenv"
	"github.com/mcpgen/mcpgen/runtime/schema"
)

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

// TestLengthOfStringsRead checks minLength and maxLength of strings as a
// Reader reads them, where the count comes from the lexer's UTF-8 check
// (plain non-ASCII text), from the byte length (ASCII) or from a count of
// its own (escaped text, input read strictly before, a string other than
// the last read, of the same length in bytes as "四é" is), at and around each string's length in code points.
func TestLengthOfStringsRead(t *testing.T) {
	texts := []string{"", "PMT-771", "四é", "abcde", strings.Repeat("شركة أكمي", 14), "四😀é", strings.Repeat("😀a", 13),
		`line\nbreak \u0634`, `\ud83d\ude00 x`}
	for _, text := range texts {
		data := []byte(`["` + text + `", "other"]`)
		var want string
		if err := json.Unmarshal(data[1:len(data)-10], &want); err != nil {
			t.Fatal(err)
		}
		k := utf8.RuneCountInString(want)
		for _, begin := range []func([]byte) *Reader{Begin, BeginChecked} {
			for n := max(0, k-2); n <= k+2; n++ {
				for _, check := range []string{"min", "max"} {
					for _, other := range []bool{false, true} {
						r := begin(data)
						a := r.Array(nil, Array)
						a.Next()
						s, _ := r.Str(nil, String)
						if other {
							a.Next()
							r.Str(nil, String)
						}
						if s != want {
							t.Fatalf("read %q, want %q", s, want)
						}
						if check == "min" {
							r.MinLength(nil, s, n)
						} else {
							r.MaxLength(nil, s, n)
						}
						failed := r.own.Len() > 0
						if wantFail := (check == "min" && k < n) || (check == "max" && k > n); failed != wantFail {
							t.Errorf("%sLength(%q, %d) after reading %s: failed %v", check, s, n, data, failed)
						}
						r.Release()
					}
				}
			}
		}
	}
}

// The strings of one reading are substrings of one copy of the input
// (one allocation for them all), never of the caller's bytes, which it
// may reuse; a string with escapes is copied on its own.
func TestStringsShareOneCopyOfTheInput(t *testing.T) {
	data := []byte(`{"a":"the first of them","b":"line\nbreak","c":"the third of them"}`)
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
	if a != "the first of them" || b != "line\nbreak" || c != "the third of them" {
		t.Fatalf("read %q %q %q", a, b, c)
	}
	pa, pc := uintptr(unsafe.Pointer(unsafe.StringData(a))), uintptr(unsafe.Pointer(unsafe.StringData(c)))
	if pc-pa != uintptr(strings.Index(string(data), "the third")-strings.Index(string(data), "the first")) {
		t.Errorf("a and c are not substrings of one copy")
	}
	for i := range data {
		data[i] = 'x' // the caller reuses its buffer
	}
	if a != "the first of them" || b != "line\nbreak" || c != "the third of them" {
		t.Errorf("the caller's bytes changed the strings read: %q %q %q", a, b, c)
	}
	if testenv.RaceEnabled {
		return // allocations through the Reader pool are counted without the race detector
	}
	allocs := func(in string) float64 {
		data = []byte(in)
		return testing.AllocsPerRun(100, func() { read() })
	}
	plain, escaped, all := allocs(`{"a":"the first of them","c":"the third of them"}`), allocs(`{"b":"line\nbreak"}`), allocs(`{"a":"the first of them","b":"line\nbreak","c":"the third of them"}`)
	if plain != 1 || all != plain+escaped {
		t.Errorf("allocations a reading: %v for two plain strings (want 1, the copy), %v for an escaped one alone, %v for the three", plain, escaped, all)
	}
}

// Short strings are allocations of their own, the input not copied for
// them, until they come to tinyBudget bytes; the next short string makes
// the copy, which it and every string after it share.
func TestShortStringsBeforeTheCopy(t *testing.T) {
	const word = "8 bytes!" // four of them are the budget
	if len(word)*4 != tinyBudget || len(word) >= tinyText {
		t.Fatalf("the test's words no longer spend the budget in four")
	}
	read := func(data []byte) []string {
		r := NewReader(data)
		defer r.Release()
		got := make([]string, 0, 8)
		a := r.Array(nil, Array)
		for a.Next() {
			s, _ := r.Str(nil, String)
			got = append(got, s)
		}
		return got
	}
	for n := 1; n <= 7; n++ {
		data := []byte(`["` + strings.Repeat(word+`","`, n-1) + word + `"]`)
		got := read(data)
		if len(got) != n || slices.ContainsFunc(got, func(s string) bool { return s != word }) {
			t.Fatalf("%d words: read %q", n, got)
		}
		own := min(n, 4)
		for i := own + 1; i < n; i++ {
			step := uintptr(unsafe.Pointer(unsafe.StringData(got[i]))) - uintptr(unsafe.Pointer(unsafe.StringData(got[i-1])))
			if step != uintptr(len(word)+3) {
				t.Errorf("%d words: the %dth and the one before are not in one copy", n, i+1)
			}
		}
		if testenv.RaceEnabled {
			continue // allocations through the Reader pool are counted without the race detector
		}
		want := float64(own)
		if n > own {
			want++ // the copy
		}
		if allocs := testing.AllocsPerRun(100, func() { read(data) }); allocs != want+1 { // and read's slice
			t.Errorf("%d words: %v allocations a reading, want %v", n, allocs, want+1)
		}
	}
}

// TestPathsOfManyErrors reads an array of forty objects, each with a
// string (every other one escaped) and an undeclared member: every error
// is reported, sorted, at its element's path, and every string read stays
// as it was read once the Reader is back in its pool.
func TestPathsOfManyErrors(t *testing.T) {
	var in strings.Builder
	var want []string
	in.WriteString("[")
	for i := range 40 {
		if i > 0 {
			in.WriteString(",")
		}
		name := fmt.Sprintf("undeclared_member_%02d_%s", i, strings.Repeat("x", i))
		value := `v\u00e9`
		if i%2 == 1 {
			value = "vé"
		}
		fmt.Fprintf(&in, `{"s":"%s%d","%s":1}`, value, i, name)
		want = append(want, fmt.Sprintf("$[%d].%s: %s", i, name, schema.MsgAdditional))
	}
	in.WriteString("]")
	r := Begin([]byte(in.String()))
	var read []string
	a := r.Array(nil, Array)
	for a.Next() {
		o := r.Object(a.Loc(), Object)
		for o.Next() {
			if string(o.Name()) == "s" {
				s, _ := r.Str(nil, String)
				read = append(read, s)
				continue
			}
			o.Additional()
		}
	}
	errs, err := r.Finish()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	if got := errs.Strings(); !slices.Equal(got, want) {
		t.Fatalf("errors\n got %q\nwant %q", got, want)
	}
	for i, s := range read {
		if want := fmt.Sprintf("vé%d", i); s != want {
			t.Errorf("string %d read as %q, now %q", i, want, s)
		}
	}
}

// Own copies the items out of the caller's buffer, which the caller goes
// on to reuse, and gives an empty array as an empty slice, not nil.
func TestOwnCopiesOutOfTheBuffer(t *testing.T) {
	var buf [8]string
	items := append(buf[:0], "a", "b")
	got := Own(items)
	buf[0] = "changed"
	if !slices.Equal(got, []string{"a", "b"}) || cap(got) != 2 {
		t.Fatalf("Own gave %q (cap %d)", got, cap(got))
	}
	if empty := Own(buf[:0]); empty == nil || len(empty) != 0 {
		t.Fatalf("Own of no items: %#v", empty)
	}
}

// TestRefusedNameCostsItsPathOnly reads objects whose members
// additionalProperties false refuses. A refused name's path is made from
// the name as read, never from a string of it (which would copy the
// whole input, see Reader.text): in a long input each path is a string of
// its own; in a short one the first paths are too, while they are short
// (see tinyText), and the rest are written into the copy of the input its
// strings share (Reader.memberPath), made once.
func TestRefusedNameCostsItsPathOnly(t *testing.T) {
	for _, c := range []struct {
		name   string
		data   []byte
		allocs float64 // a reading's
		want   []string
	}{
		{"long: the two paths and the list", []byte(`{"urgent": true, "padding": "` + strings.Repeat("x", pathCopy) + `"}`), 3, []string{"$.padding", "$.urgent"}},
		{"short: the two paths and the list", []byte(`{"urgent": true,"padding":"` + strings.Repeat("x", 20) + `"}`), 3, []string{"$.padding", "$.urgent"}},
		{"short, many: two paths, the copy and the list", []byte(`{"member_one":1,"member_two":2,"member_six":6,"member_ten":10}`), 4, []string{"$.member_one", "$.member_six", "$.member_ten", "$.member_two"}},
	} {
		read := func() schema.Errors {
			r := Begin(c.data)
			o := r.Object(nil, Object)
			for o.Next() {
				o.Additional()
			}
			errs, err := r.Finish()
			if err != nil {
				t.Fatal(err)
			}
			return errs
		}
		var got []string
		for _, e := range read() {
			if e.Message != schema.MsgAdditional {
				t.Fatalf("%s: error %s", c.name, e)
			}
			got = append(got, e.Path)
		}
		if !slices.Equal(got, c.want) {
			t.Fatalf("%s: errors at %q, want %q", c.name, got, c.want)
		}
		if testenv.RaceEnabled {
			continue // allocations through the Reader pool are counted without the race detector
		}
		if n := testing.AllocsPerRun(100, func() { read() }); n != c.allocs {
			t.Errorf("%s: %v allocations a reading, want %v", c.name, n, c.allocs)
		}
	}
}

// TestMemberPathLeavesStringsAlone refuses every name of objects whose
// values are read as strings, which share the input's copy the paths are
// written into (the copy made before the first, as a reading that has
// spent its budget of short strings makes it): a path must not touch a
// byte a string covers (a string read before it, or after it), nor the
// caller's input. The same readings without the copy made first give
// every string and path its own bytes, and read the same.
func TestMemberPathLeavesStringsAlone(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string // the values, then the errors' paths
	}{
		{`{"a":"x","b":"y"}`, []string{"x", "y", "$.a", "$.b"}},
		{"{ \"a\" : \"x\" ,\t\"b\" :\"y\"\r\n}", []string{"x", "y", "$.a", "$.b"}},
		{`{"a":"\",\"","b":"y\"","c":"{"}`, []string{`","`, `y"`, "{", "$.a", "$.b", "$.c"}},
		{`{"a\u0041":"x","b":"y"}`, []string{"x", "y", "$.aA", "$.b"}}, // an escaped name: a path of its own
	} {
		for _, copyFirst := range []bool{true, false} {
			data := []byte(c.in)
			r := Begin(data)
			if copyFirst {
				r.inputCopy()
			}
			o := r.Object(nil, Object)
			var got []string
			for o.Next() {
				r.failMember(nil, o.Name(), schema.MsgAdditional)
				if s, ok := r.Str(o.Field(new(bool), "v", "$.v"), String); ok {
					got = append(got, s)
				}
			}
			errs, err := r.Finish()
			if err != nil {
				t.Fatalf("%s: %v", c.in, err)
			}
			for _, e := range errs {
				got = append(got, e.Path)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("%s (copy made first: %v): read %q, want %q", c.in, copyFirst, got, c.want)
			}
			if string(data) != c.in {
				t.Errorf("the caller's input changed from %s to %s", c.in, data)
			}
		}
	}
}

// TestDroppedValueStrings: a Reader whose value is dropped (Checker's)
// gives a string without escapes as the input's own bytes, and copies
// one with escapes, whose unescaped text lies in the lexer's buffer that
// the next string with escapes reuses: each string read stays what it
// was, whatever is read after it.
func TestDroppedValueStrings(t *testing.T) {
	data := []byte(`["plain words here", "tab\there", "line\nbreak", "more plain words"]`)
	r := NewReader(data)
	r.dropped = true
	defer r.Release()
	var got []string
	a := r.Array(nil, Array)
	for a.Next() {
		s, _ := r.Str(nil, String)
		got = append(got, s)
	}
	if want := []string{"plain words here", "tab\there", "line\nbreak", "more plain words"}; !slices.Equal(got, want) {
		t.Fatalf("read %q, want %q", got, want)
	}
	for _, i := range []int{0, 3} {
		if _, in := offsetIn(data, unsafe.Slice(unsafe.StringData(got[i]), len(got[i]))); !in {
			t.Errorf("%q is not the input's own bytes", got[i])
		}
	}
	for _, i := range []int{1, 2} {
		if _, in := offsetIn(data, unsafe.Slice(unsafe.StringData(got[i]), len(got[i]))); in {
			t.Errorf("%q, which has escapes, lies in the input", got[i])
		}
	}
}
