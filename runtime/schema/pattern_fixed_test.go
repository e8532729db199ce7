package schema

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// The fixed shapes are RE2's answer, taken without the regexp machine.
func TestFixedShapesMatchAsRE2Does(t *testing.T) {
	cases := map[string][]string{
		`^PMT-\d{3,}$`:                      {"PMT-123", "PMT-12", "PMT-1234567", "pmt-123", "PMT-12a", "PMT-", "XPMT-123", "PMT-123\n"},
		`^[A-Z]{2}$`:                        {"AE", "A", "AED", "ae", "", "A1"},
		`^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$`: {"DE89370400440532013000", "DE8937040044", "DE89", "de89370400440532013000", "DE89370400440532013000370400440532013000"},
		`^[0-9]{2}/[0-9]{2}$`:               {"12/27", "1/27", "12-27", "12/270"},
		`^a?$`:                              {"", "a", "aa", "b"},
		`^ab*$`:                             {"a", "abbb", "b", "abc"},
		`^x+$`:                              {"", "x", "xxx", "xy"},
		`^[^a-z]{2}$`:                       {"AB", "ab", "é"},
		`^\w{2}-\s?$`:                       {"ab-", "ab- ", "ab-\t", "a-"},
		`^[a-z]{1,3}[a-c]$`:                 {"ab", "abc", "abcd"},
		`^é{2}$`:                            {"éé"},
		`(?i)^ab$`:                          {"AB", "ab"},
		`^PMT-\d{3,}`:                       {"PMT-123x"},
		`^(ab){2}$`:                         {"abab"},
		`^ab$`:                              {"ab", "a", "abc", "", "b"},
		`^A-[0-9]B$`:                        {"A-1B", "A-1", "A-12B", "a-1B", "A-1b"},
	}
	for src, inputs := range cases {
		re := regexp.MustCompile(src)
		f := fixedShapeOf(src)
		for _, s := range inputs {
			if f != nil && f.match(s) != re.MatchString(s) {
				t.Errorf("%s on %q: fixed %v, RE2 %v", src, s, f.match(s), re.MatchString(s))
			}
		}
	}
	for src, fixed := range map[string]bool{
		`^PMT-\d{3,}$`: true, `^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$`: true, `^[0-9]{2}/[0-9]{2}$`: true,
		`^[a-z]{1,3}[a-c]$`: false, `^é{2}$`: false, `(?i)^ab$`: false, `^PMT-\d{3,}`: false, `^(ab){2}$`: false, `PMT`: false,
	} {
		if got := fixedShapeOf(src) != nil; got != fixed {
			t.Errorf("%s: fixed shape %v, want %v", src, got, fixed)
		}
	}
	// The leading literal bytes are compared at once, up to the first
	// part that is not one byte taken once.
	for src, prefix := range map[string]string{`^PMT-\d{3,}$`: "PMT-", `^ab$`: "ab", `^A-[0-9]B$`: "A-", `^[A-Z]{2}$`: "", `^a?$`: ""} {
		if f := fixedShapeOf(src); f == nil || f.prefix != prefix {
			t.Errorf("%s: prefix %+v, want %q", src, f, prefix)
		}
	}
}

func FuzzFixedShape(f *testing.F) {
	for _, src := range []string{`^PMT-\d{3,}$`, `^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$`, `^a?b*$`, `^[^a]{0,2}$`, `^\d+$`} {
		f.Add(src, "PMT-1234")
		f.Add(src, "DE89370400440532013000")
	}
	f.Fuzz(func(t *testing.T, src, s string) {
		re, err := regexp.Compile(src)
		if err != nil {
			return
		}
		if fx := fixedShapeOf(src); fx != nil && fx.match(s) != re.MatchString(s) {
			t.Fatalf("%s on %q: fixed %v, RE2 %v", src, s, fx.match(s), re.MatchString(s))
		}
	})
}

// Patterns of the fixed shape built at random, against strings built from
// their own alphabet (where the two could disagree), agree with RE2.
func TestFixedShapesAgreeOnGeneratedPatterns(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	atoms := []string{`a`, `b`, `-`, `\d`, `[A-Z]`, `[a-c]`, `[0-9a-f]`, `\w`, `/`}
	counts := []string{``, `{2}`, `{1}`, `{3}`}
	lasts := []string{``, `?`, `*`, `+`, `{0,2}`, `{2,}`, `{1,3}`}
	alphabet := []byte("ab-019AZcfg/_ x")
	checked := 0
	for range 500 {
		src := "^"
		n := 1 + rng.IntN(4)
		for i := range n {
			src += atoms[rng.IntN(len(atoms))]
			if i == n-1 {
				src += lasts[rng.IntN(len(lasts))]
			} else {
				src += counts[rng.IntN(len(counts))]
			}
		}
		src += "$"
		re := regexp.MustCompile(src)
		f := fixedShapeOf(src)
		if f == nil {
			t.Fatalf("%s has the fixed shape", src)
		}
		for range 200 {
			b := make([]byte, rng.IntN(14))
			for i := range b {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
			if f.match(string(b)) != re.MatchString(string(b)) {
				t.Fatalf("%s on %q: fixed %v, RE2 %v", src, b, f.match(string(b)), re.MatchString(string(b)))
			}
			checked++
		}
	}
	t.Logf("%d matches compared", checked)
}
